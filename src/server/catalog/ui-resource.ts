import { isObject } from '../../objects';
import { UsageTypeError } from '../../errors';
import { readFile } from '../node-fs';
import { checkPublic, checkScopes } from '../../decorators/member';
import type { ResourceListing } from './resource-listing';

/**
 * MCP Apps views (`ui://` resources served as `text/html;profile=mcp-app`): the options `server.addUiResource`
 * takes, checked once, and what a view is listed and read as. The `_meta.ui` a view declares (its content
 * security policy, permissions, dedicated origin, border preference) goes out on both the `resources/list` entry
 * and the `resources/read` content, as the extension's server helpers put it: hosts read the content's and fall
 * back to the listing's.
 */

/** The MIME type of MCP Apps UI resources. */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';

/** The origins a view may reach; a host builds the iframe's Content-Security-Policy from them. */
export interface UiResourceCsp {
  /** Origins for fetch, XHR and WebSocket (`connect-src`). */
  readonly connectDomains?: readonly string[];
  /** Origins for scripts, styles, images, fonts and media. */
  readonly resourceDomains?: readonly string[];
  /** Origins for nested iframes (`frame-src`). */
  readonly frameDomains?: readonly string[];
  /** Allowed base URIs of the document (`base-uri`). */
  readonly baseUriDomains?: readonly string[];
}

/** Browser features a view asks the host for (Permission Policy); each is `{}` when asked. */
export interface UiResourcePermissions {
  readonly camera?: Record<string, never>;
  readonly microphone?: Record<string, never>;
  readonly geolocation?: Record<string, never>;
  readonly clipboardWrite?: Record<string, never>;
}

/**
 * A view for `server.addUiResource`: its HTML from exactly one of `html`, `file` or `read`, how it is listed, and
 * the security metadata a host applies to its iframe.
 * @example server.addUiResource('ui://weather/view', { file: 'dist/view.html', title: 'Weather', csp: { connectDomains: ['https://api.example.com'] } });
 */
export interface UiResourceOptions {
  /** The view's HTML, as a string. */
  readonly html?: string;
  /** A file holding the view's HTML (UTF-8), read on every `resources/read`: a rebuilt view is served at once. */
  readonly file?: string;
  /** Builds or loads the view's HTML on every `resources/read`. */
  readonly read?: () => string | Promise<string>;
  /** The listing's `name`; by default the URI without `ui://`. */
  readonly name?: string;
  readonly title?: string;
  readonly description?: string;
  readonly csp?: UiResourceCsp;
  readonly permissions?: UiResourcePermissions;
  /** A dedicated origin for the view's sandbox; its format is the host's (such as `{hash}.claudemcpcontent.com`). */
  readonly domain?: string;
  /** Whether the view wants the host to draw a border and background around it; hosts decide when unset. */
  readonly prefersBorder?: boolean;
  /** What a caller's token must grant to list and read the view (default none). */
  readonly scopes?: readonly string[];
  /** Over HTTP with `auth: { allowAnonymous: true }`: listed to and read by callers without a token (the view of a public tool). */
  readonly public?: boolean;
}

/** The `_meta.ui` of a view, as sent. */
export interface UiResourceMeta {
  readonly csp?: UiResourceCsp;
  readonly permissions?: UiResourcePermissions;
  readonly domain?: string;
  readonly prefersBorder?: boolean;
}

/** A registered view: its listing and how its HTML is read. */
export interface UiResource {
  readonly listing: ResourceListing;
  /** `_meta` of the read content, when the view declares `_meta.ui`. */
  readonly meta?: { readonly ui: UiResourceMeta };
  readonly html: () => Promise<string>;
  /** What a caller's token must grant to list and read it. */
  readonly scopes: readonly string[];
  /** Whether callers without a token may list and read it. */
  readonly public: boolean;
}

const CSP_KEYS: readonly (keyof UiResourceCsp)[] = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'];
const PERMISSION_KEYS: readonly (keyof UiResourcePermissions)[] = ['camera', 'microphone', 'geolocation', 'clipboardWrite'];
const OPTION_KEYS: ReadonlySet<string> = new Set([
  'html',
  'file',
  'read',
  'name',
  'title',
  'description',
  'csp',
  'permissions',
  'domain',
  'prefersBorder',
  'scopes',
  'public',
]);

/** Every problem of a view's options, as sentences; empty when they are right. */
function problemsOf(options: Readonly<Record<string, unknown>>): string[] {
  const problems: string[] = [];
  const unknown = Object.keys(options).filter((k) => !OPTION_KEYS.has(k));
  if (unknown.length > 0) problems.push(`unknown option ${unknown.map((k) => `'${k.slice(0, 64)}'`).join(', ')}`);
  const sources = (['html', 'file', 'read'] as const).filter((k) => options[k] !== undefined);
  if (sources.length !== 1)
    problems.push(`give exactly one of html, file or read (got ${sources.length === 0 ? 'none' : sources.join(', ')})`);
  if (options.html !== undefined && typeof options.html !== 'string') problems.push('html must be a string');
  if (options.file !== undefined && (typeof options.file !== 'string' || options.file === '')) problems.push('file must be a path');
  if (options.read !== undefined && typeof options.read !== 'function') problems.push('read must be a function returning the HTML');
  for (const key of ['name', 'title', 'description', 'domain'] as const) {
    if (options[key] !== undefined && (typeof options[key] !== 'string' || options[key] === ''))
      problems.push(`${key} must be a non-empty string`);
  }
  if (options.prefersBorder !== undefined && typeof options.prefersBorder !== 'boolean') problems.push('prefersBorder must be a boolean');
  problems.push(...cspProblems(options.csp), ...permissionProblems(options.permissions));
  return problems;
}

function cspProblems(csp: unknown): string[] {
  if (csp === undefined) return [];
  if (!isObject(csp)) return ['csp must be an object such as { connectDomains: [...] }'];
  const problems = Object.keys(csp)
    .filter((k) => !(CSP_KEYS as readonly string[]).includes(k))
    .map((k) => `csp has the unknown key '${k.slice(0, 64)}' (use ${CSP_KEYS.join(', ')})`);
  for (const key of CSP_KEYS) {
    const origins = csp[key];
    if (origins !== undefined && (!Array.isArray(origins) || !origins.every((o) => typeof o === 'string' && o !== ''))) {
      problems.push(`csp.${key} must be an array of origins such as 'https://api.example.com'`);
    }
  }
  return problems;
}

function permissionProblems(permissions: unknown): string[] {
  if (permissions === undefined) return [];
  if (!isObject(permissions)) return ['permissions must be an object such as { clipboardWrite: {} }'];
  return Object.entries(permissions).flatMap(([key, value]) => {
    if (!(PERMISSION_KEYS as readonly string[]).includes(key))
      return [`permissions has the unknown key '${key.slice(0, 64)}' (use ${PERMISSION_KEYS.join(', ')})`];
    return isObject(value) && Object.keys(value).length === 0 ? [] : [`permissions.${key} must be {}`];
  });
}

/** The `_meta.ui` the options declare, copied (the caller's objects stay theirs), or `undefined`. */
function metaOf(options: UiResourceOptions): UiResourceMeta | undefined {
  const ui: { -readonly [K in keyof UiResourceMeta]: UiResourceMeta[K] } = {};
  if (options.csp) {
    const csp: Record<string, readonly string[]> = {};
    for (const key of CSP_KEYS) if (options.csp[key]) csp[key] = Object.freeze([...options.csp[key]]);
    ui.csp = Object.freeze(csp);
  }
  if (options.permissions) {
    const permissions: Record<string, Record<string, never>> = {};
    for (const key of PERMISSION_KEYS) if (options.permissions[key]) permissions[key] = {};
    ui.permissions = Object.freeze(permissions);
  }
  if (options.domain !== undefined) ui.domain = options.domain;
  if (options.prefersBorder !== undefined) ui.prefersBorder = options.prefersBorder;
  return Object.keys(ui).length > 0 ? Object.freeze(ui) : undefined;
}

/** How the view's HTML is read: the string itself, the file, or the callback (whose answer must be a string). */
function readerOf(uri: string, options: UiResourceOptions): () => Promise<string> {
  if (options.html !== undefined) {
    const html = options.html;
    return () => Promise.resolve(html);
  }
  if (options.file !== undefined) {
    const file = options.file;
    return () => readFile(file, 'utf8');
  }
  const read = options.read!;
  return async () => {
    const html: unknown = await read();
    if (typeof html !== 'string')
      throw new UsageTypeError(
        `The read function of the UI resource '${uri}' returned ${html === null ? 'null' : typeof html}, not the HTML string.`,
      );
    return html;
  };
}

/** Checks a view's options and builds the registered view; throws one `TypeError` naming every problem. */
export function uiResourceOf(uri: unknown, options: unknown): UiResource {
  if (typeof uri !== 'string' || !uri.startsWith('ui://') || uri.length === 'ui://'.length) {
    throw new UsageTypeError(`server.addUiResource() needs a ui:// URI, for example server.addUiResource('ui://weather/view', { html }).`);
  }
  const problems = isObject(options) ? problemsOf(options) : ['the options must be an object such as { html } or { file }'];
  if (problems.length > 0) throw new UsageTypeError(`server.addUiResource('${uri.slice(0, 128)}'): ${problems.join('; ')}.`);
  const view = options as UiResourceOptions;
  const where = `server.addUiResource('${uri.slice(0, 128)}')`;
  const scopes = checkPublic(where, view.public, checkScopes(where, view.scopes)) ?? [];
  const meta = metaOf(view);
  const listing: Record<string, unknown> = { uri, name: view.name ?? uri.slice('ui://'.length) };
  if (view.title !== undefined) listing.title = view.title;
  if (view.description !== undefined) listing.description = view.description;
  listing.mimeType = APP_MIME_TYPE;
  if (meta) listing._meta = { ui: meta };
  return {
    listing: Object.freeze(listing) as unknown as ResourceListing,
    meta: meta && Object.freeze({ ui: meta }),
    html: readerOf(uri, view),
    scopes,
    public: view.public === true,
  };
}

/** The `resources/read` result of a view. */
export async function uiReadResult(uri: string, view: UiResource): Promise<{ contents: Record<string, unknown>[] }> {
  const content: Record<string, unknown> = { uri, mimeType: APP_MIME_TYPE, text: await view.html() };
  if (view.meta) content._meta = view.meta;
  return { contents: [content] };
}

/**
 * Whether a client negotiated MCP Apps: it declares the extension with `text/html;profile=mcp-app` among its
 * `mimeTypes`, as the extension's `getUiCapability` check reads it (a bare key says nothing about what it renders).
 */
export function negotiatesApps(extension: unknown): boolean {
  const mimeTypes = isObject(extension) ? extension.mimeTypes : undefined;
  return Array.isArray(mimeTypes) && mimeTypes.includes(APP_MIME_TYPE);
}
