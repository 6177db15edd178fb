#!/usr/bin/env node
import * as fs from 'node:fs';
import * as path from 'node:path';
import { OneModelContextError } from '../errors';
import { main as generateMain, nodeHost } from '../generate/cli';
import { readArgs, type OptionSpec } from './args';
import { contextOf, type CliHost, type CommandContext } from './command';
import { init, INIT_USAGE, type InitHost } from './init';
import { manifest, MANIFEST_OPTIONS, MANIFEST_USAGE } from './manifest';
import { snapshot, SNAPSHOT_OPTIONS, SNAPSHOT_USAGE } from './snapshot';

/**
 * The `onemodelcontext` command line (the package's `bin`): a table of commands, each with its usage text.
 * `--help`/`-h` and `--version`/`-V` work before any command and after every one.
 */

interface Command {
  readonly summary: string;
  readonly usage: string;
  /** Runs the command with its own arguments; `generate` reads them itself (its messages are its own contract). */
  readonly run: (args: readonly string[], host: CliHost) => number | Promise<number>;
}

const COMMANDS: Readonly<Record<string, Command>> = {
  generate: {
    summary: 'write the facts module (doc comments, declared types) of the project',
    usage: '',
    run: (args, host) => generateMain(['generate', ...args], host),
  },
  snapshot: {
    summary: 'write the listings to a committed file; --check compares with it',
    usage: SNAPSHOT_USAGE,
    run: reading(SNAPSHOT_OPTIONS, SNAPSHOT_USAGE, snapshot),
  },
  manifest: {
    summary: 'write server.json (--registry), manifest.json (--mcpb) or the server card (--card)',
    usage: MANIFEST_USAGE,
    run: reading(MANIFEST_OPTIONS, MANIFEST_USAGE, manifest),
  },
  init: {
    summary: 'write a new project (--nest: a Nest application)',
    usage: INIT_USAGE,
    run: (args, host) => init(args, initHostOf(host)),
  },
};

/** The command line's host as `init` reads it: the same files and console, and whether a path exists. */
function initHostOf(host: CliHost): InitHost {
  return {
    cwd: host.cwd,
    exists: (file) => fs.existsSync(file),
    readFile: (file) => host.readFile(file),
    writeFile: (file, text) => host.writeFile(file, text),
    stdout: (line) => host.stdout(line),
    stderr: (line) => host.stderr(line),
  };
}

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const rows = Object.entries(COMMANDS).map(([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`);
  return `Usage: onemodelcontext <command> [options]\n\nCommands:\n${rows.join('\n')}\n\nRun onemodelcontext <command> --help for a command's options; --version prints the version.`;
}

/** A command whose options are read by the shared reader; a failure of ours is one line on stderr and exit 1. */
function reading(spec: OptionSpec, text: string, command: (context: CommandContext) => Promise<number>): Command['run'] {
  return async (args, host) => {
    const read = readArgs(args, spec);
    if ('refused' in read) {
      host.stderr(`Unknown or incomplete option '${read.refused}'.\n${text}`);
      return 1;
    }
    if (read.help) {
      host.stdout(text);
      return 0;
    }
    try {
      return await command(contextOf(host, read.flags, read.values));
    } catch (error) {
      if (!(error instanceof OneModelContextError)) throw error;
      host.stderr(error.message);
      return 1;
    }
  };
}

/** The package's version, read from its package.json (two folders up from src/cli and from dist/cli alike). */
export function version(): string {
  const file = path.join(__dirname, '..', '..', 'package.json');
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
}

/** Parses the arguments and runs the command; resolves with the exit code. */
export async function main(argv: readonly string[], host: CliHost): Promise<number> {
  const [name, ...rest] = argv;
  if (
    name === '--version' ||
    name === '-V' ||
    (name !== undefined && Object.hasOwn(COMMANDS, name) && rest.some((a) => a === '--version' || a === '-V'))
  ) {
    host.stdout(version());
    return 0;
  }
  if (name === '--help' || name === '-h') {
    host.stdout(usage());
    return 0;
  }
  if (name === undefined || !Object.hasOwn(COMMANDS, name)) {
    host.stderr(name === undefined ? usage() : `Unknown command '${name}'.\n${usage()}`);
    return 1;
  }
  return COMMANDS[name].run(rest, host);
}

if (require.main === module) {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- newer than the @types/node in use
  (require('node:module') as { enableCompileCache?: () => unknown }).enableCompileCache?.();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (require('node:v8') as typeof import('node:v8')).setFlagsFromString('--max-semi-space-size=32');
  const args = process.argv.slice(2);
  void main(args, nodeHost(process.cwd())).then(
    (code) => {
      process.exitCode = code;
      // `generate --watch` keeps running; every other command is done, whatever the loaded project left open.
      if (!(args[0] === 'generate' && args.includes('--watch'))) process.exit(code);
    },
    (error: unknown) => {
      // Not one of ours (those are one line, exit 1): the stack is what a bug report needs.
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
export { GenerateSession } from '../generate/cli';
