import type { Access } from './entries';
import type { Registry } from './registry';
import type { ServedSkills } from './skills';
import { isObjectLike } from '../../objects';
import { METHODS, type NamedKind } from '../methods';

/** What a JSON-RPC request asks of a caller: the entries it names, whose scopes it needs. */

/** A JSON-RPC request's method and params, whatever shape the body had. */
function requestParts(message: unknown): { readonly method: unknown; readonly params: Readonly<Record<string, unknown>> } {
  const { method, params } = (isObjectLike(message) ? message : {}) as { method?: unknown; params?: unknown };
  return { method, params: isObjectLike(params) ? (params as Record<string, unknown>) : {} };
}

/** The entry of a kind a name or URI names. */
const FIND: Readonly<Record<NamedKind, (registry: Registry, served: ServedSkills | undefined, key: string) => Access | undefined>> = {
  tool: (registry, _served, name) => registry.tools.get(name),
  prompt: (registry, _served, name) => registry.prompts.get(name),
  resource: resourceAccess,
  skill: (_registry, served, uri) => served?.accessOf(uri),
};

/** The methods whose row says which params field names which kind (server/methods.ts, `names`); made once. */
const NAMED_BY: ReadonlyMap<unknown, { readonly field: string; readonly kind: NamedKind }> = new Map(
  METHODS.flatMap((row) => (typeof row.names === 'object' ? [[row.method, row.names] as const] : [])),
);

/**
 * The entries a JSON-RPC request names (the tool, prompt, resource or completion target); none for the rest. A row
 * whose `names` is `'code'` is one of the cases below it.
 */
export function entriesNamed(registry: Registry, served: ServedSkills | undefined, message: unknown): readonly Access[] {
  const { method, params } = requestParts(message);
  const present = (entry: Access | undefined) => (entry === undefined ? [] : [entry]);
  const named = NAMED_BY.get(method);
  if (named !== undefined) return present(FIND[named.kind](registry, served, String(params[named.field])));
  switch (method) {
    case 'subscriptions/listen': {
      // 2026-07-28's subscription path asks for every resource at once: it needs what each of them needs.
      const uris = (params.notifications as { resourceSubscriptions?: unknown } | undefined)?.resourceSubscriptions;
      return Array.isArray(uris) ? uris.flatMap((uri) => present(resourceAccess(registry, served, String(uri)))) : [];
    }
    case 'completion/complete': {
      const ref = requestParts({ params: params.ref }).params;
      if (ref.type === 'ref/prompt') return present(registry.prompts.get(String(ref.name)));
      return present(registry.templates.find((t) => t.model.uri === ref.uri) ?? registry.resources.get(String(ref.uri)));
    }
    default:
      return [];
  }
}

/** Who may read (or follow) the resource a URI names. */
function resourceAccess(registry: Registry, served: ServedSkills | undefined, uri: string): Access | undefined {
  const found = registry.findResource(uri);
  if (found?.kind === 'resource') return found.resource;
  if (found?.kind === 'ui') return found.ui;
  return served?.accessOf(uri);
}
