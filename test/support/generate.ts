import * as fs from 'node:fs';
import * as path from 'node:path';
import { main } from '../../src/generate/cli';
import type { GenerateHost } from '../../src/generate/generate';

/** One in-process run of the command: its exit code, what it printed, and what it wrote (nothing is written to disk). */
export interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly written: ReadonlyMap<string, string>;
}

/**
 * Runs `onemodelcontext <argv>` in a fixture project. Sources are read from disk; the generated module is
 * read from `files` when given there (to make it stale or missing), else from disk, and written to memory;
 * `env` is the environment the command sees.
 */
export function run(
  fixture: string,
  argv: readonly string[],
  files: Readonly<Record<string, string | undefined>> = {},
  env: Readonly<Record<string, string | undefined>> = {},
): Run {
  const cwd = path.join(__dirname, '..', 'fixtures', fixture);
  const out = { stdout: [] as string[], stderr: [] as string[], written: new Map<string, string>() };
  const host: GenerateHost = {
    cwd,
    readFile: (file) => {
      const relative = path.relative(cwd, file).split(path.sep).join('/');
      if (relative in files) return files[relative];
      return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
    },
    writeFile: (file, text) => out.written.set(path.relative(cwd, file).split(path.sep).join('/'), text),
    stdout: (line) => out.stdout.push(line),
    stderr: (line) => out.stderr.push(line),
    env,
  };
  const code = main(argv, host);
  return { code, stdout: out.stdout.join('\n'), stderr: out.stderr.join('\n'), written: out.written };
}

/** The committed text of a fixture file. */
export function fixtureFile(fixture: string, file: string): string {
  return fs.readFileSync(path.join(__dirname, '..', 'fixtures', fixture, file), 'utf8');
}
