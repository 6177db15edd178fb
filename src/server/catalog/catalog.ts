import { UsageError, UsageTypeError } from '../../errors';
import { Log } from '../../log';
import { Problems } from '../../schema/diagnostics';
import type { CacheHint, ParamModel, ToolModel } from '../../schema/model';
import { Interceptors } from '../../invoke/calling/interceptors';
import type { CompileOptions, ToolTarget } from '../../invoke/calling/invoker';
import type { ValidationOptions } from '../../schema/records/validation-options';
import type { AddOptions } from '../../invoke/calling/invocation';
import type { Profile } from '../../schema/profiles';
import {
  PRIVATE,
  type Access,
  type CatalogKind,
  type CatalogListener,
  type Listings,
  type Member,
  type RegisteredPrompt,
  type RegisteredTool,
} from './entries';
import { declarationsOf, promptEntryOf, resourceEntryOf, toolEntryOf, type Pending, type TextCompiling } from './declarations';
import { addProfileProblems, checkClashes, checkProfiles, checkSkillClashes } from './definition-checks';
import { Registry, type FoundResource } from './registry';
import { declaredScopesOf, listingsWhere } from './visible-listings';
import { entriesNamed } from './request-access';
import { ProfiledTools } from './profiled-tools';
import { completionsOf, type CompletionRequest } from './completion';
import type { ToolListing } from './listing';
import { grants, ScopedListings } from './scoped-listings';
import { APP_MIME_TYPE, uiResourceOf } from './ui-resource';
import type { DecoratedSkill, ServedSkills, SkillFolder } from './skills';

/**
 * Everything the server serves, computed once when it is added: listings, compiled calls and URI
 * matchers. The SDK's per-request and per-connection `Server` instances only look things up here.
 */

export { APP_MIME_TYPE };
export { callOf } from './entries';
export type {
  Access,
  CatalogKind,
  CatalogListener,
  Listings,
  Member,
  RegisteredPrompt,
  RegisteredResource,
  RegisteredTool,
} from './entries';
export type { CompletionRequest } from './completion';
/** The MCP Apps extension id, as negotiated in capabilities. */
export const APPS_EXTENSION = 'io.modelcontextprotocol/ui';

export class Catalog {
  private readonly registry = new Registry();
  readonly tools = this.registry.tools;
  readonly prompts = this.registry.prompts;
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
  private readonly profiledTools = new ProfiledTools();

  /** The server's log, for the calls compiled here and for definition-time warnings. */
  readonly log: Log;
  /** `server.use`'s interceptors, in registration order; every compiled call reads them. */
  readonly interceptors = new Interceptors();
  /** What a resource's or prompt's call is compiled with. */
  private readonly textCompiling: TextCompiling;

  /** Tool names the server answers itself (`catalog: 'search'`: search.ts's three): no tool of the catalog may take one. */
  private reserved: ReadonlySet<string> = new Set();

  constructor(private compiling: CompileOptions = {}) {
    this.log = compiling.log ?? Log.silent;
    this.compiling = { ...compiling, interceptors: this.interceptors };
    this.textCompiling = { log: this.log, interceptors: this.interceptors };
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
    return this.registry.tool(name);
  }

  /** The enabled prompt of that name. */
  prompt(name: string): RegisteredPrompt | undefined {
    return this.registry.prompt(name);
  }

  /** Removes a tool or prompt (by name) or a resource, template or UI resource (by URI as registered). */
  remove(kind: CatalogKind, key: string): void {
    this.requireEntry(kind, key, 'remove');
    this.registry.remove(kind, key);
    this.changed(kind);
  }

  /** Hides (`false`) or shows again (`true`) an entry; a change is announced only when the state changes. */
  setEnabled(kind: CatalogKind, key: string, enabled: boolean): void {
    this.requireEntry(kind, key, enabled ? 'enable' : 'disable');
    if (this.registry.setEnabled(kind, key, enabled)) this.changed(kind);
  }

  private requireEntry(kind: CatalogKind, key: string, verb: string): void {
    if (this.registry.entry(kind, key) === undefined) {
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
    const problems = new Problems();
    const { pending, skills } = declarationsOf(instance, options, problems);
    checkSkillClashes(this.skillSources.decorated, skills, problems);
    this.register(instance.constructor.name, pending, problems);
    this.skillSources.decorated.push(...skills);
    return skills.length;
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
    if (this.registry.uiResources.has(uri) || this.registry.resources.has(uri))
      throw new UsageTypeError(`server.addUiResource(): '${uri}' is already registered.`);
    this.registry.uiResources.set(uri, view);
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
    for (const tool of this.tools.values()) addProfileProblems(tool.model, profile, problems);
    problems.throwIfAny(subject);
    this.profiles.add(profile);
  }

  private register(subject: string, pending: readonly Pending[], problems: Problems): void {
    checkClashes(this.registry, this.reserved, pending, problems);
    if (this.profiles.size > 0) checkProfiles(this.profiles, pending, problems);
    problems.throwIfAny(subject);
    // Indexed loops: `server.tool()` comes here once per tool at start-up, where each `for...of` step of
    // code not yet optimised allocates.
    for (let i = 0; i < pending.length; i++) {
      const entry = pending[i];
      if (entry.kind === 'tool') this.tools.set(entry.model.name, toolEntryOf(entry, this.compiling));
      else if (entry.kind === 'resource') this.registry.addResource(resourceEntryOf(entry, this.textCompiling));
      else this.prompts.set(entry.model.name, promptEntryOf(entry, this.textCompiling));
    }
    const kinds: CatalogKind[] = [];
    for (let i = 0; i < pending.length; i++) if (!kinds.includes(pending[i].kind)) kinds.push(pending[i].kind);
    for (let i = 0; i < kinds.length; i++) this.changed(kinds[i]);
  }

  private changed(kind: CatalogKind): void {
    this.cached = undefined;
    this.scoped = undefined;
    this.anonymous = undefined;
    this.apps = undefined;
    this.tasks = undefined;
    for (const listener of [...this.listeners]) listener(kind);
  }

  /** The listings, built once after each change and shared by every request. */
  get listings(): Listings {
    return (this.cached ??= listingsWhere(this.registry, this.served, () => true));
  }

  /**
   * What a caller holding `scopes` may see; every listing when `scopes` is undefined (no auth). Built once per
   * distinct set of relevant scopes and kept until the catalog changes.
   */
  listingsFor(scopes: readonly string[] | undefined): Listings {
    if (scopes === undefined) return this.listings;
    this.scoped ??= new ScopedListings(new Set(this.declaredScopes), (granted) =>
      listingsWhere(this.registry, this.served, (entry) => grants(granted, entry.scopes)),
    );
    return this.scoped.for(scopes);
  }

  /**
   * The tool listings as a client of `profile` is sent them (schema/profiles): the very array under the exact
   * profile; else built once per array and profile, each entry with its `inputSchema` written by the profile.
   */
  toolsUnder(tools: readonly ToolListing[], profile: Profile): readonly ToolListing[] {
    return this.profiledTools.under(tools, profile, (name) => this.tools.get(name)?.model, this.compiling.validation);
  }

  /** What a caller without a token may see (with `auth: { allowAnonymous: true }`): the public entries; built once. */
  get anonymousListings(): Listings {
    return (this.anonymous ??= listingsWhere(this.registry, this.served, (entry) => entry.public));
  }

  /** How many distinct scope sets have a listing (for tests and benchmarks). */
  get scopedListingCount(): number {
    return this.scoped?.size ?? 0;
  }

  /** Every scope some tool, resource or prompt needs, in the order they were declared. */
  get declaredScopes(): readonly string[] {
    return declaredScopesOf(this.registry, this.served);
  }

  /** The scopes a JSON-RPC request needs: those of the tool, resource or prompt it names; none for the rest. */
  scopesNeeded(message: unknown): readonly string[] {
    const named = entriesNamed(this.registry, this.served, message);
    return named.length === 1 ? named[0].scopes : [...new Set(named.flatMap((entry) => entry.scopes))];
  }

  /**
   * Whether a caller without a token may send this request: it names no entry, or only public ones. An unknown
   * name is no reason to ask for a token (the answer is the same unknown-item error for everyone).
   */
  openToAnonymous(message: unknown): boolean {
    return entriesNamed(this.registry, this.served, message).every((entry) => entry.public);
  }

  /** The parameters of the enabled tool of that name that carry an `Mcp-Param-*` header (SEP-2243; checked in http/modern/param-headers.ts). */
  headerParamsOf(name: string): readonly ParamModel[] | undefined {
    return this.tool(name)?.headerParams;
  }

  /** The resource a URI names: a static resource, a UI resource, or the first template that matches. */
  findResource(uri: string): FoundResource | undefined {
    return this.registry.findResource(uri);
  }

  /**
   * Completion values for a template variable or prompt argument (completion.ts). `undefined` when the reference
   * names no enabled prompt or resource.
   */
  complete(request: CompletionRequest): Promise<readonly string[] | undefined> {
    const { ref } = request;
    const entry =
      ref.type === 'ref/prompt'
        ? this.prompt(String(ref.name))
        : ref.type === 'ref/resource'
          ? this.registry.resourceEntry(String(ref.uri))
          : undefined;
    return entry ? completionsOf(entry, request, this.log) : Promise.resolve(undefined);
  }

  /** The decorated method behind a listed item (by its kind and listed name), if it is one. */
  memberOf(kind: 'tool' | 'resource' | 'template' | 'prompt', name: string): Member | undefined {
    return this.registry.memberOf(kind, name);
  }

  /** The cache hint a tool, prompt or resource (by name, or URI as registered) declared, if any. */
  cacheHintOf(kind: CatalogKind, key: string): CacheHint | undefined {
    return this.registry.cacheHintOf(kind, key);
  }

  get hasResources(): boolean {
    const { resources, templates, uiResources } = this.registry;
    // Skill files are read with resources/read: a server with skills declares resources.
    return resources.size + templates.length + uiResources.size > 0 || this.served !== undefined;
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
    this.apps ??= this.registry.uiResources.size > 0 || [...this.tools.values()].some((t) => t.model.ui !== undefined);
    return this.apps;
  }
}
