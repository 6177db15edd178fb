import type { Access, Listings, RegisteredResource } from './entries';
import type { Registry } from './registry';
import type { ServedSkills } from './skills';

/**
 * What a caller may see: the listings of the enabled entries a visibility test lets through (every entry, a
 * caller's scopes, the public ones), and the scopes that decide it.
 */

/** The listings of the enabled entries and served skills `visible` lets through, in the order they were added. */
export function listingsWhere(registry: Registry, served: ServedSkills | undefined, visible: (entry: Access) => boolean): Listings {
  const off = registry.disabled;
  const tools = [...registry.tools.values()].filter((t) => visible(t) && !off.tool.has(t.model.name));
  const shown = <T extends Access>(items: Iterable<T>, key: (item: T) => string, hidden: ReadonlySet<string>) =>
    [...items].filter((i) => visible(i) && !hidden.has(key(i)));
  const byUri = (r: RegisteredResource) => r.model.uri;
  return {
    tools: Object.freeze(tools.map((t) => t.listing)),
    plainTools: Object.freeze(tools.flatMap((t) => (t.plainListing ? [t.plainListing] : []))),
    resources: Object.freeze([
      ...shown(registry.resources.values(), byUri, off.resource).map((r) => r.listing),
      ...[...registry.uiResources.entries()].filter(([uri, u]) => visible(u) && !off.resource.has(uri)).map(([, u]) => u.listing),
      // Each skill's SKILL.md, as the SDK's skills template lists it (auth.authorize is asked about the skill).
      ...(served?.entries.filter((s) => visible(served!.accessOf(s.uri)!)).map((s) => s.listing) ?? []),
    ]),
    templates: Object.freeze([
      ...shown(registry.templates, byUri, off.resource).map((t) => t.listing),
      // The skills' `skill://` template, as the SDK lists it, for a caller who may use at least one skill.
      ...(served?.entries.some((s) => visible(served!.accessOf(s.uri)!)) ? [served.loaded.template] : []),
    ]),
    prompts: Object.freeze(shown(registry.prompts.values(), (p) => p.model.name, off.prompt).map((p) => p.listing)),
  };
}

/** Every scope some tool, resource, prompt or skill needs, in the order they were declared. */
export function declaredScopesOf(registry: Registry, served: ServedSkills | undefined): readonly string[] {
  const members = [
    ...registry.tools.values(),
    ...registry.resources.values(),
    ...registry.templates,
    ...registry.prompts.values(),
    ...registry.uiResources.values(),
    ...(served?.accesses ?? []),
  ];
  return [...new Set(members.flatMap((m) => m.scopes))];
}
