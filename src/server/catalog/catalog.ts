import { UsageError, UsageTypeError } from '../../errors';
import { Log } from '../../log';
import { classScopesOf, type MemberRecord } from '../../decorators/metadata';
import { Problems } from '../../schema/diagnostics';
import { unwrap, type ParamModel, type ToolModel, type TypeNode } from '../../schema/model';
import { promptFromMethod, type PromptModel } from '../../schema/members/prompts';
import { resourceFromMethod, type ResourceModel } from '../../schema/members/resources';
import { decoratedMembersOf, toolFromMethod } from '../../schema/members/tools';
import { Interceptors } from '../../invoke/interceptors';
import { compileTool, type CompileOptions, type ToolCall, type ToolTarget } from '../../invoke/invoker';
import { policyOf, type ValidationOptions } from '../../schema/records/validation-options';
import { compileTextMethod, type TextMethodCall } from '../../invoke/text-methods';
import type { AddOptions, InvokeHook } from '../../invoke/invocation';
import { appOnly, listingOf, type ToolListing } from './listing';
import {
  promptListingOf,
  resourceListingOf,
  uriMatcherOf,
  type PromptListing,
  type ResourceListing,
  type UriMatcher,
} from './resource-listing';
import { grants, ScopedListings } from './scoped-listings';
import { runCompleter } from '../../invoke/completions';
import type { CacheHint } from '../../schema/model';
import { APP_MIME_TYPE, uiResourceOf, type UiResource } from './ui-resource';
import { EXACT, inputSchemaFor, profileProblemsOf, type Profile } from '../../schema/profiles';
import type { DecoratedSkill, ServedSkills, SkillFolder } from './skills';
import { skillFromMethod } from '../../schema/members/skills';

/**
 * Everything the server serves, computed once when it is added: listings, compiled calls and URI
 * matchers. The SDK's per-request and per-connection `Server` instances only look things up here.
 */

export { APP_MIME_TYPE };
/** The MCP Apps extension id, as negotiated in capabilities. */
export const APPS_EXTENSION = 'io.modelcontextprotocol/ui';

/** Who may use an entry over HTTP with `auth`: the scopes a caller's token must grant, or anyone when public. */
export interface Access {
  readonly scopes: readonly string[];
  /** Listed to and answering callers without a token (with `auth: { allowAnonymous: true }`). */
  readonly public: boolean;
}

/** The decorated method behind an entry: what a Nest guard deciding its visibility runs for. */
export interface Member {
  readonly instance: object;
  readonly key: string | symbol;
}

const PRIVATE: Access = Object.freeze({ scopes: Object.freeze([]) as readonly string[], public: false });

export interface RegisteredTool extends Access {
  readonly model: ToolModel;
  readonly listing: ToolListing;
  /** The listing for clients that did not negotiate MCP Apps (no `_meta.ui`); none for an app-only tool. */
  readonly plainListing: ToolListing | undefined;
  readonly call: ToolCall;
  /** The decorated method, for a tool of a class (none for the quick path). */
  readonly member?: Member;
  /** The parameters that declare an `x-mcp-header` (SEP-2243), in their order; empty for most tools. */
  readonly headerParams: readonly ParamModel[];
}

export interface RegisteredResource extends Access {
  readonly model: ResourceModel;
  /** The decorated instance: `this` of its completion functions. */
  readonly instance: object;
  readonly key: string | symbol;
  readonly listing: ResourceListing;
  readonly match: UriMatcher;
  readonly call: TextMethodCall;
}

export interface RegisteredPrompt extends Access {
  readonly model: PromptModel;
  readonly instance: object;
  readonly key: string | symbol;
  readonly listing: PromptListing;
  readonly call: TextMethodCall;
}

export interface Listings {
  readonly tools: readonly ToolListing[];
  readonly plainTools: readonly ToolListing[];
  readonly resources: readonly ResourceListing[];
  readonly templates: readonly ResourceListing[];
  readonly prompts: readonly PromptListing[];
}

/** A `completion/complete` request, read: what is completed, what was typed and what the client resolved already. */
export interface CompletionRequest {
  readonly ref: { readonly type: string; readonly name?: string; readonly uri?: string };
  readonly argument: string;
  readonly typed: string;
  readonly resolved: Readonly<Record<string, string>>;
  readonly requestId?: string | number;
  readonly sessionId?: string;
}

/** What a catalog entry is: the three MCP primitives. UI resources are resources. */
export type CatalogKind = 'tool' | 'resource' | 'prompt';

/** Told after every change of the catalog, with the kind of list that changed. */
export type CatalogListener = (kind: CatalogKind) => void;

type Pending = Access &
  (
    | { readonly kind: 'tool'; readonly model: ToolModel; readonly target: ToolTarget }
    | {
        readonly kind: 'resource';
        readonly model: ResourceModel;
        readonly instance: object;
        readonly key: string | symbol;
        readonly invoke?: InvokeHook;
      }
    | {
        readonly kind: 'prompt';
        readonly model: PromptModel;
        readonly instance: object;
        readonly key: string | symbol;
        readonly invoke?: InvokeHook;
      }
  );

/** A member's own `scopes` option, else its class's `@Scopes`, else none; none and public when it is `public`. */
function accessOf(ctor: Function, record: MemberRecord): Access {
  if (record.options.public === true) return { scopes: [], public: true };
  return { scopes: record.options.scopes ?? classScopesOf(ctor) ?? [], public: false };
}

/** A JSON-RPC request's method and params, whatever shape the body had. */
function requestParts(message: unknown): { readonly method: unknown; readonly params: Readonly<Record<string, unknown>> } {
  const { method, params } = (typeof message === 'object' && message !== null ? message : {}) as { method?: unknown; params?: unknown };
  return { method, params: typeof params === 'object' && params !== null ? (params as Record<string, unknown>) : {} };
}

const NO_PARAMS: readonly ParamModel[] = Object.freeze([]);

/** A tool's parameters that declare an `x-mcp-header`, found once so that a call without any costs a lookup. */
function headerParamsOf(model: ToolModel): readonly ParamModel[] {
  return model.params.some((p) => p.header !== undefined) ? Object.freeze(model.params.filter((p) => p.header !== undefined)) : NO_PARAMS;
}

type LazyCall = ToolCall & { compiled?: ToolCall };

/** Compiles a tool's reader and writer on its first call: a server with many tools starts without paying for all. */
function lazily(compile: () => ToolCall): ToolCall {
  const call: LazyCall = (args, init) => (call.compiled ??= compile())(args, init);
  return call;
}

/** The tool's call: once compiled (its first call compiles it), the compiled one itself, without the lazy step. */
export function callOf(tool: RegisteredTool): ToolCall {
  return (tool.call as LazyCall).compiled ?? tool.call;
}

export class Catalog {
  readonly tools = new Map<string, RegisteredTool>();
  readonly prompts = new Map<string, RegisteredPrompt>();
  private readonly resources = new Map<string, RegisteredResource>();
  private readonly templates: RegisteredResource[] = [];
  private readonly uiResources = new Map<string, UiResource>();
  /** Entries that stay registered (their name stays taken) but are neither listed nor served. */
  private readonly disabled = { tool: new Set<string>(), resource: new Set<string>(), prompt: new Set<string>() };
  private readonly listeners = new Set<CatalogListener>();
  private cached: Listings | undefined;
  private scoped: ScopedListings<Listings> | undefined;
  private anonymous: Listings | undefined;
  /** `usesApps`, computed once per change of the catalog: every connection asks it. */
  private apps: boolean | undefined;
  private tasks: boolean | undefined;
  /** The skills served, built from `skillSources` (by the server, asynchronously: the SDK's loader is). */
  private served: ServedSkills | undefined;
  /** What the served skills are built from: the folder of `server.addSkills` and the `@Skill` methods of added instances. */
  readonly skillSources: { folder?: SkillFolder; readonly decorated: DecoratedSkill[] } = { decorated: [] };
  /** Tool arrays under a listing profile, per array (a change makes new arrays) and profile key. */
  private readonly profiled = new WeakMap<readonly ToolListing[], Map<string, readonly ToolListing[]>>();
  /** Tool entries under a listing profile, per profile key and exact entry. */
  private readonly profiledEntries = new Map<string, WeakMap<ToolListing, ToolListing>>();

  /** The server's log, for the calls compiled here and for definition-time warnings. */
  readonly log: Log;
  /** `server.use`'s interceptors, in registration order; every compiled call reads them. */
  readonly interceptors = new Interceptors();

  /** Tool names the server answers itself (`catalog: 'search'`: search.ts's three): no tool of the catalog may take one. */
  private reserved: ReadonlySet<string> = new Set();

  constructor(private compiling: CompileOptions = {}) {
    this.log = compiling.log ?? Log.silent;
    this.compiling = { ...compiling, interceptors: this.interceptors };
  }

  /**
   * The validation options in force, given before the first tool is added (the Nest module reads them from the
   * app's global `ValidationPipe` once the application is configured).
   */
  setValidation(validation: ValidationOptions): void {
    if (this.tools.size > 0) throw new UsageError('The validation options are set before the first tool is added.');
    this.compiling = { ...this.compiling, validation };
  }

  /** Calls `listener` after every change; returns the function that stops it. */
  onChange(listener: CatalogListener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** The enabled tool of that name. */
  tool(name: string): RegisteredTool | undefined {
    return this.disabled.tool.has(name) ? undefined : this.tools.get(name);
  }

  /** The enabled prompt of that name. */
  prompt(name: string): RegisteredPrompt | undefined {
    return this.disabled.prompt.has(name) ? undefined : this.prompts.get(name);
  }

  /** Removes a tool or prompt (by name) or a resource, template or UI resource (by URI as registered). */
  remove(kind: CatalogKind, key: string): void {
    this.requireEntry(kind, key, 'remove');
    if (kind === 'tool') this.tools.delete(key);
    else if (kind === 'prompt') this.prompts.delete(key);
    else if (!this.resources.delete(key) && !this.uiResources.delete(key)) {
      this.templates.splice(
        this.templates.findIndex((t) => t.model.uri === key),
        1,
      );
    }
    this.disabled[kind].delete(key);
    this.changed(kind);
  }

  /** Hides (`false`) or shows again (`true`) an entry; a change is announced only when the state changes. */
  setEnabled(kind: CatalogKind, key: string, enabled: boolean): void {
    this.requireEntry(kind, key, enabled ? 'enable' : 'disable');
    const set = this.disabled[kind];
    if (set.has(key) !== enabled) return;
    if (enabled) set.delete(key);
    else set.add(key);
    this.changed(kind);
  }

  private requireEntry(kind: CatalogKind, key: string, verb: string): void {
    const present =
      kind === 'tool' ? this.tools.has(key) : kind === 'prompt' ? this.prompts.has(key) : this.resourceByUri(key) !== undefined;
    if (!present) {
      throw new UsageTypeError(
        `server.${verb}('${kind}', '${String(key).slice(0, 128)}'): no ${kind} ${kind === 'resource' ? 'URI' : 'name'} '${String(key).slice(0, 128)}' is registered.`,
      );
    }
  }

  /**
   * Adds every `@Tool`, `@Resource` and `@Prompt` of an instance, or throws one `DefinitionError`; returns how many
   * `@Skill` methods it has, noted in `skillSources` (the server builds the served skills from them).
   */
  addInstance(instance: object, options: AddOptions = {}): number {
    const ctor = instance.constructor;
    const { invoke } = options;
    const problems = new Problems();
    const pending: Pending[] = [];
    const skills: DecoratedSkill[] = [];
    for (const record of decoratedMembersOf(ctor)) {
      const access = accessOf(ctor, record);
      if (record.kind === 'skill') {
        const model = skillFromMethod(ctor, record, problems);
        if (model) skills.push({ model, instance, access });
      } else if (record.kind === 'tool') {
        const model = toolFromMethod(ctor, record, problems);
        if (model) pending.push({ kind: 'tool', model, target: { kind: 'method', instance, key: record.key, invoke }, ...access });
      } else if (record.kind === 'resource') {
        const model = resourceFromMethod(ctor, record, problems);
        if (model) pending.push({ kind: 'resource', model, instance, key: record.key, invoke, ...access });
      } else {
        const model = promptFromMethod(ctor, record, problems);
        if (model) pending.push({ kind: 'prompt', model, instance, key: record.key, invoke, ...access });
      }
    }
    this.checkSkillClashes(skills, problems);
    this.register(ctor.name, pending, problems);
    this.skillSources.decorated.push(...skills);
    return skills.length;
  }

  /** Adds a problem for every `@Skill` name another `@Skill` method already takes (the folder's are checked on loading). */
  private checkSkillClashes(skills: readonly DecoratedSkill[], problems: Problems): void {
    const taken = new Map(this.skillSources.decorated.map((d) => [d.model.name, d.model.where] as const));
    for (const { model } of skills) {
      const other = taken.get(model.name);
      if (other !== undefined)
        problems.add(
          'OMCG0007',
          model.where,
          `the skill name '${model.name}' is already used by ${other}.`,
          'give one of them another name with @Skill({ name }).',
        );
      taken.set(model.name, model.where);
    }
  }

  /** Keeps these tool names for the server itself, before the first tool is added. */
  reserveToolNames(names: ReadonlySet<string>): void {
    if (this.tools.size > 0) throw new UsageError('Tool names are reserved before the first tool is added.');
    this.reserved = names;
  }

  addTool(model: ToolModel, target: ToolTarget, access: Access = PRIVATE): void {
    this.register(model.where, [{ kind: 'tool', model, target, scopes: access.scopes, public: access.public }], new Problems());
  }

  addUiResource(uri: string, options: unknown): void {
    const view = uiResourceOf(uri, options);
    if (this.uiResources.has(uri) || this.resources.has(uri))
      throw new UsageTypeError(`server.addUiResource(): '${uri}' is already registered.`);
    this.uiResources.set(uri, view);
    this.changed('resource');
  }

  /** The provider profiles the server may list under: a tool one of them cannot list is refused (OMCG0018). */
  private readonly profiles = new Set<'gemini' | 'openai-strict'>();

  /**
   * From now on tools are also checked for `profile`; the tools already added are checked now, and a `DefinitionError`
   * names each one it cannot list (nothing is changed then).
   */
  listUnder(profile: 'gemini' | 'openai-strict', subject: string): void {
    if (this.profiles.has(profile)) return;
    const problems = new Problems();
    for (const tool of this.tools.values())
      for (const d of profileProblemsOf(tool.model, profile)) problems.add(d.code, d.where, d.message, d.fix);
    problems.throwIfAny(subject);
    this.profiles.add(profile);
  }

  private register(subject: string, pending: readonly Pending[], problems: Problems): void {
    this.checkClashes(pending, problems);
    if (this.profiles.size > 0) {
      for (const entry of pending) {
        if (entry.kind !== 'tool') continue;
        for (const profile of this.profiles)
          for (const d of profileProblemsOf(entry.model, profile)) problems.add(d.code, d.where, d.message, d.fix);
      }
    }
    problems.throwIfAny(subject);
    // Indexed loops: `server.tool()` comes here once per tool at start-up, where each `for...of` step of
    // code not yet optimised allocates.
    for (let i = 0; i < pending.length; i++) {
      const entry = pending[i];
      if (entry.kind === 'tool') this.storeTool(entry);
      else if (entry.kind === 'resource') this.storeResource(entry);
      else this.storePrompt(entry);
    }
    const kinds: CatalogKind[] = [];
    for (let i = 0; i < pending.length; i++) if (!kinds.includes(pending[i].kind)) kinds.push(pending[i].kind);
    for (let i = 0; i < kinds.length; i++) this.changed(kinds[i]);
  }

  /** Adds a problem for every name or URI already taken, by the catalog or by another entry of `pending`. */
  private checkClashes(pending: readonly Pending[], problems: Problems): void {
    // Names of the valid members are compared too, so that one error reports every problem of the class.
    // `server.tool()` registers one entry at a time: it can only clash with what is already registered.
    const names = pending.length > 1 ? { tool: new Set<string>(), resource: new Set<string>(), prompt: new Set<string>() } : undefined;
    for (let i = 0; i < pending.length; i++) {
      const entry = pending[i];
      const key = entry.kind === 'resource' ? entry.model.uri : entry.model.name;
      const existing =
        entry.kind === 'tool' ? this.tools.get(key) : entry.kind === 'prompt' ? this.prompts.get(key) : this.resourceByUri(key);
      if (existing || names?.[entry.kind].has(key)) {
        problems.add(
          'OMCG0007',
          entry.model.where,
          `the ${entry.kind} ${entry.kind === 'resource' ? 'URI' : 'name'} '${key}' is already used${existing ? ` by ${'model' in existing ? existing.model.where : 'a UI resource'}` : ''}.`,
          entry.kind === 'resource'
            ? 'give one of them another URI.'
            : `give one of them another name with @${entry.kind === 'tool' ? 'Tool' : 'Prompt'}('name').`,
        );
      }
      if (entry.kind === 'tool' && this.reserved.has(key)) {
        problems.add(
          'OMCG0007',
          entry.model.where,
          `the tool name '${key}' is one of the three tools of catalog: 'search' (${[...this.reserved].join(', ')}).`,
          "give the tool another name with @Tool('name').",
        );
      }
      names?.[entry.kind].add(key);
      if (entry.kind === 'tool') this.checkView(entry.model, problems);
    }
  }

  private storeTool(entry: Extract<Pending, { kind: 'tool' }>): void {
    const { model, target } = entry;
    const compiling = this.compiling;
    const policy = policyOf(compiling.validation);
    const listing = Object.freeze(listingOf(model, true, policy));
    this.tools.set(model.name, {
      model,
      listing,
      plainListing: !model.ui ? listing : appOnly(model) ? undefined : Object.freeze(listingOf(model, false, policy)),
      call: lazily(() => compileTool(model, target, compiling)),
      member: target.kind === 'method' ? { instance: target.instance, key: target.key } : undefined,
      headerParams: headerParamsOf(model),
      scopes: entry.scopes,
      public: entry.public,
    });
  }

  private storeResource(entry: Extract<Pending, { kind: 'resource' }>): void {
    const registered: RegisteredResource = {
      model: entry.model,
      instance: entry.instance,
      key: entry.key,
      listing: Object.freeze(resourceListingOf(entry.model)),
      match: uriMatcherOf(entry.model.parts),
      call: compileTextMethod(entry.model, entry.instance, entry.key, 'resource', {
        invoke: entry.invoke,
        log: this.log,
        interceptors: this.interceptors,
      }),
      scopes: entry.scopes,
      public: entry.public,
    };
    if (entry.model.template) this.templates.push(registered);
    else this.resources.set(entry.model.uri, registered);
  }

  private storePrompt(entry: Extract<Pending, { kind: 'prompt' }>): void {
    this.prompts.set(entry.model.name, {
      model: entry.model,
      instance: entry.instance,
      key: entry.key,
      listing: Object.freeze(promptListingOf(entry.model)),
      call: compileTextMethod(entry.model, entry.instance, entry.key, 'prompt', {
        invoke: entry.invoke,
        log: this.log,
        interceptors: this.interceptors,
      }),
      scopes: entry.scopes,
      public: entry.public,
    });
  }

  /**
   * A tool's view must be registered before the tool: a host that follows the tool's `_meta.ui.resourceUri` and
   * reads nothing would show an empty frame, which the developer would only see in a host.
   */
  private checkView(model: ToolModel, problems: Problems): void {
    const uri = model.ui?.resourceUri;
    if (uri === undefined || !uri.startsWith('ui://') || this.uiResources.has(uri)) return;
    problems.add(
      'OMCG0015',
      model.where,
      `uiResource '${uri.slice(0, 128)}' names no registered view.`,
      `register it first: server.addUiResource('${uri.slice(0, 128)}', { html }) before adding the class.`,
    );
  }

  private changed(kind: CatalogKind): void {
    this.cached = undefined;
    this.scoped = undefined;
    this.anonymous = undefined;
    this.apps = undefined;
    this.tasks = undefined;
    for (const listener of [...this.listeners]) listener(kind);
  }

  private resourceByUri(uri: string): RegisteredResource | UiResource | undefined {
    return this.resources.get(uri) ?? this.templates.find((t) => t.model.uri === uri) ?? this.uiResources.get(uri);
  }

  /** The listings, built once after each change and shared by every request. */
  get listings(): Listings {
    return (this.cached ??= this.listingsWhere(() => true));
  }

  /**
   * What a caller holding `scopes` may see; every listing when `scopes` is undefined (no auth). Built once per
   * distinct set of relevant scopes and kept until the catalog changes.
   */
  listingsFor(scopes: readonly string[] | undefined): Listings {
    if (scopes === undefined) return this.listings;
    this.scoped ??= new ScopedListings(new Set(this.declaredScopes), (granted) =>
      this.listingsWhere((entry) => grants(granted, entry.scopes)),
    );
    return this.scoped.for(scopes);
  }

  /**
   * The tool listings as a client of `profile` is sent them (schema/profiles): the very array under the exact
   * profile; else built once per array and profile, each entry with its `inputSchema` written by the profile.
   */
  toolsUnder(tools: readonly ToolListing[], profile: Profile): readonly ToolListing[] {
    if (profile === EXACT) return tools;
    let byProfile = this.profiled.get(tools);
    if (!byProfile) this.profiled.set(tools, (byProfile = new Map()));
    let shown = byProfile.get(profile.key);
    if (!shown) {
      let entries = this.profiledEntries.get(profile.key);
      if (!entries) this.profiledEntries.set(profile.key, (entries = new WeakMap()));
      const policy = policyOf(this.compiling.validation);
      const written = entries;
      shown = Object.freeze(
        tools.map((t) => {
          let entry = written.get(t);
          if (!entry) {
            const model = this.tools.get(t.name)?.model;
            const inputSchema = model ? inputSchemaFor(model, profile, policy) : t.inputSchema;
            // The same keys in the same order: only `inputSchema` changes.
            entry = inputSchema === t.inputSchema ? t : (Object.freeze({ ...t, inputSchema }) as ToolListing);
            written.set(t, entry);
          }
          return entry;
        }),
      );
      byProfile.set(profile.key, shown);
    }
    return shown;
  }

  /** What a caller without a token may see (with `auth: { allowAnonymous: true }`): the public entries; built once. */
  get anonymousListings(): Listings {
    return (this.anonymous ??= this.listingsWhere((entry) => entry.public));
  }

  /** How many distinct scope sets have a listing (for tests and benchmarks). */
  get scopedListingCount(): number {
    return this.scoped?.size ?? 0;
  }

  private listingsWhere(visible: (entry: Access) => boolean): Listings {
    const off = this.disabled;
    const tools = [...this.tools.values()].filter((t) => visible(t) && !off.tool.has(t.model.name));
    const shown = <T extends Access>(items: Iterable<T>, key: (item: T) => string, hidden: ReadonlySet<string>) =>
      [...items].filter((i) => visible(i) && !hidden.has(key(i)));
    const byUri = (r: RegisteredResource) => r.model.uri;
    return {
      tools: Object.freeze(tools.map((t) => t.listing)),
      plainTools: Object.freeze(tools.flatMap((t) => (t.plainListing ? [t.plainListing] : []))),
      resources: Object.freeze([
        ...shown(this.resources.values(), byUri, off.resource).map((r) => r.listing),
        ...[...this.uiResources.entries()].filter(([uri, u]) => visible(u) && !off.resource.has(uri)).map(([, u]) => u.listing),
        // Each skill's SKILL.md, as the SDK's skills template lists it (auth.authorize is asked about the skill).
        ...(this.served?.entries.filter((s) => visible(this.served!.accessOf(s.uri)!)).map((s) => s.listing) ?? []),
      ]),
      templates: Object.freeze([
        ...shown(this.templates, byUri, off.resource).map((t) => t.listing),
        // The skills' `skill://` template, as the SDK lists it, for a caller who may use at least one skill.
        ...(this.served?.entries.some((s) => visible(this.served!.accessOf(s.uri)!)) ? [this.served.loaded.template] : []),
      ]),
      prompts: Object.freeze(shown(this.prompts.values(), (p) => p.model.name, off.prompt).map((p) => p.listing)),
    };
  }

  /** Every scope some tool, resource or prompt needs, in the order they were declared. */
  get declaredScopes(): readonly string[] {
    const members = [
      ...this.tools.values(),
      ...this.resources.values(),
      ...this.templates,
      ...this.prompts.values(),
      ...this.uiResources.values(),
      ...(this.served?.accesses ?? []),
    ];
    return [...new Set(members.flatMap((m) => m.scopes))];
  }

  /** The scopes a JSON-RPC request needs: those of the tool, resource or prompt it names; none for the rest. */
  scopesNeeded(message: unknown): readonly string[] {
    const named = this.entriesNamed(message);
    return named.length === 1 ? named[0].scopes : [...new Set(named.flatMap((entry) => entry.scopes))];
  }

  /**
   * Whether a caller without a token may send this request: it names no entry, or only public ones. An unknown
   * name is no reason to ask for a token (the answer is the same unknown-item error for everyone).
   */
  openToAnonymous(message: unknown): boolean {
    return this.entriesNamed(message).every((entry) => entry.public);
  }

  /** The entries a JSON-RPC request names (the tool, prompt, resource or completion target); none for the rest. */
  private entriesNamed(message: unknown): readonly Access[] {
    const { method, params } = requestParts(message);
    const present = (entry: Access | undefined) => (entry === undefined ? [] : [entry]);
    switch (method) {
      case 'tools/call':
        return present(this.tools.get(String(params.name)));
      case 'prompts/get':
        return present(this.prompts.get(String(params.name)));
      case 'resources/read':
      case 'resources/subscribe':
        return present(this.resourceAccess(String(params.uri)));
      case 'skills/get':
      case 'resources/directory/read':
        return present(this.served?.accessOf(String(params.uri)));
      case 'subscriptions/listen': {
        // 2026-07-28's subscription path asks for every resource at once: it needs what each of them needs.
        const uris = (params.notifications as { resourceSubscriptions?: unknown } | undefined)?.resourceSubscriptions;
        return Array.isArray(uris) ? uris.flatMap((uri) => present(this.resourceAccess(String(uri)))) : [];
      }
      case 'completion/complete': {
        const ref = requestParts({ params: params.ref }).params;
        if (ref.type === 'ref/prompt') return present(this.prompts.get(String(ref.name)));
        return present(this.templates.find((t) => t.model.uri === ref.uri) ?? this.resources.get(String(ref.uri)));
      }
      default:
        return [];
    }
  }

  /** Who may read (or follow) the resource a URI names. */
  private resourceAccess(uri: string): Access | undefined {
    const found = this.findResource(uri);
    if (found?.kind === 'resource') return found.resource;
    if (found?.kind === 'ui') return found.ui;
    return this.served?.accessOf(uri);
  }

  /** The parameters of the enabled tool of that name that carry an `Mcp-Param-*` header (SEP-2243; checked in http/param-headers.ts). */
  headerParamsOf(name: string): readonly ParamModel[] | undefined {
    return this.tool(name)?.headerParams;
  }

  /** The resource a URI names: a static resource, a UI resource, or the first template that matches. */
  findResource(
    uri: string,
  ):
    | { readonly kind: 'resource'; readonly resource: RegisteredResource; readonly variables: Readonly<Record<string, string>> }
    | { readonly kind: 'ui'; readonly ui: UiResource }
    | undefined {
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

  /**
   * Completion values for a template variable or prompt argument: what its completion function returns, else the
   * listed values of an enum type that start with what was typed, else nothing. `undefined` when the reference
   * names no enabled prompt or resource.
   */
  async complete(request: CompletionRequest): Promise<readonly string[] | undefined> {
    const { ref, argument, typed } = request;
    const entry =
      ref.type === 'ref/prompt'
        ? this.prompt(String(ref.name))
        : ref.type === 'ref/resource'
          ? this.resourceEntry(String(ref.uri))
          : undefined;
    if (!entry) return undefined;
    const completer = entry.model.completers?.get(argument);
    if (completer) {
      const site = {
        kind: ref.type === 'ref/prompt' ? ('prompt' as const) : ('resource' as const),
        name: entry.model.name,
        log: this.log,
        requestId: request.requestId,
        sessionId: request.sessionId,
      };
      return runCompleter(completer, entry.instance, typed, { argument, arguments: request.resolved }, site);
    }
    const type: TypeNode | undefined = entry.model.params.find((p) => p.name === argument)?.type;
    const bare = type && unwrap(type);
    if (bare?.kind !== 'enum') return [];
    return bare.listed.filter((n) => n.startsWith(typed));
  }

  /** The decorated method behind a listed item (by its kind and listed name), if it is one. */
  memberOf(kind: 'tool' | 'resource' | 'template' | 'prompt', name: string): Member | undefined {
    if (kind === 'tool') return this.tools.get(name)?.member;
    const entry =
      kind === 'prompt'
        ? this.prompts.get(name)
        : kind === 'template'
          ? this.templates.find((t) => t.model.uri === name)
          : this.resources.get(name);
    return entry && { instance: entry.instance, key: entry.key };
  }

  /** An enabled resource or template by the URI (template) it was registered with. */
  private resourceEntry(uri: string): RegisteredResource | undefined {
    if (this.disabled.resource.has(uri)) return undefined;
    return this.templates.find((t) => t.model.uri === uri) ?? this.resources.get(uri);
  }

  /** The cache hint a tool, prompt or resource (by name, or URI as registered) declared, if any. */
  cacheHintOf(kind: CatalogKind, key: string): CacheHint | undefined {
    if (kind === 'tool') return this.tools.get(key)?.model.cache;
    if (kind === 'prompt') return this.prompts.get(key)?.model.cache;
    return (this.resources.get(key) ?? this.templates.find((t) => t.model.uri === key))?.model.cache;
  }

  get hasResources(): boolean {
    // Skill files are read with resources/read: a server with skills declares resources.
    return this.resources.size + this.templates.length + this.uiResources.size > 0 || this.served !== undefined;
  }

  /** The skills served (the Skills extension), if `addSkills` or `@Skill` methods gave any. */
  get skills(): ServedSkills | undefined {
    return this.served;
  }

  /** Serves these skills from now on, in place of those served before (built from `skillSources`). */
  setSkills(skills: ServedSkills): void {
    this.served = skills;
    this.changed('resource');
  }

  get hasPrompts(): boolean {
    return this.prompts.size > 0;
  }

  /** Whether a tool can run as a task. */
  get usesTasks(): boolean {
    // Asked on every message the stdio loop reads; kept until the catalog changes.
    this.tasks ??= [...this.tools.values()].some((t) => t.model.task !== undefined);
    return this.tasks;
  }

  /** Whether the server opts in to MCP Apps: a tool names a UI resource, or one is registered. */
  get usesApps(): boolean {
    this.apps ??= this.uiResources.size > 0 || [...this.tools.values()].some((t) => t.model.ui !== undefined);
    return this.apps;
  }
}
