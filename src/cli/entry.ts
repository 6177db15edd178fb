import * as path from 'node:path';
import { UsageError } from '../errors';
import { isObject } from '../objects';
import type { ToolListing } from '../server/catalog/listing';
import type { PromptListing, ResourceListing } from '../server/catalog/resource-listing';
import type { ServerCardOptions } from '../server/catalog/server-card';
import type { ProfileName } from '../schema/profiles';

/**
 * How the command line reaches a project's server: it loads the project's entry module, which builds the
 * `McpServer` and exports it (docs/contract-review.md, "The entry"). Only the server's public face is used, so the
 * server may come from the project's own copy of the package.
 */

/** What the commands ask of a loaded server. */
export interface ProjectServer {
  listTools(options?: { readonly listing?: ProfileName }): readonly ToolListing[];
  listings(): {
    readonly resources: readonly ResourceListing[];
    readonly templates: readonly ResourceListing[];
    readonly prompts: readonly PromptListing[];
  };
  serverCard(options?: ServerCardOptions, primitives?: boolean): Record<string, unknown>;
}

const HOW =
  'The entry is a module that builds the server without serving it and exports it: `export const server = ...`, ' +
  'a default export, or a function returning the server (or a promise of it); serve from another file.';

/** The module to load: `--entry`, else the `main` of the project's package.json. */
export function entryFile(given: string | undefined, cwd: string, packageMain: unknown): string {
  const entry = given ?? (typeof packageMain === 'string' ? packageMain : undefined);
  if (entry === undefined) throw new UsageError(`No entry module: give --entry <module>, or set "main" in package.json. ${HOW}`);
  return path.resolve(cwd, entry);
}

/** Loads the entry and returns the server it exports; every failure says which module and what to do. */
export async function loadServer(file: string, cwd: string): Promise<ProjectServer> {
  const shown = path.relative(cwd, file) || file;
  let resolved: string;
  try {
    resolved = require.resolve(file);
  } catch {
    throw new UsageError(`Cannot find the entry module ${shown}: build the project first, or give --entry <module>.`);
  }
  let exports: unknown;
  try {
    // A plain `require`: Node loads CommonJS and (from 20.19 and 22.12) ES modules; a test runner its own way.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    exports = require(resolved);
  } catch (error) {
    throw new UsageError(`The entry module ${shown} failed to load: ${messageOf(error)}`, { cause: error });
  }
  const server = await serverOf(exports, shown);
  if (!isProjectServer(server)) throw new UsageError(`The entry module ${shown} exports no McpServer. ${HOW}`);
  return server;
}

/** `server`, else `default`, else the module itself; a function is called, a promise awaited. */
async function serverOf(exports: unknown, shown: string): Promise<unknown> {
  const exported =
    isObject(exports) && 'server' in exports ? exports.server : isObject(exports) && 'default' in exports ? exports.default : exports;
  try {
    const value = typeof exported === 'function' ? await (exported as () => unknown)() : await exported;
    return value;
  } catch (error) {
    throw new UsageError(`The entry module ${shown} failed to build its server: ${messageOf(error)}`, { cause: error });
  }
}

function isProjectServer(value: unknown): value is ProjectServer {
  return (
    isObject(value) &&
    typeof value.listTools === 'function' &&
    typeof value.listings === 'function' &&
    typeof value.serverCard === 'function'
  );
}

/** An error's message, without its stack (a definition error's message lists every diagnostic). */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
