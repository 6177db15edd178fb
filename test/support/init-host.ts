import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { InitHost } from '../../src/cli/init';

/** A host on a real folder that keeps what was printed. */
export function folderHost(cwd: string): InitHost & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    cwd,
    out,
    err,
    exists: (file) => existsSync(file),
    readFile: (file) => (existsSync(file) ? readFileSync(file, 'utf8') : undefined),
    writeFile: (file, text) => {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
    },
    stdout: (line) => out.push(line),
    stderr: (line) => err.push(line),
  };
}
