import { MESSAGE_KEYS, isId } from './wire';
import { isCopyableObject, isPlainObject } from '../../objects';

/**
 * `initialize` and `notifications/initialized` read by hand, as the SDK's 2025-era zod schemas read them.
 *
 * The first message the SDK validates builds its whole 2025-era schema set (every request, result and notification
 * schema of the revision, some 20 ms of a stdio server's cold start, the same for a McpServer). A connection whose
 * requests the hot path answers would otherwise build it for its first two messages only. Here those two are read
 * without it, under the same rule as the hot requests: a message is taken only when the hand reading certainly
 * gives what the schema gives (anything unusual goes to the SDK, which reads it as before), and what it gives is
 * built the way zod builds it: `z.object` keeps only its own keys, in the order of its shape; a record is copied
 * key by key; an empty `elicitation` capability means `{ form: {} }`.
 */

type Json = Readonly<Record<string, unknown>>;

/** What the SDK's `InitializeRequestSchema` makes of an accepted request (its handler reads `params`). */
export interface InitializeRequest {
  readonly id: string | number;
  readonly method: 'initialize';
  readonly params: { readonly protocolVersion: string; readonly capabilities: Json; readonly clientInfo: Json };
}

/** Deepest JSON value read by hand; deeper ones go to the SDK. */
const MAX_DEPTH = 32;

/** Stands for "not certainly what the schema gives": the message goes to the SDK. */
const UNSURE = Symbol('unsure');
type Read<T> = T | typeof UNSURE;

/** A JSON value as zod's `JSONValueSchema` reads it: a copy, or UNSURE for anything zod might read otherwise. */
function jsonValue(value: unknown, depth: number): Read<unknown> {
  if (typeof value === 'string' || typeof value === 'boolean' || value === null) return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : UNSURE;
  if (depth >= MAX_DEPTH) return UNSURE;
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    for (let i = 0; i < value.length; i++) {
      if (!(i in value)) return UNSURE;
      const item = jsonValue(value[i], depth + 1);
      if (item === UNSURE) return UNSURE;
      copy.push(item);
    }
    return copy;
  }
  return jsonObject(value, depth);
}

/** A JSON object (zod's `JSONObjectSchema`, a record of JSON values) copied key by key. */
function jsonObject(value: unknown, depth: number): Read<Json> {
  // An own `__proto__` key would become the copy's prototype.
  if (!isCopyableObject(value)) return UNSURE;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = jsonValue(value[key], depth + 1);
    if (item === UNSURE) return UNSURE;
    copy[key] = item;
  }
  return copy;
}

/** A record of JSON objects (`experimental`, `extensions`). */
function recordOfObjects(value: unknown): Read<Json> {
  if (!isCopyableObject(value)) return UNSURE;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = jsonObject(value[key], 1);
    if (item === UNSURE) return UNSURE;
    copy[key] = item;
  }
  return copy;
}

/**
 * A `z.object` of optional members: only `shape`'s keys, in the shape's order, each read by its reader. An
 * unknown key is dropped, as zod drops it; `undefined` (which JSON cannot carry) goes to the SDK.
 */
function object(value: unknown, shape: Readonly<Record<string, (member: unknown) => Read<unknown>>>): Read<Json> {
  if (!isPlainObject(value)) return UNSURE;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(shape)) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    const member = value[key];
    if (member === undefined) return UNSURE;
    const read = shape[key](member);
    if (read === UNSURE) return UNSURE;
    out[key] = read;
  }
  return out;
}

const string = (value: unknown): Read<string> => (typeof value === 'string' ? value : UNSURE);
const boolean = (value: unknown): Read<boolean> => (typeof value === 'boolean' ? value : UNSURE);
const anyJsonObject = (value: unknown) => jsonObject(value, 1);

/**
 * The `elicitation` capability: `{}` means the form mode, as the schema's preprocessing says. Otherwise only the
 * usual shapes (`form` with at most `applyDefaults`, `url` with JSON, in that order) are read by hand: zod merges
 * the schema's intersection in an order not worth copying for what no client sends.
 */
function elicitation(value: unknown): Read<Json> {
  if (!isPlainObject(value)) return UNSURE;
  const keys = Object.keys(value);
  if (keys.length === 0) return { form: {} };
  const order = keys.join();
  if (order !== 'form' && order !== 'url' && order !== 'form,url') return UNSURE;
  return object(value, {
    form: (form) =>
      isPlainObject(form) && Object.keys(form).every((k) => k === 'applyDefaults') ? object(form, { applyDefaults: boolean }) : UNSURE,
    url: anyJsonObject,
  });
}

/** `ClientCapabilitiesSchema`; the deprecated `tasks` capability goes to the SDK. */
function capabilities(value: unknown): Read<Json> {
  return object(value, {
    experimental: recordOfObjects,
    sampling: (sampling) => object(sampling, { context: anyJsonObject, tools: anyJsonObject }),
    elicitation,
    roots: (roots) => object(roots, { listChanged: boolean }),
    tasks: () => UNSURE,
    extensions: recordOfObjects,
  });
}

/** `ImplementationSchema` (the client's name and version); icons go to the SDK. */
function clientInfo(value: unknown): Read<Json> {
  // `object` reads every member as optional; these two the schema requires.
  if (!isPlainObject(value) || typeof value.name !== 'string' || typeof value.version !== 'string') return UNSURE;
  return object(value, { name: string, title: string, icons: () => UNSURE, version: string, websiteUrl: string, description: string });
}

const INITIALIZE_KEYS: ReadonlySet<string> = new Set(['protocolVersion', 'capabilities', 'clientInfo']);

/** An `initialize` request as the SDK's schema reads it, when it certainly reads it so; else `undefined`. */
export function readInitialize(message: unknown): InitializeRequest | undefined {
  if (!isPlainObject(message) || message.method !== 'initialize' || message.jsonrpc !== '2.0' || !isId(message.id)) return undefined;
  for (const key of Object.keys(message)) if (!MESSAGE_KEYS.has(key)) return undefined;
  const params = message.params;
  // `_meta` (rare here) is left to the SDK, with anything else unusual.
  if (!isPlainObject(params) || Object.keys(params).some((key) => !INITIALIZE_KEYS.has(key))) return undefined;
  if (typeof params.protocolVersion !== 'string') return undefined;
  const caps = capabilities(params.capabilities);
  const info = clientInfo(params.clientInfo);
  if (caps === UNSURE || info === UNSURE) return undefined;
  return {
    id: message.id,
    method: 'initialize',
    params: { protocolVersion: params.protocolVersion, capabilities: caps, clientInfo: info },
  };
}

/** Whether a message is a `notifications/initialized` the SDK's schema accepts as it is (no params, or empty ones). */
export function isPlainInitialized(message: unknown): boolean {
  if (!isPlainObject(message) || message.method !== 'notifications/initialized' || message.jsonrpc !== '2.0') return false;
  for (const key of Object.keys(message)) if (key !== 'jsonrpc' && key !== 'method' && key !== 'params') return false;
  const params = message.params;
  return params === undefined || (isPlainObject(params) && Object.keys(params).length === 0);
}
