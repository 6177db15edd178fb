import type { AuthInfo as SdkAuthInfo } from '@modelcontextprotocol/server';
import type { Log } from '../../log';
import type { Access, Catalog, Listings } from '../catalog/catalog';
import type { ToolListing } from '../catalog/listing';
import type { PromptListing, ResourceListing } from '../catalog/resource-listing';
import { OncePer } from '../once-per';
import { grants } from '../catalog/scoped-listings';
import { isSkillListing, type ServedSkills } from '../catalog/skills';
import {
  DEFAULT_AUTHORIZE_TIMEOUT_MS,
  endpointOf,
  isAnonymous,
  verifiedCallerOf,
  type AuthorizeItem,
  type AuthorizePolicy,
  type EndpointAuth,
} from './caller';

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

/** The lists of a listing, by the field a handler reads. */
export type ListField = keyof Listings;
type Item<F extends ListField> = Listings[F][number];

/** A list narrowed by a policy, per policy and base list (a catalog change makes new base lists). */
const narrowed = new WeakMap<readonly object[], WeakMap<AuthorizePolicy, Map<string, readonly object[]>>>();
/** Tool arrays with `securitySchemes`, per endpoint and array. */
const schemed = new WeakMap<readonly ToolListing[], WeakMap<EndpointAuth, readonly ToolListing[]>>();
/** Each list's entries as `authorize` is asked about them. */
const itemsCache = new WeakMap<readonly object[], readonly AuthorizeItem[]>();

function itemOf(field: ListField, entry: object): AuthorizeItem {
  if (field === 'resources') return { kind: isSkillListing(entry) ? 'skill' : 'resource', name: (entry as ResourceListing).uri ?? '' };
  if (field === 'templates') return { kind: 'template', name: (entry as ResourceListing).uriTemplate ?? '' };
  if (field === 'prompts') return { kind: 'prompt', name: (entry as PromptListing).name };
  return { kind: 'tool', name: (entry as ToolListing).name };
}

/** A resource as `auth.authorize` is asked about it: a template by its URI template, else by its URI. */
export function resourceItemOf(found: NonNullable<ReturnType<Catalog['findResource']>>): AuthorizeItem {
  if (found.kind === 'ui') return { kind: 'resource', name: found.ui.listing.uri ?? '' };
  return { kind: found.resource.model.template ? 'template' : 'resource', name: found.resource.model.uri };
}

export class Visibility {
  constructor(
    private readonly catalog: Catalog,
    private readonly log: Log,
  ) {}

  /**
   * One list as this request's caller may see it: the whole list without auth; else the catalog's list for its
   * scopes (the public entries for an anonymous caller), narrowed by `authorize`, tools with `securitySchemes`.
   */
  async list<F extends ListField>(info: SdkAuthInfo | undefined, field: F): Promise<readonly Item<F>[]> {
    const endpoint = endpointOf(info);
    if (endpoint === undefined) return this.catalog.listingsFor(info?.scopes)[field] as readonly Item<F>[];
    const base = (isAnonymous(info) ? this.catalog.anonymousListings : this.catalog.listingsFor(info!.scopes))[field] as readonly Item<F>[];
    const allowed = endpoint.authorize ? await this.narrow(base, field, endpoint.authorize, info) : base;
    return (
      field === 'tools' || field === 'plainTools' ? this.toolsWithSchemes(allowed as readonly ToolListing[], endpoint) : allowed
    ) as readonly Item<F>[];
  }

  /**
   * Whether `auth.authorize` lets this request's caller use an item; logs a refusal. Without a policy (or without
   * auth) everything the scope checks let through is allowed.
   */
  allows(info: SdkAuthInfo | undefined, item: AuthorizeItem, requestId?: string | number, sessionId?: string): boolean | Promise<boolean> {
    const authorize = endpointOf(info)?.authorize;
    // Answered at once without a policy: a call that no policy narrows does not wait on one.
    if (!authorize) return true;
    return this.asked(authorize, info, item, requestId, sessionId);
  }

  /**
   * Whether this request's caller may see and use a skill, as a resource is decided: its scopes (anyone when
   * `public`; without auth, the caller's scopes if it has any), then `auth.authorize` about
   * `{ kind: 'skill', name: <SKILL.md URI> }`.
   */
  allowsSkill(
    info: SdkAuthInfo | undefined,
    skills: ServedSkills,
    uri: string,
    requestId?: string | number,
    sessionId?: string,
  ): boolean | Promise<boolean> {
    const access = skills.accessOf(uri);
    if (access === undefined) return false;
    const endpoint = endpointOf(info);
    const scoped = () => info?.scopes === undefined || grants(new Set(info.scopes), access.scopes);
    if (endpoint === undefined) return scoped();
    if (isAnonymous(info) ? !access.public : !scoped()) return false;
    return this.allows(info, { kind: 'skill', name: uri }, requestId, sessionId);
  }

  /**
   * The URIs among a `subscriptions/listen` request's `resourceSubscriptions` that `auth.authorize` refuses this
   * caller, each refusal logged: none without a policy. An unknown URI is not asked about (nothing to refuse yet),
   * as `resources/subscribe` does.
   */
  async refusedSubscriptions(
    info: SdkAuthInfo | undefined,
    uris: readonly unknown[],
    requestId?: string | number,
  ): Promise<ReadonlySet<string>> {
    const refused = new Set<string>();
    if (!endpointOf(info)?.authorize) return refused;
    await Promise.all(
      uris.map(async (uri) => {
        const found = typeof uri === 'string' ? this.catalog.findResource(uri) : undefined;
        if (found && !(await this.allows(info, resourceItemOf(found), requestId))) refused.add(uri as string);
      }),
    );
    return refused;
  }

  /** What `authorize` answers for the item within the endpoint's bound; a refusal is logged (a late answer once a minute). */
  private async asked(
    authorize: AuthorizePolicy,
    info: SdkAuthInfo | undefined,
    item: AuthorizeItem,
    requestId?: string | number,
    sessionId?: string,
  ): Promise<boolean> {
    const caller = verifiedCallerOf(info);
    const ms = timeoutOf(endpointOf(info));
    const answer = await within(ask(authorize, caller, item, this.log), ms);
    if (answer === true) return true;
    if (answer === LATE) {
      slow(authorize, [item], ms, this.log, requestId, sessionId);
      return false;
    }
    const who = caller
      ? `client '${caller.clientId}'${caller.subject === undefined ? '' : ` (subject '${caller.subject}')`}`
      : 'an anonymous caller';
    this.log.warn(`auth.authorize refused ${who} the ${item.kind} '${item.name.slice(0, 128)}'; answered as an unknown ${item.kind}`, {
      event: 'auth.refused',
      requestId,
      sessionId,
    });
    return false;
  }

  /** The entries of a list the policy allows this caller: one policy call per entry, one list per answer set. */
  private async narrow<T extends object>(
    base: readonly T[],
    field: ListField,
    authorize: AuthorizePolicy,
    info: SdkAuthInfo | undefined,
  ): Promise<readonly T[]> {
    if (base.length === 0) return base;
    let items = itemsCache.get(base);
    if (!items) itemsCache.set(base, (items = base.map((entry) => itemOf(field, entry))));
    const answers = await answersOf(authorize, verifiedCallerOf(info), items, timeoutOf(endpointOf(info)), this.log);
    let byPolicy = narrowed.get(base);
    if (!byPolicy) narrowed.set(base, (byPolicy = new WeakMap()));
    let built = byPolicy.get(authorize);
    if (!built) byPolicy.set(authorize, (built = new Map()));
    let kept = built.get(answers) as readonly T[] | undefined;
    if (!kept) {
      kept = Object.freeze(base.filter((_, i) => answers[i] === '1'));
      if (built.size >= MAX_ANSWER_SETS) built.delete(built.keys().next().value as string);
      built.set(answers, kept);
    }
    return kept;
  }

  /** The tools with their `securitySchemes`, built once per tool array and endpoint. */
  private toolsWithSchemes(tools: readonly ToolListing[], endpoint: EndpointAuth): readonly ToolListing[] {
    let byEndpoint = schemed.get(tools);
    if (!byEndpoint) schemed.set(tools, (byEndpoint = new WeakMap()));
    let shown = byEndpoint.get(endpoint);
    if (!shown) {
      shown = Object.freeze(
        tools.map((t) => toolWithSchemes(t, this.catalog.tools.get(t.name) ?? { scopes: [], public: false }, endpoint)),
      );
      byEndpoint.set(endpoint, shown);
    }
    return shown;
  }
}

/**
 * The policy's answers for every entry as a string of 0s and 1s. A synchronous policy is answered without a
 * promise per entry (most of the cost of a listing with 1,000 entries otherwise); promises are awaited together,
 * within one bound for the listing: an entry not answered by then is refused (and logged, once a minute per entry).
 */
async function answersOf(
  authorize: AuthorizePolicy,
  caller: ReturnType<typeof verifiedCallerOf>,
  items: readonly AuthorizeItem[],
  ms: number,
  log: Log,
): Promise<string> {
  const answers: (boolean | undefined)[] = new Array(items.length);
  const pending: Promise<void>[] = [];
  for (let i = 0; i < items.length; i++) {
    let answer: boolean | Promise<boolean>;
    try {
      answer = authorize(caller, items[i]);
    } catch (error) {
      answer = Promise.reject(error);
    }
    if (typeof answer === 'boolean') answers[i] = answer;
    else pending.push(ask(() => answer, caller, items[i], log).then((allowed) => void (answers[i] = allowed)));
  }
  if (pending.length > 0 && (await within(Promise.all(pending), ms)) === LATE) {
    slow(
      authorize,
      items.filter((_, i) => answers[i] === undefined),
      ms,
      log,
    );
  }
  let key = '';
  for (let i = 0; i < answers.length; i++) key += answers[i] === true ? '1' : '0';
  return key;
}

/** What {@link within} answers for a promise that did not settle in time. */
const LATE: unique symbol = Symbol('late');

/** The promise's value, or {@link LATE} once `ms` passed first; the timer is cleared either way and never holds the process open. */
async function within<T>(answer: Promise<T>, ms: number): Promise<T | typeof LATE> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<typeof LATE>((resolve) => {
    timer = setTimeout(resolve, ms, LATE);
    timer.unref();
  });
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}

function timeoutOf(endpoint: EndpointAuth | undefined): number {
  return endpoint?.authorizeTimeoutMs ?? DEFAULT_AUTHORIZE_TIMEOUT_MS;
}

/** Items a policy was late about, per policy, logged once a minute each: a policy that hangs must not flood the log. */
const lateLogged = new WeakMap<AuthorizePolicy, OncePer>();

/** Logs, at warn, the items a policy did not answer about within its bound (those not logged in the last minute). */
function slow(
  authorize: AuthorizePolicy,
  items: readonly AuthorizeItem[],
  ms: number,
  log: Log,
  requestId?: string | number,
  sessionId?: string,
): void {
  let seen = lateLogged.get(authorize);
  if (!seen) lateLogged.set(authorize, (seen = new OncePer(60_000)));
  const named = items
    .filter((item) => seen.due(`${item.kind} ${item.name}`))
    .map((item) => `the ${item.kind} '${item.name.slice(0, 128)}'`);
  if (named.length === 0) return;
  const shown = named.length > 5 ? `${named.slice(0, 5).join(', ')} and ${named.length - 5} more` : named.join(', ');
  log.warn(`auth.authorize did not answer within ${ms} ms (auth.authorizeTimeoutMs) about ${shown}; refused until it answers in time`, {
    event: 'auth.failed',
    requestId,
    sessionId,
  });
}

/** The policy's answer; a policy that throws refuses (and is logged): an error must never open an item. */
async function ask(
  authorize: AuthorizePolicy,
  caller: ReturnType<typeof verifiedCallerOf>,
  item: AuthorizeItem,
  log: Log,
): Promise<boolean> {
  try {
    return (await authorize(caller, item)) === true;
  } catch (error) {
    log.error(`auth.authorize threw for the ${item.kind} '${item.name.slice(0, 128)}'; the item is refused`, {
      event: 'auth.failed',
      error,
    });
    return false;
  }
}
