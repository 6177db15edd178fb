import * as path from 'node:path';
import { UsageError } from '../errors';
import { isObject } from '../objects';
import type { GenerateHost } from '../generate/generate';
import { entryFile, loadServer, type ProjectServer } from './entry';

/** The host of every command: the working folder, files, the console and the environment (the generator's). */
export type CliHost = GenerateHost;

/** What a command runs with: its read options, the project's package.json, and its server, loaded on first ask. */
export interface CommandContext {
  readonly host: CliHost;
  readonly flags: ReadonlySet<string>;
  readonly values: ReadonlyMap<string, string>;
  /** The project's package.json (`{}` when there is none). */
  readonly packageJson: Readonly<Record<string, unknown>>;
  server(): Promise<ProjectServer>;
}

export function contextOf(host: CliHost, flags: ReadonlySet<string>, values: ReadonlyMap<string, string>): CommandContext {
  const packageJson = readPackageJson(host);
  let server: Promise<ProjectServer> | undefined;
  return {
    host,
    flags,
    values,
    packageJson,
    server: () => (server ??= loadServer(entryFile(values.get('--entry'), host.cwd, packageJson.main), host.cwd)),
  };
}

function readPackageJson(host: CliHost): Readonly<Record<string, unknown>> {
  const file = path.join(host.cwd, 'package.json');
  const text = host.readFile(file);
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`package.json is not JSON: ${(error as Error).message}`);
  }
  if (!isObject(value)) throw new UsageError('package.json is not a JSON object.');
  return value;
}
