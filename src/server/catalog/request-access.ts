import type { Access } from './entries';
import type { Registry } from './registry';
import type { ServedSkills } from './skills';
import { isObjectLike } from '../../objects';

/** What a JSON-RPC request asks of a caller: the entries it names, whose scopes it needs. */

/** A JSON-RPC request's method and params, whatever shape the body had. */
function requestParts(message: unknown): { readonly method: unknown; readonly params: Readonly<Record<string, unknown>> } {
  const { method, params } = (isObjectLike(message) ? message : {}) as { method?: unknown; params?: unknown };
  return { method, params: isObjectLike(params) ? (params as Record<string, unknown>) : {} };
}

/** The entries a JSON-RPC request names (the tool, prompt, resource or completion target); none for the rest. */
export function entriesNamed(registry: Registry, served: ServedSkills | undefined, message: unknown): readonly Access[] {
  const { method, params } = requestParts(message);
  const present = (entry: Access | undefined) => (entry === undefined ? [] : [entry]);
  switch (method) {
    case 'tools/call':
      return present(registry.tools.get(String(params.name)));
    case 'prompts/get':
      return present(registry.prompts.get(String(params.name)));
    case 'resources/read':
    case 'resources/subscribe':
      return present(resourceAccess(registry, served, String(params.uri)));
    case 'skills/get':
    case 'resources/directory/read':
      return present(served?.accessOf(String(params.uri)));
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
