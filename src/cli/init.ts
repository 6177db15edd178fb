import * as path from 'node:path';
import { templateFiles, type TemplateFile } from './init-templates';

export const INIT_USAGE = `Usage: onemodelcontext init [folder] [--nest] [--force]

Writes a new MCP server project into the folder (default: the current one): package.json, a tsconfig.json for
TypeScript 7, a tool in src/, and a vitest test that calls it. Then: npm install && npm test

  --nest   a NestJS application instead: an AppModule with McpModule.forRoot and a provider with a @Tool
  --force  write even when the folder already has a package.json or a src/ folder (the files init writes are
           replaced; nothing else is touched)
  --help   this text`;

/** What `init` reads and writes, so that tests can run it on a real folder and read what it printed. */
export interface InitHost {
  readonly cwd: string;
  /** Whether a file or folder exists. */
  exists(file: string): boolean;
  readFile(file: string): string | undefined;
  /** Writes the file, creating its parent folders. */
  writeFile(file: string, text: string): void;
  stdout(line: string): void;
  stderr(line: string): void;
}

interface InitOptions {
  readonly folder: string | undefined;
  readonly nest: boolean;
  readonly force: boolean;
}

// The package's own manifest, from src/cli or dist/cli alike: the new project depends on this version (`^`).
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a JSON file outside rootDir, read once
const VERSION = (require('../../package.json') as { readonly version: string }).version;

/** Runs `onemodelcontext init` with the arguments after the command's name; returns the exit code. */
export function init(args: readonly string[], host: InitHost): number {
  if (args.includes('--help') || args.includes('-h')) {
    host.stdout(INIT_USAGE);
    return 0;
  }
  const parsed = parse(args);
  if (typeof parsed === 'string') {
    host.stderr(`${parsed}\n${INIT_USAGE}`);
    return 1;
  }
  const root = path.resolve(host.cwd, parsed.folder ?? '.');
  const taken = ['package.json', 'src'].filter((name) => host.exists(path.join(root, name)));
  if (taken.length > 0 && !parsed.force) {
    const shown = taken.map((name) => (name === 'src' ? 'a src/ folder' : 'a package.json')).join(' and ');
    host.stderr(`${shownFolder(host.cwd, root)} already has ${shown}; init writes only into a new project (--force writes anyway).`);
    return 1;
  }
  const files = templateFiles({ name: packageName(root), library: `^${VERSION}` }, parsed.nest);
  write(root, files, host);
  host.stdout(nextSteps(host.cwd, root, files, parsed.nest));
  return 0;
}

/** The options, or what is wrong with the arguments. */
function parse(args: readonly string[]): InitOptions | string {
  let folder: string | undefined;
  let nest = false;
  let force = false;
  for (const arg of args) {
    if (arg === '--nest') nest = true;
    else if (arg === '--force') force = true;
    else if (arg.startsWith('-')) return `Unknown option '${arg}'.`;
    else if (folder !== undefined) return `One folder only: '${folder}' and '${arg}' were given.`;
    else folder = arg;
  }
  return { folder, nest, force };
}

function write(root: string, files: readonly TemplateFile[], host: InitHost): void {
  for (const file of files) host.writeFile(path.join(root, ...file.path.split('/')), file.text);
}

/**
 * An npm package name from the folder's name: lower case, and each run of characters npm refuses replaced with
 * `-` (npm names are URL-safe, at most 214 characters, and start with neither `.` nor `_`).
 */
export function packageName(folder: string): string {
  const name = path
    .basename(folder)
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, '-')
    .replace(/^[._-]+|-+$/g, '')
    .slice(0, 214);
  return name === '' || name === 'node_modules' || name === 'favicon.ico' ? 'mcp-server' : name;
}

function shownFolder(cwd: string, root: string): string {
  const relative = path.relative(cwd, root).split(path.sep).join('/');
  return relative === '' ? 'This folder' : `'${relative}'`;
}

function nextSteps(cwd: string, root: string, files: readonly TemplateFile[], nest: boolean): string {
  const relative = path.relative(cwd, root).split(path.sep).join('/');
  const into = relative === '' ? '' : `cd ${relative} && `;
  return [
    `Wrote a new ${nest ? 'NestJS ' : ''}MCP server project: ${files.map((file) => file.path).join(', ')}.`,
    `Next: ${into}npm install && npm test`,
  ].join('\n');
}
