import type { Stats } from 'node:fs';

/**
 * `node:fs/promises`, loaded on first use. On Node.js 24 loading it costs about 25 million machine instructions,
 * 7% of a whole stdio server's start (it brings `readline`, the REPL's history and a dozen other internal modules
 * with it), and only a view read from a file and a skills folder need it.
 */
type NodeFsPromises = typeof import('node:fs/promises');

let loaded: NodeFsPromises | undefined;

function fsPromises(): NodeFsPromises {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (loaded ??= require('node:fs/promises') as NodeFsPromises);
}

export function readFile(path: string, encoding: 'utf8'): Promise<string> {
  return fsPromises().readFile(path, encoding);
}

export function readdir(path: string): Promise<string[]> {
  return fsPromises().readdir(path);
}

export function stat(path: string): Promise<Stats> {
  return fsPromises().stat(path);
}
