import type { Log } from '../../log';
import type { ToolModel } from '../../schema/model';
import { mayList, profileWarningsOf, type ListingOption } from '../../schema/profiles';
import { designOnlyParamsOf, designOnlyPropertiesOf, designOnlyWarning, type DesignOnly } from '../../schema/resolve/design-only';
import type { Catalog } from './catalog';

type ProviderProfile = 'gemini' | 'openai-strict';

const PROVIDER_PROFILES = ['openai-strict', 'gemini'] as const;

/**
 * What a server says of its tools as they are added (the log's `definition.warning`), each once: a result type
 * TypeScript erased, parameters and properties known from their design type only, and what a provider profile
 * the server may list under cannot state.
 */
export class DefinitionWarnings {
  /** The provider profiles some listing of this server may be written under: their definition-time warnings were said. */
  private readonly warnedProfiles = new Set<ProviderProfile>();

  /** `listing`: the server's own `listing` option. */
  constructor(
    private readonly catalog: Catalog,
    private readonly log: Log,
    private readonly listing: ListingOption | undefined,
  ) {}

  /** The warnings of the tools `server.add(instance)` added: those of the catalog not named in `before`. */
  added(instance: object, before: ReadonlySet<string>): void {
    const designOnly: DesignOnly = { params: [], properties: [] };
    const records = new Set<Function>();
    for (const [name, tool] of this.catalog.tools) {
      if (before.has(name)) continue;
      this.warnIfErased(tool.model);
      this.tool(tool.model);
      if (tool.member) designOnly.params.push(...designOnlyParamsOf(instance.constructor, tool.member.key, tool.model));
      designOnly.properties.push(...designOnlyPropertiesOf(tool.model, records));
    }
    const warning = designOnlyWarning(designOnly);
    if (warning) this.log.warn(warning, { event: 'definition.warning' });
  }

  /**
   * Issue 36: a type a provider profile the server may list under cannot state (a dictionary, free JSON) is said
   * once, with the portable spelling.
   */
  tool(model: ToolModel): void {
    for (const profile of PROVIDER_PROFILES) {
      if (!mayList(this.listing, profile) && !this.warnedProfiles.has(profile)) continue;
      this.warnedProfiles.add(profile);
      this.warnUnstatableUnder(model, profile);
    }
  }

  /**
   * An endpoint's `listing` (`serveHttp`, `createHttpHandler`) may name a provider profile the server's own does
   * not: the tools already added are warned about under it then, once per profile, and the tools added later as
   * they are added.
   */
  endpoint(listing: unknown): void {
    for (const profile of PROVIDER_PROFILES) {
      if (this.warnedProfiles.has(profile) || mayList(this.listing, profile)) continue;
      if (!mayList(listing as ListingOption | undefined, profile)) continue;
      // A tool this profile cannot list refuses the endpoint at start-up (OMCG0018), never a broken tools/list.
      this.catalog.listUnder(profile, `The endpoint listing under '${profile}'`);
      this.warnedProfiles.add(profile);
      for (const { model } of this.catalog.tools.values()) this.warnUnstatableUnder(model, profile);
    }
  }

  /**
   * Issue 11, no silent loss: a method without `returns` and without generated facts whose result type
   * TypeScript erased (an async method's, or the elements of an array, set or map) lists no `outputSchema` and
   * sends no `structuredContent`. Say so once. (`Object` is not warned about: it is also what `any`,
   * `unknown` and unions of object types become, which a tool may mean.)
   */
  private warnIfErased(model: ToolModel): void {
    if (model.result.kind !== 'auto' || model.result.erased === undefined) return;
    const what =
      model.result.erased === 'Promise'
        ? 'a Promise whose type'
        : `a${model.result.erased === 'Array' ? 'n' : ''} ${model.result.erased} whose element type`;
    this.log.warn(
      `${model.where} (tool '${model.name}') returns ${what} TypeScript erased: it has no outputSchema and a record result is not sent as structuredContent. ` +
        `Declare it with @Tool({ returns: Type }), or run onemodelcontext generate and import the facts module.`,
      { event: 'definition.warning', tool: model.name },
    );
  }

  /** What `profile` cannot state of the tool's types, said at definition time with the portable spelling. */
  private warnUnstatableUnder(model: ToolModel, profile: ProviderProfile): void {
    for (const warning of profileWarningsOf(model, profile)) this.log.warn(warning, { event: 'definition.warning', tool: model.name });
  }
}
