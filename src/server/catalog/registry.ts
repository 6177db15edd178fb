import type { CacheHint } from '../../schema/model';
import type { CatalogKind, Member, RegisteredPrompt, RegisteredResource, RegisteredTool } from './entries';
import type { UiResource } from './ui-resource';

/** The resource a URI names: a static resource or a template that matched (with its variables), or a UI resource. */
export type FoundResource =
  | { readonly kind: 'resource'; readonly resource: RegisteredResource; readonly variables: Readonly<Record<string, string>> }
  | { readonly kind: 'ui'; readonly ui: UiResource };

/**
 * The entries of a catalog by the key they were registered with (a tool's or prompt's name, a resource's URI or
 * URI template as registered), and which of them are disabled. A lookup sees disabled entries too unless it says
 * "enabled": a disabled entry keeps its name taken.
 */
export class Registry {
  readonly tools = new Map<string, RegisteredTool>();
  readonly prompts = new Map<string, RegisteredPrompt>();
  readonly resources = new Map<string, RegisteredResource>();
  readonly templates: RegisteredResource[] = [];
  readonly uiResources = new Map<string, UiResource>();
  /** Entries that stay registered (their name stays taken) but are neither listed nor served. */
  readonly disabled = { tool: new Set<string>(), resource: new Set<string>(), prompt: new Set<string>() };

  /**
   * The last tool name asked for. Each call's name is a new string, which a map lookup hashes first (a few hundred
   * instructions); looked up by the last name instead when equal, whose hash the string keeps, it is not hashed again.
   */
  private lastToolName = '';

  /** The enabled tool of that name. */
  tool(name: string): RegisteredTool | undefined {
    const key = name === this.lastToolName ? this.lastToolName : (this.lastToolName = name);
    return this.disabled.tool.has(key) ? undefined : this.tools.get(key);
  }

  /** The enabled prompt of that name. */
  prompt(name: string): RegisteredPrompt | undefined {
    return this.disabled.prompt.has(name) ? undefined : this.prompts.get(name);
  }

  /** The entry registered under that kind and key: the one a new entry with the same key clashes with. */
  entry(kind: CatalogKind, key: string): RegisteredTool | RegisteredPrompt | RegisteredResource | UiResource | undefined {
    return kind === 'tool' ? this.tools.get(key) : kind === 'prompt' ? this.prompts.get(key) : this.resourceByUri(key);
  }

  /** The template registered with that URI template. */
  template(uri: string): RegisteredResource | undefined {
    return this.templates.find((t) => t.model.uri === uri);
  }

  /** The resource, template or UI resource registered with that URI (template). */
  resourceByUri(uri: string): RegisteredResource | UiResource | undefined {
    return this.resources.get(uri) ?? this.template(uri) ?? this.uiResources.get(uri);
  }

  /** An enabled resource or template by the URI (template) it was registered with. */
  resourceEntry(uri: string): RegisteredResource | undefined {
    if (this.disabled.resource.has(uri)) return undefined;
    return this.template(uri) ?? this.resources.get(uri);
  }

  /** The enabled resource a URI names: a static resource, a UI resource, or the first template that matches. */
  findResource(uri: string): FoundResource | undefined {
    const off = this.disabled.resource;
    const fixed = off.has(uri) ? undefined : this.resources.get(uri);
    if (fixed) return { kind: 'resource', resource: fixed, variables: {} };
    const ui = off.has(uri) ? undefined : this.uiResources.get(uri);
    if (ui) return { kind: 'ui', ui };
    for (const template of this.templates) {
      if (off.has(template.model.uri)) continue;
      const variables = template.match(uri);
      if (variables) return { kind: 'resource', resource: template, variables };
    }
    return undefined;
  }

  /** Stores a resource, or a template (kept in the order added: the first that matches a URI answers it). */
  addResource(resource: RegisteredResource): void {
    if (resource.model.template) this.templates.push(resource);
    else this.resources.set(resource.model.uri, resource);
  }

  /** Removes the registered entry of that kind and key, and its disabled mark. */
  remove(kind: CatalogKind, key: string): void {
    if (kind === 'tool') this.tools.delete(key);
    else if (kind === 'prompt') this.prompts.delete(key);
    else if (!this.resources.delete(key) && !this.uiResources.delete(key)) {
      this.templates.splice(
        this.templates.findIndex((t) => t.model.uri === key),
        1,
      );
    }
    this.disabled[kind].delete(key);
  }

  /** Disables (`false`) or enables again (`true`) a registered entry; whether its state changed. */
  setEnabled(kind: CatalogKind, key: string, enabled: boolean): boolean {
    const set = this.disabled[kind];
    if (set.has(key) !== enabled) return false;
    if (enabled) set.delete(key);
    else set.add(key);
    return true;
  }

  /** The decorated method behind a listed item (by its kind and listed name), if it is one. */
  memberOf(kind: 'tool' | 'resource' | 'template' | 'prompt', name: string): Member | undefined {
    if (kind === 'tool') return this.tools.get(name)?.member;
    const entry = kind === 'prompt' ? this.prompts.get(name) : kind === 'template' ? this.template(name) : this.resources.get(name);
    return entry && { instance: entry.instance, key: entry.key };
  }

  /** The cache hint a tool, prompt or resource (by name, or URI as registered) declared, if any. */
  cacheHintOf(kind: CatalogKind, key: string): CacheHint | undefined {
    if (kind === 'tool') return this.tools.get(key)?.model.cache;
    if (kind === 'prompt') return this.prompts.get(key)?.model.cache;
    return (this.resources.get(key) ?? this.template(key))?.model.cache;
  }
}
