import type { AuthInfo as SdkAuthInfo } from '@modelcontextprotocol/server';
import type { Log } from '../../log';
import type { Access, Catalog, Listings } from '../catalog';
import type { ToolListing } from '../listing';
import type { PromptListing, ResourceListing } from '../resource-listing';
import { endpointOf, isAnonymous, verifiedCallerOf, type AuthorizeItem, type AuthorizePolicy, type EndpointAuth } from './caller';

/**
 * What a caller sees and may use over an HTTP endpoint with `auth`: the catalog's listings for its scopes (or the
 * public ones for an anonymous caller), narrowed by `auth.authorize`, with each tool's `securitySchemes`.
 *
 * Nothing here is built per request: the scope-filtered listings are the catalog's (one per distinct scope set);
 * `authorize` is asked about every listed entry, and the answers, as a string of 0s and 1s, pick a listing
 * built once per distinct answer set; `securitySchemes` are written once per tool listing and endpoint. A
 * listing request costs one policy call per entry and one map lookup.
 */

/** Most listings kept per policy and scope set: a policy whose answers vary per caller builds at most this many. */
const MAX_ANSWER_SETS = 256;

/** One `securitySchemes` entry (the OpenAI Apps SDK's form, SEP-1488). */
export type SecurityScheme = { readonly type: 'noauth' } | { readonly type: 'oauth2'; readonly scopes: readonly string[] };

/** What a tool needs, as `securitySchemes` say it on an endpoint: nothing when public and anonymous callers are let in. */
export function securitySchemesOf(access: Access, endpoint: EndpointAuth): readonly SecurityScheme[] {
  if (access.public && endpoint.allowAnonymous) return [{ type: 'noauth' }];
  return [{ type: 'oauth2', scopes: [...new Set([...endpoint.baseScopes, ...access.scopes])] }];
}

/** Tool listings with `securitySchemes` (and the `_meta.securitySchemes` mirror), per endpoint (one per `auth`). */
const withSchemes = new WeakMap<EndpointAuth, WeakMap<ToolListing, ToolListing>>();

function toolWithSchemes(listing: ToolListing, access: Access, endpoint: EndpointAuth): ToolListing {
  let written = withSchemes.get(endpoint);
  if (!written) withSchemes.set(endpoint, (written = new WeakMap()));
  let shown = written.get(listing);
  if (!shown) {
    const securitySchemes = securitySchemesOf(access, endpoint);
    shown = Object.freeze({ ...listing, securitySchemes, _meta: { ...listing._meta, securitySchemes } }) as ToolListing;
    written.set(listing, shown);
  }
  return shown;
}

/** Listings narrowed by a policy, per policy and base listings (a catalog change makes new base listings). */
const narrowed = new WeakMap<Listings, WeakMap<AuthorizePolicy, Map<string, Listings>>>();
/** Tool arrays with `securitySchemes`, per endpoint and array. */
const schemed = new WeakMap<readonly ToolListing[], WeakMap<EndpointAuth, readonly ToolListing[]>>();

type Entry = { readonly item: AuthorizeItem; readonly list: keyof Listings; readonly index: number };

/** Every entry of a listing as `authorize` is asked about it. */
function entriesOf(listings: Listings): readonly Entry[] {
  const entries: Entry[] = [];
  listings.tools.forEach((t, index) => entries.push({ item: { kind: 'tool', name: t.name }, list: 'tools', index }));
  listings.resources.forEach((r, index) => entries.push({ item: { kind: 'resource', name: r.uri ?? '' }, list: 'resources', index }));
  listings.templates.forEach((r, index) => entries.push({ item: { kind: 'template', name: r.uriTemplate ?? '' }, list: 'templates', index }));
  listings.prompts.forEach((p, index) => entries.push({ item: { kind: 'prompt', name: p.name }, list: 'prompts', index }));
  return entries;
}

const entriesCache = new WeakMap<Listings, readonly Entry[]>();

function keep<T>(items: readonly T[], list: keyof Listings, entries: readonly Entry[], answers: string): readonly T[] {
  const kept: T[] = [];
  for (let i = 0; i < entries.length; i++) if (entries[i].list === list && answers[i] === '1') kept.push(items[entries[i].index]);
  return Object.freeze(kept);
}

/** `plainTools` by name: an app-only tool has no plain listing, so indexes differ from `tools`. */
function keepPlain(listings: Listings, tools: readonly ToolListing[]): readonly ToolListing[] {
  const names = new Set(tools.map((t) => t.name));
  return Object.freeze(listings.plainTools.filter((t) => names.has(t.name)));
}

export class Visibility {
  constructor(
    private readonly catalog: Catalog,
    private readonly log: Log,
  ) {}

  /** What this request's caller may list; every listing without auth. */
  async listingsFor(info: SdkAuthInfo | undefined): Promise<Listings> {
    const endpoint = endpointOf(info);
    const base = endpoint === undefined ? this.catalog.listingsFor(info?.scopes) : isAnonymous(info) ? this.catalog.anonymousListings : this.catalog.listingsFor(info!.scopes);
    if (endpoint === undefined) return base;
    const allowed = endpoint.authorize ? await this.narrow(base, endpoint.authorize, info) : base;
    return this.schemed(allowed, endpoint);
  }

  /**
   * Whether `auth.authorize` lets this request's caller use an item; logs a refusal. Without a policy (or without
   * auth) everything the scope checks let through is allowed.
   */
  async allows(info: SdkAuthInfo | undefined, item: AuthorizeItem, requestId?: string | number, sessionId?: string): Promise<boolean> {
    const authorize = endpointOf(info)?.authorize;
    if (!authorize) return true;
    const caller = verifiedCallerOf(info);
    if (await ask(authorize, caller, item, this.log)) return true;
    const who = caller ? `client '${caller.clientId}'${caller.subject === undefined ? '' : ` (subject '${caller.subject}')`}` : 'an anonymous caller';
    this.log.warn(`auth.authorize refused ${who} the ${item.kind} '${item.name.slice(0, 128)}'; answered as an unknown ${item.kind}`, {
      event: 'auth.refused',
      requestId,
      sessionId,
    });
    return false;
  }

  private async narrow(base: Listings, authorize: AuthorizePolicy, info: SdkAuthInfo | undefined): Promise<Listings> {
    let entries = entriesCache.get(base);
    if (!entries) entriesCache.set(base, (entries = entriesOf(base)));
    const answers = await answersOf(authorize, verifiedCallerOf(info), entries, this.log);
    let byPolicy = narrowed.get(base);
    if (!byPolicy) narrowed.set(base, (byPolicy = new WeakMap()));
    let built = byPolicy.get(authorize);
    if (!built) byPolicy.set(authorize, (built = new Map()));
    let listings = built.get(answers);
    if (!listings) {
      const tools = keep(base.tools, 'tools', entries, answers);
      listings = {
        tools,
        plainTools: keepPlain(base, tools),
        resources: keep<ResourceListing>(base.resources, 'resources', entries, answers),
        templates: keep<ResourceListing>(base.templates, 'templates', entries, answers),
        prompts: keep<PromptListing>(base.prompts, 'prompts', entries, answers),
      };
      if (built.size >= MAX_ANSWER_SETS) built.delete(built.keys().next().value as string);
      built.set(answers, listings);
    }
    return listings;
  }

  /** The listings with every tool's `securitySchemes`, built once per tool array and endpoint. */
  private schemed(listings: Listings, endpoint: EndpointAuth): Listings {
    const tools = this.toolsWithSchemes(listings.tools, endpoint);
    const plainTools = listings.plainTools === listings.tools ? tools : this.toolsWithSchemes(listings.plainTools, endpoint);
    return { ...listings, tools, plainTools };
  }

  private toolsWithSchemes(tools: readonly ToolListing[], endpoint: EndpointAuth): readonly ToolListing[] {
    let byEndpoint = schemed.get(tools);
    if (!byEndpoint) schemed.set(tools, (byEndpoint = new WeakMap()));
    let shown = byEndpoint.get(endpoint);
    if (!shown) {
      shown = Object.freeze(tools.map((t) => toolWithSchemes(t, this.catalog.tools.get(t.name) ?? { scopes: [], public: false }, endpoint)));
      byEndpoint.set(endpoint, shown);
    }
    return shown;
  }
}

/**
 * The policy's answers for every entry as a string of 0s and 1s. A synchronous policy is answered without a
 * promise per entry (most of the cost of a listing with 1,000 entries otherwise); promises are awaited together.
 */
async function answersOf(authorize: AuthorizePolicy, caller: ReturnType<typeof verifiedCallerOf>, entries: readonly Entry[], log: Log): Promise<string> {
  const answers: (boolean | Promise<boolean>)[] = new Array(entries.length);
  let pending = false;
  for (let i = 0; i < entries.length; i++) {
    let answer: boolean | Promise<boolean>;
    try {
      answer = authorize(caller, entries[i].item);
    } catch (error) {
      answer = Promise.reject(error);
    }
    if (typeof answer === 'boolean') answers[i] = answer;
    else {
      pending = true;
      answers[i] = ask(() => answer, caller, entries[i].item, log);
    }
  }
  const settled = pending ? await Promise.all(answers) : (answers as boolean[]);
  let key = '';
  for (let i = 0; i < settled.length; i++) key += settled[i] === true ? '1' : '0';
  return key;
}

/** The policy's answer; a policy that throws refuses (and is logged): an error must never open an item. */
async function ask(authorize: AuthorizePolicy, caller: ReturnType<typeof verifiedCallerOf>, item: AuthorizeItem, log: Log): Promise<boolean> {
  try {
    return (await authorize(caller, item)) === true;
  } catch (error) {
    log.error(`auth.authorize threw for the ${item.kind} '${item.name.slice(0, 128)}'; the item is refused`, { event: 'auth.failed', error });
    return false;
  }
}
