import type { CatalogKind } from '../catalog/entries';
import type { ListName, Pager } from '../catalog/pages';
import { HOT_ROWS, isCopyableRecord, type HotMethod, type HotRule } from '../methods';
import { isCopyableObject, isObjectLike, isPlainObject } from '../../objects';
import type { InFlight } from './in-flight';
import type { LazyAbort } from './lazy-abort';
import { MESSAGE_KEYS, isId } from './wire';

/**
 * The rules core: the rules of a request the hot dispatch (hot-path.ts) and the stdio loop (stdio/loop.ts,
 * stdio/calls.ts) both apply, in one place and without the SDK (the loop answers before the SDK is loaded), so the
 * two differ only in their wire. Here: admission (is this a plain request of a hot row of server/methods.ts that the
 * SDK's schemas take as it is), the `tools/call` result check (plainly valid, or the SDK's codec checks it),
 * cancellation (`notifications/cancelled` aborting a request of the one in-flight table, in-flight.ts, and the
 * connection's close aborting them all), the four lists' shapes and one page of a list (the pager's answer,
 * list-pages.ts and the loop), and what a call of an unknown tool answers.
 * The opening's reading is initialize.ts's, which both call. What stays apart is the SDK's: the 2026-07-28
 * envelope's keys (hot-path.ts lifts them), the handler context, the codec.
 */

type Params = Readonly<Record<string, unknown>>;

/** A request the rules admitted: its id, its hot method, its params as they are. */
export interface HotRequest<M extends string = HotMethod> {
  readonly id: string | number;
  readonly method: M;
  readonly params?: Params;
  /** A 2026-07-28 request's envelope, lifted out of `params._meta` (hot-path.ts). */
  readonly envelope?: Params;
}

const RESERVED_PREFIX = 'io.modelcontextprotocol/';

/**
 * `params._meta` as `RequestMetaSchema` accepts it: no reserved key (task, related task ...) but, on a 2026-07-28
 * request, the envelope's (`envelopeKeys`, which the SDK's classifier validated before the request reached a server).
 */
function plainMeta(meta: unknown, envelopeKeys: ReadonlySet<string> | undefined): boolean {
  if (meta === undefined) return true;
  // An own `__proto__` key (JSON.parse makes one) would become a prototype when the envelope is lifted out.
  if (!isCopyableObject(meta)) return false;
  // `for...in` visits the own keys without making their list (a key an enumerable prototype added only refuses more).
  // An envelope key is looked up first: `startsWith` costs about ten times a set's `has` on such keys.
  for (const key in meta) if (!(envelopeKeys !== undefined && envelopeKeys.has(key)) && key.startsWith(RESERVED_PREFIX)) return false;
  return meta.progressToken === undefined || isId(meta.progressToken);
}

/** Only these keys, each of them optional (walked with `for...in`: no list of keys made per message). */
function onlyKeys(params: Params, allowed: ReadonlySet<string>): boolean {
  for (const key in params) if (!allowed.has(key)) return false;
  return true;
}

/** Each hot method's rule (params keys and check), from its row (server/methods.ts): one lookup per message. */
const RULES: ReadonlyMap<string, HotRule> = new Map(HOT_ROWS.map((row) => [row.method, row.hot]));

export function isHotMethod(method: unknown): method is HotMethod {
  return typeof method === 'string' && RULES.has(method);
}

/**
 * Admission: the request, when it is a hot row's and the SDK's schemas certainly accept it as it is; `undefined` for
 * anything else. `envelopeKeys`: the 2026-07-28 envelope's keys a `_meta` may hold (none on a 2025-era request).
 */
export function hotRequest(message: unknown, envelopeKeys?: ReadonlySet<string>): HotRequest | undefined {
  if (!isPlainObject(message) || typeof message.method !== 'string') return undefined;
  const rule = RULES.get(message.method);
  if (rule === undefined || message.jsonrpc !== '2.0' || !isId(message.id)) return undefined;
  if (!onlyKeys(message, MESSAGE_KEYS)) return undefined;
  const params = message.params;
  if (params !== undefined && !(isPlainObject(params) && onlyKeys(params, rule.keys) && plainMeta(params._meta, envelopeKeys)))
    return undefined;
  if (!rule.accepted(params)) return undefined;
  return { id: message.id, method: message.method as HotMethod, params };
}

/**
 * The 2025-era check of the last message checked, and that message: an HTTP session's request is checked by the era
 * classification, the legacy post and the hot dispatch in turn, one after the other in one tick, and the same parsed
 * object reaches all three. One slot rather than a `WeakMap` entry per message, which costs an allocation and a weak
 * reference for the collector to process per request; a message checked out of turn is simply checked again.
 */
let lastChecked: object | undefined;
let lastRequest: HotRequest | undefined;

/** {@link hotRequest} of a 2025-era message, each object checked once in a row. */
export function plainHotRequest(message: unknown): HotRequest | undefined {
  if (!isObjectLike(message)) return undefined;
  if (message !== lastChecked) {
    lastRequest = hotRequest(message);
    lastChecked = message;
  }
  return lastRequest;
}

/**
 * Whether `message` is a hot request the SDK's schemas accept as it is, with no 2026-07-28 envelope in its `_meta`
 * (so the SDK's era classification calls it 2025-era unless a header claims the modern revision).
 */
export function isPlainHotRequest(message: unknown): boolean {
  return plainHotRequest(message) !== undefined;
}

/** The keys a plainly valid `tools/call` result may have, in the order the schema writes them. */
const RESULT_KEYS = ['content', 'structuredContent', 'isError'] as const;

/** Whether the object's keys are some of {@link RESULT_KEYS}, in that order (walked without making their list). */
function inResultOrder(result: object): boolean {
  let next = 0;
  for (const key in result) {
    while (next < RESULT_KEYS.length && RESULT_KEYS[next] !== key) next++;
    if (next === RESULT_KEYS.length) return false;
    next++;
  }
  return true;
}

/** A text block: exactly `type` then `text`, a string. */
function isPlainTextBlock(block: unknown): boolean {
  if (!isPlainObject(block) || block.type !== 'text' || typeof block.text !== 'string') return false;
  let i = 0;
  for (const key in block) {
    if (key !== (i === 0 ? 'type' : 'text') || ++i > 2) return false;
  }
  return i === 2;
}

/**
 * The result check: a `tools/call` result the 2025-era schema passes through unchanged (text blocks, structured
 * content, `isError`); any other goes to the SDK codec's check.
 */
export function plainlyValidToolResult(result: unknown): boolean {
  if (!isPlainObject(result) || !Array.isArray(result.content)) return false;
  // The schema writes `content`, `structuredContent`, `isError` in this order; any other order or key goes to the SDK.
  if (!inResultOrder(result)) return false;
  if (result.isError !== undefined && typeof result.isError !== 'boolean') return false;
  if (result.structuredContent !== undefined && !isCopyableRecord(result.structuredContent)) return false;
  return (result.content as unknown[]).every(isPlainTextBlock);
}

const CANCELLED_KEYS: ReadonlySet<string> = new Set(['requestId', 'reason']);
const NOTIFICATION_KEYS: ReadonlySet<string> = new Set(['jsonrpc', 'method', 'params']);

/** A plain `notifications/cancelled` envelope: only `jsonrpc`, `method`, `params`, its params only `requestId` and `reason`. */
export function plainCancelled(message: Params): boolean {
  if (!onlyKeys(message, NOTIFICATION_KEYS)) return false;
  const params = message.params;
  return message.jsonrpc === '2.0' && isPlainObject(params) && onlyKeys(params, CANCELLED_KEYS);
}

/**
 * `notifications/cancelled`'s params: the request of `requestId` in `inFlight`, if any, aborted a microtask later
 * with `reason`, as the SDK's `_oncancel` aborts. `false` when the params are not a cancellation the SDK reads.
 */
export function cancelIn(inFlight: InFlight<LazyAbort>, params: unknown): boolean {
  if (!isPlainObject(params) || !isId(params.requestId) || (params.reason !== undefined && typeof params.reason !== 'string')) return false;
  const controller = inFlight.get(params.requestId);
  if (controller) void Promise.resolve().then(() => controller.abort(params.reason));
  return true;
}

/** The connection closed: every request in progress is aborted with `error` (the SDK's "Connection closed"). */
export function abortEvery(inFlight: InFlight<LazyAbort>, error: unknown): void {
  for (const controller of inFlight.takeAll()) controller.abort(error);
}

/**
 * One page of a list as both answer it: the pager's page of `items` from `cursor` (it throws for a cursor it did not
 * issue), as `{ [field]: items }` with `nextCursor` when more follow.
 */
export function pageOf<T>(
  pager: Pager,
  list: ListName,
  field: string,
  items: readonly T[],
  keyOf: (item: T) => string,
  cursor: unknown,
): Record<string, unknown> {
  const page = pager.page(list, items, keyOf, cursor);
  return page.nextCursor === undefined ? { [field]: page.items } : { [field]: page.items, nextCursor: page.nextCursor };
}

/** What a list method lists: the pager's list, the result's field, the kind of entry (for cache hints), its key. */
export interface ListShape<T> {
  readonly list: ListName;
  readonly field: string;
  readonly kind: CatalogKind;
  readonly keyOf: (item: T) => string;
}

type Named = { readonly name?: string };

/** The four lists, as both the handlers (tool-handlers.ts, text-method-handlers.ts) and the stdio loop answer them. */
export const LIST_SHAPES = Object.freeze({
  'tools/list': Object.freeze<ListShape<Named>>({ list: 'tools', field: 'tools', kind: 'tool', keyOf: (t) => t.name ?? '' }),
  'resources/list': Object.freeze<ListShape<{ readonly uri?: string }>>({
    list: 'resources',
    field: 'resources',
    kind: 'resource',
    keyOf: (r) => r.uri ?? '',
  }),
  'resources/templates/list': Object.freeze<ListShape<{ readonly uriTemplate?: string }>>({
    list: 'resourceTemplates',
    field: 'resourceTemplates',
    kind: 'resource',
    keyOf: (r) => r.uriTemplate ?? '',
  }),
  'prompts/list': Object.freeze<ListShape<Named>>({ list: 'prompts', field: 'prompts', kind: 'prompt', keyOf: (p) => p.name ?? '' }),
});

/** The message of a `tools/call` of an unknown tool (or one `auth.authorize` refuses), `-32602` on both paths. */
export function unknownToolMessage(name: string): string {
  return `Unknown tool: ${name.slice(0, 128)}`;
}
