import * as fs from 'node:fs';
import * as path from 'node:path';
import { generate, GenerateSession, type GenerateHost, type GenerateOptions } from './generate';
import { TYPESCRIPT_ENV } from './project';

const USAGE = `Usage: onemodelcontext generate [--project tsconfig.json] [--out src/onemodelcontext.facts.ts] [--check | --watch] [--typescript module]

Reads the project's sources with the TypeScript compiler API and writes one module of facts (doc comments,
declared types) that the application imports once: import './onemodelcontext.facts';

  --project, -p  the tsconfig to read (default: tsconfig.json)
  --out          the module to write (default: src/onemodelcontext.facts.ts beside the tsconfig)
  --check        write nothing; exit 1 when the module is missing or stale
  --watch        generate again whenever a file under the tsconfig's folder changes (unchanged files are
                 not read again; the module is written only when its text changes)
  --typescript   the compiler module to read with (a package name or a path; default: the
                 ONEMODELCONTEXT_TYPESCRIPT variable, else the project's typescript when it has the
                 classic API, else @typescript/typescript6, which TypeScript 7 projects install beside it)`;

/** The options that take a value, and which field of the options each sets. */
const VALUED: Readonly<Record<string, 'project' | 'out' | 'typescript'>> = {
  '--project': 'project',
  '-p': 'project',
  '--out': 'out',
  '--typescript': 'typescript',
};

/** Parses the arguments and runs the command; returns the exit code. */
export function main(argv: readonly string[], host: GenerateHost): number {
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h') {
    host.stdout(USAGE);
    return 0;
  }
  if (command !== 'generate') {
    host.stderr(command === undefined ? USAGE : `Unknown command '${command}'.\n${USAGE}`);
    return 1;
  }
  const options: { -readonly [K in keyof GenerateOptions]: GenerateOptions[K] } = {};
  if (host.env?.[TYPESCRIPT_ENV]) options.typescript = host.env[TYPESCRIPT_ENV];
  let watching = false;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (arg === '--check') options.check = true;
    else if (arg === '--watch') watching = true;
    else if (Object.hasOwn(VALUED, arg) && rest[i + 1] !== undefined && !rest[i + 1].startsWith('-')) {
      options[VALUED[arg]] = rest[++i];
    } else if (arg === '--help' || arg === '-h') {
      host.stdout(USAGE);
      return 0;
    } else {
      host.stderr(`Unknown or incomplete option '${arg}'.\n${USAGE}`);
      return 1;
    }
  }
  if (watching && options.check) {
    host.stderr(`--watch and --check cannot be combined.\n${USAGE}`);
    return 1;
  }
  return watching ? watch(options, host) : generate(options, host);
}

/**
 * `--watch`: one session (unchanged files are neither parsed nor bound again), run after each burst of
 * changes under the tsconfig's folder (node_modules and the module itself left out). Returns the first run's
 * exit code; the process keeps running.
 */
function watch(options: GenerateOptions, host: GenerateHost): number {
  const session = new GenerateSession(options, host);
  const code = session.run();
  const root = path.dirname(path.resolve(host.cwd, options.project ?? 'tsconfig.json'));
  let timer: NodeJS.Timeout | undefined;
  fs.watch(root, { recursive: true }, (_event, name) => {
    const file = name ? path.resolve(root, String(name)) : '';
    if (file === session.out || file.split(path.sep).includes('node_modules') || !/\.([mc]?ts|tsx|json)$/.test(file)) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      const started = performance.now();
      session.run();
      host.stdout(
        `Read ${session.cache.parsed.length} changed file${session.cache.parsed.length === 1 ? '' : 's'} in ${Math.round(performance.now() - started)} ms.`,
      );
    }, 50);
  });
  return code;
}

/** The host of a real run: the file system and the console. */
export function nodeHost(cwd: string): GenerateHost {
  return {
    cwd,
    readFile: (file) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined),
    writeFile: (file, text) => {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text);
    },
    stdout: (line) => process.stdout.write(`${line}\n`),
    stderr: (line) => process.stderr.write(`${line}\n`),
    env: process.env,
  };
}

export { GenerateSession } from './generate';
