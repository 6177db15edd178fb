import type { ReadResourceResult, Server, ServerContext } from '@modelcontextprotocol/server';
import type { SkillCatalog, SkillFiles } from '@modelcontextprotocol/server/ext/skills';
import { DependencyError, OneModelContextError } from '../../errors';

/**
 * The SDK's Skills extension (SEP-2640, `@modelcontextprotocol/server/ext/skills`) on our servers. The SDK serves
 * skills through `SkillsExtension.attach(mcp)`, written for its own `McpServer`: it registers the `skill://`
 * resource template with `mcp.registerResource` and the skills methods with `mcp.server.setRequestHandler`, then
 * declares the capability. Our servers are the SDK's `Server` over our catalog, so `attach` is given a stand-in
 * for `McpServer` (below): the request handlers go on our `Server` behind our guard, the template's read callback
 * is kept for our `resources/read` to answer `skill://` URIs with. Only this file knows how `attach` uses its
 * argument: `isConnected()`, `registerResource(name, template, metadata, read)`, and on `server` the public
 * `assertCanSetRequestHandler`, `setRequestHandler`, `registerCapabilities` and `getNegotiatedProtocolVersion`
 * (the SDK marks `attach` experimental; test/server/skills fails first should that change).
 */

/** One skill as this library authorizes it: its `SKILL.md` URI, its name, and the URIs of its files. */
export interface SkillEntry {
  readonly uri: string;
  readonly name: string;
  /** The skill's folder URI with a trailing `/` (`skill://git-workflow/`). */
  readonly root: string;
  readonly files: ReadonlySet<string>;
  /** Its `SKILL.md` as the SDK's template lists it in `resources/list`. */
  readonly listing: {
    readonly uri: string;
    readonly name: string;
    readonly description: string;
    readonly mimeType: 'text/markdown';
    readonly size: number;
  };
}

/** A loaded folder of skills: the SDK's catalog, what `attach` declares, and each skill. */
export interface LoadedSkills {
  readonly extension: SkillCatalog;
  /** The extension's capability entry as the SDK's `attach` declares it (`{ directoryRead: true }`). */
  readonly capability: Readonly<Record<string, unknown>>;
  /**
   * The `skill://` resource template as the SDK's `McpServer` lists it in `resources/templates/list` once `attach`
   * registered it: `{ name, uriTemplate, ...metadata }` (`io.modelcontextprotocol/skills`, `skill://{+path}`).
   */
  readonly template: Readonly<{ name: string; uriTemplate: string } & Record<string, unknown>>;
  readonly entries: readonly SkillEntry[];
}

/**
 * Why a folder could not be loaded: each problem the SDK found, by path. Never reaches a caller: catalog/skills.ts
 * turns it into the `DefinitionError` of `addSkills`, whose code it already carries.
 */
export class SkillFolderError extends OneModelContextError {
  readonly code = 'DEFINITION_INVALID';

  constructor(readonly problems: readonly { readonly path: string; readonly message: string }[]) {
    super(problems.map((p) => `${p.path}: ${p.message}`).join('; '));
  }
}

/** The canonical form of a URI, as the SDK's skills code compares them (`new URL(uri).href`); none when unparsable. */
export function canonicalUri(uri: string): string | undefined {
  try {
    return new URL(uri).href;
  } catch {
    return undefined;
  }
}

/**
 * Where a catalog's skills come from: a folder of skill folders on disk (`server.addSkills(folder)`), and files in
 * memory by path (`<skill>/SKILL.md`, `<skill>/references/...`: what `@Skill` methods gave). Their skill names do not
 * overlap (the caller checks).
 */
export interface SkillSources {
  readonly folder?: string;
  readonly memory?: Readonly<Record<string, string | Uint8Array>>;
}

/** Every skill of `sources`, loaded strictly: any problem the SDK reports refuses the whole catalog. */
export async function loadSkillCatalog(
  sources: SkillSources,
  limits: { files?: number; bytes?: number } | undefined,
  onServingWarning: (warning: { readonly path: string; readonly message: string }) => void,
): Promise<LoadedSkills> {
  // Required here, not at the top: a stdio server without skills never loads the SDK's skills modules.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const node = require('@modelcontextprotocol/server/ext/skills/node') as typeof import('@modelcontextprotocol/server/ext/skills/node');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const ext = require('@modelcontextprotocol/server/ext/skills') as typeof import('@modelcontextprotocol/server/ext/skills');
  const parts: SkillFiles[] = [];
  if (sources.folder !== undefined) parts.push(node.nodeSkillFiles(sources.folder));
  if (sources.memory !== undefined) parts.push(ext.memorySkillFiles({ ...sources.memory }));
  const warnings: { path: string; message: string }[] = [];
  // While loading, a warning refuses the folder; once loaded, it is about a file being served (changed since).
  let loading = true;
  const onWarning = (w: { path: string; message: string }) => (loading ? void warnings.push(w) : onServingWarning(w));
  let extension: SkillCatalog;
  try {
    extension = await ext.SkillsExtension.load(parts.length === 1 ? parts[0] : unionOf(parts), { strict: true, limits, onWarning });
  } catch (error) {
    if (ext.SkillCatalogError.isInstance(error)) throw new SkillFolderError([...warnings, ...error.problems]);
    throw new SkillFolderError([{ path: '.', message: error instanceof Error ? error.message : String(error) }]);
  }
  loading = false;
  if (warnings.length > 0) throw new SkillFolderError(warnings);
  return { extension, ...declarationsOf(extension), entries: extension.entries.map(entryOf) };
}

/**
 * Two storages as one: the catalog walks the root (`''`), whose entries are skill folders, and reads paths under
 * them; each path goes to the storage that listed its first segment.
 */
function unionOf(parts: readonly SkillFiles[]): SkillFiles {
  let owners = new Map<string, SkillFiles>();
  const walkRoot = async () => {
    const listed = await Promise.all(parts.map(async (part) => ({ part, entries: await part.list('') })));
    owners = new Map(listed.flatMap(({ part, entries }) => entries.map((e) => [e.name, part] as const)));
    return listed.flatMap(({ entries }) => entries);
  };
  const ownerOf = async (path: string) => {
    if (owners.size === 0) await walkRoot();
    const owner = owners.get(path.split('/')[0]);
    if (owner === undefined) throw new SkillFolderError([{ path, message: 'no skill storage holds it' }]);
    return owner;
  };
  return {
    list: async (dir) => (dir === '' ? walkRoot() : (await ownerOf(dir)).list(dir)),
    read: async (path) => (await ownerOf(path)).read(path),
  };
}

function entryOf(skill: SkillCatalog['entries'][number]): SkillEntry {
  const resources = Array.isArray(skill.resources) ? skill.resources : [];
  const manifest = resources.find((r) => r.uri === skill.uri);
  const { name, description } = skill.frontmatter;
  return Object.freeze({
    uri: skill.uri,
    name: skill.frontmatter.name,
    root: skill.uri.slice(0, -'SKILL.md'.length),
    // A catalog built from storage lists every file ('dynamic' is for a source of one's own).
    files: new Set<string>(resources.map((r) => canonicalUri(r.uri) ?? r.uri)),
    listing: Object.freeze({ uri: skill.uri, name, description, mimeType: 'text/markdown' as const, size: manifest?.size ?? 0 }),
  });
}

/**
 * The capability `attach` declares and the resource template it registers, read by attaching to a stand-in that
 * records both and keeps nothing else. The template is listed as the SDK's `McpServer` lists a registered one.
 */
function declarationsOf(extension: SkillCatalog): Pick<LoadedSkills, 'capability' | 'template'> {
  let declared: Readonly<Record<string, unknown>> = {};
  let template: LoadedSkills['template'] | undefined;
  const server = {
    assertCanSetRequestHandler: () => {},
    setRequestHandler: () => {},
    registerCapabilities: (caps: { extensions?: Record<string, Readonly<Record<string, unknown>>> }) => {
      declared = caps.extensions?.[extension.id] ?? {};
    },
    getNegotiatedProtocolVersion: () => undefined,
  };
  const registerResource = (name: string, registered: { uriTemplate: { toString(): string } }, metadata: Record<string, unknown>) => {
    template = Object.freeze({ name, uriTemplate: registered.uriTemplate.toString(), ...metadata });
  };
  extension.attach({ isConnected: () => false, server, registerResource } as never);
  if (template === undefined)
    throw new SkillFolderError([{ path: '.', message: 'the SDK skills extension registered no resource template' }]);
  return { capability: Object.freeze({ ...declared }), template };
}

/** A request handler of the skills methods as the SDK registers it (its three-argument form). */
type ParamsHandler = (params: Record<string, unknown>, ctx: ServerContext) => Promise<unknown>;

/** What our server puts around the SDK's skills handlers: the caller's view of each method, by method. */
export type SkillsGuard = (method: string, handler: ParamsHandler) => ParamsHandler;

/** Reads one skill file through the SDK's template callback (the URI canonical and published). */
export type SkillFileReader = (uri: string, ctx: ServerContext) => Promise<ReadResourceResult>;

type TemplateRead = (uri: URL, variables: Record<string, unknown>, ctx: ServerContext) => Promise<ReadResourceResult>;

/**
 * Attaches the SDK's skills extension to one of our servers: each skills method the SDK registers goes on `server`
 * wrapped by `guard`, the capability is declared on it, and the reader of skill files is returned.
 */
export function attachSkills(extension: SkillCatalog, server: Server, guard: SkillsGuard): SkillFileReader {
  let read: TemplateRead | undefined;
  const standIn = {
    assertCanSetRequestHandler: (method: string) => server.assertCanSetRequestHandler(method),
    setRequestHandler: (method: string, schemas: { params: never }, handler: ParamsHandler) =>
      server.setRequestHandler(method, schemas, guard(method, handler) as never),
    registerCapabilities: (caps: Parameters<Server['registerCapabilities']>[0]) => server.registerCapabilities(caps),
    getNegotiatedProtocolVersion: () => server.getNegotiatedProtocolVersion(),
  };
  const mcp = {
    isConnected: () => false,
    server: standIn,
    registerResource: (_name: string, _template: unknown, _metadata: unknown, callback: TemplateRead) => {
      read = callback;
    },
  };
  extension.attach(mcp as never);
  if (read === undefined) throw new DependencyError('the SDK skills extension registered no skill resource template');
  const templateRead = read;
  return (uri, ctx) => templateRead(new URL(uri), {}, ctx);
}
