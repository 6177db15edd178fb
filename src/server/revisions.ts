/**
 * What each protocol revision is sent of the listing metadata: a field a revision does not define is left out of
 * what its clients receive (icons from 2025-11-25, a resource's `annotations.lastModified` from 2025-06-18). A
 * listing without such fields is sent as it is, so servers that declare none send exactly what they always did.
 */

/**
 * The revisions the server tells apart, one constant each; everything else imports them. Revisions are dates, so
 * they compare as strings.
 */

/** 2025-06-18: JSON-RPC batches removed; a resource's `annotations.lastModified` added. */
export const REVISION_2025_06_18 = '2025-06-18';

/** 2025-11-25: icons (listings and server info); an SSE stream opens with a priming event. */
export const REVISION_2025_11_25 = '2025-11-25';

/**
 * 2026-07-28, the modern era: the per-request envelope, stateless requests, no server-to-client requests,
 * `Mcp-Param-*` headers (SEP-2243).
 */
export const MODERN_REVISION = '2026-07-28';

/** Which fields a revision lacks. */
type Omitted = 'icons' | 'icons+lastModified';

function omittedBy(version: string | undefined): Omitted | undefined {
  if (version === undefined || version >= REVISION_2025_11_25) return undefined;
  return version >= REVISION_2025_06_18 ? 'icons' : 'icons+lastModified';
}

interface Entry {
  readonly icons?: unknown;
  readonly annotations?: { readonly lastModified?: unknown };
}

/** The entry without the fields `omitted` names, keys in their order; the entry itself when it has none of them. */
function without<T extends object>(item: T, omitted: Omitted): T {
  const entry = item as Entry;
  const dropLastModified = omitted === 'icons+lastModified' && entry.annotations?.lastModified !== undefined;
  if (entry.icons === undefined && !dropLastModified) return item;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(entry)) {
    if (key === 'icons') continue;
    if (key === 'annotations' && dropLastModified) {
      const { lastModified: _omitted, ...rest } = value as Record<string, unknown>;
      if (Object.keys(rest).length > 0) copy.annotations = rest;
    } else copy[key] = value;
  }
  return Object.freeze(copy) as T;
}

/** Listings per revision class, built once per listing array (listings are rebuilt after every catalog change). */
const views: Record<Omitted, WeakMap<readonly object[], readonly object[]>> = { icons: new WeakMap(), 'icons+lastModified': new WeakMap() };

/** The entries of a listing as a client of `version` is sent them. */
export function forRevision<T extends object>(items: readonly T[], version: string | undefined): readonly T[] {
  const omitted = omittedBy(version);
  if (omitted === undefined) return items;
  let view = views[omitted].get(items);
  if (view === undefined) {
    const mapped = items.map((item) => without(item, omitted));
    view = mapped.every((item, i) => item === items[i]) ? items : Object.freeze(mapped);
    views[omitted].set(items, view);
  }
  return view as readonly T[];
}

/** The server info as a client of `version` is sent it (no icons before 2025-11-25). */
export function serverInfoFor<T extends { readonly icons?: unknown }>(info: T, version: string | undefined): T {
  if (info.icons === undefined || omittedBy(version) === undefined) return info;
  const { icons: _omitted, ...rest } = info;
  return rest as T;
}
