import { isCopyableObject } from '../objects';

/**
 * The MCP methods the server answers, one row each (docs/architecture.md, "Where to add: a method"): what the rooms
 * used to know each on their own. A row is data: the hot rule (the exact params keys and check of a request the hot
 * dispatch may answer below the SDK), the catalog item its params name, the eras it exists in, its telemetry target,
 * whether `Mcp-Param-*` headers apply, whether it pages, whether the stdio loop answers it, and which module
 * registers its handler. The ground of the server wing imports no room, so `handler` names the registration rather
 * than importing it.
 *
 * Readers, each precomputing what it needs once at module load (no lookup of the table per request):
 * protocol/rules.ts (`HotMethod`, the params keys and check: admission, for the hot dispatch and the stdio loop),
 * protocol/hot-path.ts (which hot rows are hot on 2026-07-28 too), protocol/catalog-server.ts (the paged methods'
 * cursor check), http/modern/modern.ts (the pool's methods, the `Mcp-Name` field), http/modern/param-headers.ts (which method
 * `Mcp-Param-*` checks), catalog/request-access.ts (the entry a request names, for scopes and `public`),
 * telemetry/telemetry.ts (the span's target), stdio/loop.ts (which requests the loop answers).
 * The rows and their parts are frozen; a hot rule's `keys` is a `Set`, which `Object.freeze` does not freeze, so it
 * is typed `ReadonlySet` and shared, never changed, by its readers.
 */

/** The two eras (glossary): the 2025-era revisions (`initialize`, sessions) and 2026-07-28 (the per-request envelope). */
export type Era = 'legacy' | 'modern';

/** The kind of catalog entry a request names (tool, prompt, resource or UI view, skill or skill file). */
export type NamedKind = 'tool' | 'prompt' | 'resource' | 'skill';

/**
 * The module that registers the method's handler on a connection's SDK `Server`: `sdk` is the SDK `Server`'s own
 * handler (the opening, `ping` when not hot, `logging/setLevel`, `server/discover`, `subscriptions/listen`).
 */
export type HandlerKey = 'sdk' | 'protocol/tool-handlers' | 'protocol/text-method-handlers' | 'protocol/skills' | 'tasks/handlers';

type Params = Readonly<Record<string, unknown>>;

/** How the hot dispatch (protocol/hot-path.ts) and the readers of hot requests take the method. */
export interface HotRule {
  /** The params keys the SDK's schema takes as they are (besides the shared `_meta` check), each optional. */
  readonly keys: ReadonlySet<string>;
  /** Whether the method's own params schema accepts `params` (on top of the shared checks). */
  readonly accepted: (params: Params | undefined) => boolean;
}

/** Which params field names which catalog entry; `'code'`: a rule of catalog/request-access.ts (it is not one field). */
export type Names = { readonly field: 'name' | 'uri'; readonly kind: NamedKind } | 'code';

/** What a request's span says of its target (telemetry/telemetry.ts): the params field and the attribute it fills. */
export interface TelemetryTarget {
  readonly field: 'name';
  readonly attribute: 'gen_ai.tool.name' | 'gen_ai.prompt.name';
  /** `gen_ai.operation.name`, when the method has one. */
  readonly operation?: 'execute_tool';
}

export interface MethodRow {
  readonly method: string;
  /** The eras it exists in: a hot method of the modern era is hot there too (the HTTP pool, `acceptedModern`). */
  readonly eras: readonly Era[];
  readonly handler: HandlerKey;
  /** Answered by the hot dispatch when plain (else by the SDK's own dispatch). */
  readonly hot?: HotRule;
  /**
   * The scopes and anonymous rule: the request needs the scopes of the entries it names, and a caller without a token
   * may send it when each of them is public (catalog/request-access.ts). None: it names no entry, needs no scope.
   */
  readonly names?: Names;
  readonly telemetry?: TelemetryTarget;
  /**
   * `Mcp-Param-*` headers (SEP-2243, 2026-07-28) are checked against its arguments, as the tool its `name` names
   * declares them (http/modern/param-headers.ts).
   */
  readonly paramHeaders?: true;
  /** It pages: a `cursor` that is not a string is invalid params (protocol/catalog-server.ts). */
  readonly paged?: true;
  /** Answered by the stdio loop itself, before the SDK is loaded, when plain (stdio/loop.ts); else it hands over. */
  readonly stdio?: true;
}

/** A record zod copies key by key: `__proto__` as an own key would become the copy's prototype instead. */
export function isCopyableRecord(value: unknown, values?: (v: unknown) => boolean): boolean {
  if (!isCopyableObject(value)) return false;
  return values === undefined || Object.values(value).every(values);
}

const BOTH: readonly Era[] = Object.freeze(['legacy', 'modern']);
const LEGACY: readonly Era[] = Object.freeze(['legacy']);
const MODERN: readonly Era[] = Object.freeze(['modern']);

const LIST_KEYS: ReadonlySet<string> = new Set(['_meta', 'cursor']);

/** A list's params: at most a string cursor (besides `_meta`). */
const listAccepted = (p: Params | undefined) => p?.cursor === undefined || typeof p.cursor === 'string';

const LIST_RULE: HotRule = Object.freeze({ keys: LIST_KEYS, accepted: listAccepted });

const ROWS = [
  { method: 'initialize', eras: LEGACY, handler: 'sdk', stdio: true },
  // 2026-07-28 has no `ping` (the SDK's registry of the revision lacks it).
  { method: 'ping', eras: LEGACY, handler: 'sdk', hot: { keys: new Set(['_meta']), accepted: () => true }, stdio: true },
  { method: 'tools/list', eras: BOTH, handler: 'protocol/tool-handlers', hot: LIST_RULE, paged: true, stdio: true },
  {
    method: 'tools/call',
    eras: BOTH,
    handler: 'protocol/tool-handlers',
    hot: {
      keys: new Set(['_meta', 'name', 'arguments']),
      accepted: (p) => typeof p?.name === 'string' && (p.arguments === undefined || isCopyableRecord(p.arguments)),
    },
    names: { field: 'name', kind: 'tool' },
    telemetry: { field: 'name', attribute: 'gen_ai.tool.name', operation: 'execute_tool' },
    paramHeaders: true,
    stdio: true,
  },
  { method: 'resources/list', eras: BOTH, handler: 'protocol/text-method-handlers', hot: LIST_RULE, paged: true, stdio: true },
  { method: 'resources/templates/list', eras: BOTH, handler: 'protocol/text-method-handlers', hot: LIST_RULE, paged: true, stdio: true },
  {
    method: 'resources/read',
    eras: BOTH,
    handler: 'protocol/text-method-handlers',
    hot: { keys: new Set(['_meta', 'uri']), accepted: (p) => typeof p?.uri === 'string' },
    names: { field: 'uri', kind: 'resource' },
  },
  { method: 'resources/subscribe', eras: LEGACY, handler: 'protocol/text-method-handlers', names: { field: 'uri', kind: 'resource' } },
  { method: 'resources/unsubscribe', eras: LEGACY, handler: 'protocol/text-method-handlers' },
  { method: 'prompts/list', eras: BOTH, handler: 'protocol/text-method-handlers', hot: LIST_RULE, paged: true, stdio: true },
  {
    method: 'prompts/get',
    eras: BOTH,
    handler: 'protocol/text-method-handlers',
    hot: {
      keys: new Set(['_meta', 'name', 'arguments']),
      accepted: (p) =>
        typeof p?.name === 'string' && (p.arguments === undefined || isCopyableRecord(p.arguments, (v) => typeof v === 'string')),
    },
    names: { field: 'name', kind: 'prompt' },
    telemetry: { field: 'name', attribute: 'gen_ai.prompt.name' },
  },
  // The prompt or resource template its `ref` names (catalog/request-access.ts).
  { method: 'completion/complete', eras: BOTH, handler: 'protocol/text-method-handlers', names: 'code' },
  { method: 'logging/setLevel', eras: LEGACY, handler: 'sdk' },
  { method: 'tasks/get', eras: BOTH, handler: 'tasks/handlers' },
  { method: 'tasks/cancel', eras: BOTH, handler: 'tasks/handlers' },
  { method: 'tasks/update', eras: MODERN, handler: 'tasks/handlers' },
  { method: 'tasks/result', eras: LEGACY, handler: 'tasks/handlers' },
  { method: 'tasks/list', eras: LEGACY, handler: 'tasks/handlers', paged: true },
  { method: 'skills/list', eras: BOTH, handler: 'protocol/skills' },
  { method: 'skills/get', eras: BOTH, handler: 'protocol/skills', names: { field: 'uri', kind: 'skill' } },
  { method: 'resources/directory/read', eras: BOTH, handler: 'protocol/skills', names: { field: 'uri', kind: 'skill' } },
  { method: 'server/discover', eras: MODERN, handler: 'sdk' },
  // Every resource its `notifications.resourceSubscriptions` lists (catalog/request-access.ts).
  { method: 'subscriptions/listen', eras: MODERN, handler: 'sdk', names: 'code' },
] as const satisfies readonly MethodRow[];

/** The row and its parts frozen (`Object.freeze` leaves a missing part, or the string `'code'`, as it is). */
function frozen(row: MethodRow): MethodRow {
  [row.hot, row.names, row.telemetry].forEach(Object.freeze);
  return Object.freeze(row);
}

/** Every method the server answers, one frozen row each. */
export const METHODS: readonly MethodRow[] = Object.freeze(ROWS.map(frozen));

/** A row with a hot rule. */
export type HotRow = MethodRow & { readonly hot: HotRule };

/** The methods the hot dispatch answers: the rows with a `hot` rule. */
export type HotMethod = Extract<(typeof ROWS)[number], { readonly hot: HotRule }>['method'];

/** The rows the hot dispatch answers, in the table's order. */
export const HOT_ROWS: readonly (HotRow & { readonly method: HotMethod })[] = Object.freeze(
  METHODS.filter((row): row is HotRow & { method: HotMethod } => row.hot !== undefined),
);

/** Each hot method's rule, by method. */
export const HOT_RULES: Readonly<Record<HotMethod, HotRule>> = Object.freeze(
  Object.fromEntries(HOT_ROWS.map((row) => [row.method, row.hot])) as Record<HotMethod, HotRule>,
);

/** Whether a row is hot on 2026-07-28 requests too: a hot rule and the modern era. */
export const isModernHot = (row: MethodRow): boolean => row.hot !== undefined && row.eras.includes('modern');

/** The methods of the rows `which` picks, as a set made once. */
export function methodsWhere(which: (row: MethodRow) => boolean): ReadonlySet<string> {
  return new Set(METHODS.filter(which).map((row) => row.method));
}
