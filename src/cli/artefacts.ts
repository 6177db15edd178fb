import { UsageError } from '../errors';
import { isObject } from '../objects';
import { REVERSE_DNS_NAME } from '../server/catalog/server-card';
import type { ProjectServer } from './entry';

/**
 * The publishing artefacts written from package.json and the server (docs/publishing.md lists every field's
 * source): the MCP Registry's `server.json` and the MCP Bundle's `manifest.json`. The server card is the server's
 * own (catalog/server-card.ts), so the served card and the written one are the same document.
 */

/** The registry's published `server.json` schema this file is written for. */
export const REGISTRY_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

/** The MCP Bundle manifest version written (the `@anthropic-ai/mcpb` schemas' latest). */
export const MCPB_MANIFEST_VERSION = '0.3';

type PackageJson = Readonly<Record<string, unknown>>;

/** What the command line adds to package.json: `--name`, `--url`, `--entry-point`. */
export interface ArtefactOptions {
  readonly name?: string;
  readonly url?: string;
  readonly entryPoint?: string;
}

export function registryServerJson(pkg: PackageJson, options: ArtefactOptions): Record<string, unknown> {
  const name = options.name ?? pkg.mcpName;
  if (typeof name !== 'string' || !REVERSE_DNS_NAME.test(name) || name.length > 200) {
    throw new UsageError(
      `server.json needs the server's name in reverse-DNS form, such as 'io.github.you/weather': set "mcpName" in package.json ` +
        `(the registry checks it against the npm package) or give --name; got ${JSON.stringify(name)}.`,
    );
  }
  const description = stringField(pkg, 'description');
  if (description.length > 100)
    throw new UsageError(`The registry takes a description of at most 100 characters; package.json's has ${description.length}.`);
  const version = stringField(pkg, 'version');
  const json: Record<string, unknown> = { $schema: REGISTRY_SCHEMA, name, description };
  const repository = repositoryOf(pkg.repository);
  if (repository) json.repository = repository;
  json.version = version;
  if (typeof pkg.homepage === 'string' && URL.canParse(pkg.homepage)) json.websiteUrl = pkg.homepage;
  if (typeof pkg.name === 'string' && pkg.private !== true) {
    json.packages = [{ registryType: 'npm', identifier: pkg.name, version, transport: { type: 'stdio' } }];
  }
  if (options.url !== undefined) json.remotes = [{ type: 'streamable-http', url: checkedUrl(options.url) }];
  if (json.packages === undefined && json.remotes === undefined) {
    throw new UsageError(
      'server.json lists no way to reach the server: publish it to npm (a "name" in package.json, not "private") or give --url.',
    );
  }
  return json;
}

export function mcpbManifest(pkg: PackageJson, server: ProjectServer, options: ArtefactOptions): Record<string, unknown> {
  const entryPoint = entryPointOf(pkg, options.entryPoint);
  const manifest: Record<string, unknown> = {
    manifest_version: MCPB_MANIFEST_VERSION,
    name: stringField(pkg, 'name'),
    version: stringField(pkg, 'version'),
    description: stringField(pkg, 'description'),
    author: authorOf(pkg.author),
  };
  if (typeof pkg.homepage === 'string' && URL.canParse(pkg.homepage)) manifest.homepage = pkg.homepage;
  if (typeof pkg.license === 'string') manifest.license = pkg.license;
  manifest.server = { type: 'node', entry_point: entryPoint, mcp_config: { command: 'node', args: [`\${__dirname}/${entryPoint}`] } };
  manifest.tools = server
    .listTools()
    .map((tool) => (tool.description === undefined ? { name: tool.name } : { name: tool.name, description: tool.description }));
  // A bundle's prompts carry their text, which a @Prompt method writes only when called: say they are generated.
  if (server.listings().prompts.length > 0) manifest.prompts_generated = true;
  return manifest;
}

function stringField(pkg: PackageJson, key: string): string {
  const value = pkg[key];
  if (typeof value !== 'string' || value.trim() === '')
    throw new UsageError(`package.json has no "${key}": the artefact takes it from there.`);
  return value;
}

/** `--entry-point`, else the package's first `bin`, else its `main`: the file that serves over stdio. */
function entryPointOf(pkg: PackageJson, given: string | undefined): string {
  const bin =
    typeof pkg.bin === 'string' ? pkg.bin : isObject(pkg.bin) ? Object.values(pkg.bin).find((v) => typeof v === 'string') : undefined;
  const file = given ?? bin ?? (typeof pkg.main === 'string' ? pkg.main : undefined);
  if (typeof file !== 'string')
    throw new UsageError('The bundle needs the file that serves over stdio: give --entry-point, or a "bin" in package.json.');
  return file.replace(/\\/g, '/').replace(/^\.\//, '');
}

/** package.json's `author`, a string `Name <email> (url)` or an object, as the bundle's `{ name, email, url }`. */
function authorOf(author: unknown): Record<string, string> {
  const parts = typeof author === 'string' ? /^\s*([^<(]*?)\s*(?:<([^>]*)>)?\s*(?:\(([^)]*)\))?\s*$/.exec(author) : undefined;
  const fields = isObject(author) ? author : parts ? { name: parts[1], email: parts[2], url: parts[3] } : {};
  if (typeof fields.name !== 'string' || fields.name === '')
    throw new UsageError('package.json has no "author": the bundle names its author.');
  const out: Record<string, string> = { name: fields.name };
  if (typeof fields.email === 'string' && fields.email !== '') out.email = fields.email;
  if (typeof fields.url === 'string' && URL.canParse(fields.url)) out.url = fields.url;
  return out;
}

/** package.json's `repository` as the registry's `{ url, source }`, for GitHub and GitLab; else none. */
function repositoryOf(repository: unknown): Record<string, string> | undefined {
  const raw =
    typeof repository === 'string' ? repository : isObject(repository) && typeof repository.url === 'string' ? repository.url : undefined;
  if (raw === undefined) return undefined;
  const short = /^(github|gitlab):([\w.-]+\/[\w.-]+)$/.exec(raw) ?? (/^([\w.-]+\/[\w.-]+)$/.test(raw) ? [raw, 'github', raw] : null);
  const url = short ? `https://${short[1]}.com/${short[2]}` : raw.replace(/^git\+/, '').replace(/\.git$/, '');
  const host = URL.canParse(url) ? new URL(url).hostname : '';
  const source = host === 'github.com' ? 'github' : host === 'gitlab.com' ? 'gitlab' : undefined;
  if (source === undefined) return undefined;
  const out: Record<string, string> = { url, source };
  if (isObject(repository) && typeof repository.directory === 'string') out.subfolder = repository.directory;
  return out;
}

function checkedUrl(url: string): string {
  if (!/^https?:\/\/\S+$/.test(url) || !URL.canParse(url))
    throw new UsageError(`--url takes the endpoint's public http(s) URL, such as https://mcp.example.com/mcp; got ${JSON.stringify(url)}.`);
  return url;
}
