import { SERVER_INFO_META_KEY } from '@modelcontextprotocol/server';
import { isPlainObject } from '../../../objects';

/**
 * The JSON text of a reply, as `JSON.stringify` writes it, byte for byte. The usual `tools/call` answer (text blocks
 * only, as the hot path encodes it: `result`, `jsonrpc`, `id`; on 2026-07-28 the result also has the codec's
 * `resultType` and the server info in `_meta`, sdk/server.ts `modernToolResult`) is written from its parts:
 * `JSON.stringify` walks even so small a message in its general C++ path, which costs several times more. Anything
 * else, or anything that `JSON.stringify` would treat otherwise (another key or order, a `toJSON`, a non-finite id),
 * goes to `JSON.stringify`.
 */
export function jsonTextOf(message: object): string {
  const m = message as { readonly result?: unknown; readonly jsonrpc?: unknown; readonly id?: unknown };
  const id = idText(m.id);
  const result = id === undefined || m.jsonrpc !== '2.0' || !keysAre(message, REPLY_KEYS) ? undefined : resultTextOf(m.result);
  return result === undefined ? JSON.stringify(message) : `{"result":${result},"jsonrpc":"2.0","id":${id}}`;
}

const REPLY_KEYS = ['result', 'jsonrpc', 'id'] as const;
/** A result's keys: `content` alone (2025), or followed by the 2026-07-28 codec's two. */
const RESULT_KEYS = ['content', 'resultType', '_meta'] as const;
const META_KEYS = [SERVER_INFO_META_KEY] as const;
const BLOCK_KEYS = ['type', 'text'] as const;

/** The id as JSON writes it: a finite number or a string; `undefined` for anything else. */
function idText(id: unknown): string | undefined {
  if (typeof id === 'number') return Number.isFinite(id) ? String(id) : undefined;
  return typeof id === 'string' ? JSON.stringify(id) : undefined;
}

/** Whether `value` is a plain object, without `toJSON`, whose own enumerable keys are exactly `keys`, in order. */
function keysAre(value: unknown, keys: readonly string[]): boolean {
  return keyCount(value, keys) === keys.length;
}

/** How many keys of `value` (a plain object without `toJSON`) are `keys`' first ones, in order; -1 past them. */
function keyCount(value: unknown, keys: readonly string[]): number {
  if (!isPlainObject(value) || 'toJSON' in value) return -1;
  let i = 0;
  for (const key in value) if (key !== keys[i++]) return -1;
  return i;
}

/**
 * A result of text blocks written as JSON: `{ content }`, or `{ content, resultType: 'complete', _meta }` with the
 * server info alone in `_meta`; `undefined` otherwise.
 */
function resultTextOf(result: unknown): string | undefined {
  const count = keyCount(result, RESULT_KEYS);
  if (count !== 1 && count !== RESULT_KEYS.length) return undefined;
  const fields = result as { readonly content?: unknown; readonly resultType?: unknown; readonly _meta?: unknown };
  const blocks = textBlocksOf(fields.content);
  if (blocks === undefined) return undefined;
  if (count === 1) return `{"content":[${blocks}]}`;
  const meta = fields._meta as Readonly<Record<string, unknown>> | undefined;
  const tail = fields.resultType === 'complete' && keysAre(meta, META_KEYS) ? modernTail(meta![SERVER_INFO_META_KEY]) : undefined;
  return tail === undefined ? undefined : `{"content":[${blocks}${tail}`;
}

/** The blocks of a `content` of text blocks only, written as JSON; `undefined` otherwise. */
function textBlocksOf(content: unknown): string | undefined {
  if (!Array.isArray(content) || Object.getPrototypeOf(content) !== Array.prototype || 'toJSON' in content) return undefined;
  let text = '';
  for (let i = 0; i < content.length; i++) {
    const block = content[i] as { readonly type?: unknown; readonly text?: unknown } | undefined;
    if (!keysAre(block, BLOCK_KEYS) || block!.type !== 'text' || typeof block!.text !== 'string') return undefined;
    text += `${i === 0 ? '' : ','}{"type":"text","text":${JSON.stringify(block!.text)}}`;
  }
  return text;
}

/** A server info written once, with what it was written from: its own keys and their string values, in order. */
interface WrittenInfo {
  readonly info: object;
  readonly keys: readonly string[];
  readonly values: readonly string[];
  /** What follows a 2026-07-28 result's blocks: `],"resultType":"complete","_meta":{…:<info>}}`. */
  readonly tail: string;
}

/**
 * The last server info written. A pool's servers answer with one server info object, whose text is then written
 * once rather than per reply: a reply takes it only while the object is the same and still has the same own keys
 * with the same string values in the same order, which is all that its JSON depends on.
 */
let lastInfo: WrittenInfo | undefined;

/** What follows a result's blocks for this server info (a plain object of own string values only); else `undefined`. */
function modernTail(info: unknown): string | undefined {
  if (!isPlainObject(info) || 'toJSON' in info) return undefined;
  const last = lastInfo;
  if (last !== undefined && last.info === info && sameStrings(info, last)) return last.tail;
  const keys: string[] = [];
  const values: string[] = [];
  let text = '';
  for (const key in info) {
    const value = info[key];
    if (!Object.prototype.hasOwnProperty.call(info, key) || typeof value !== 'string') return undefined;
    text += `${keys.length === 0 ? '' : ','}${JSON.stringify(key)}:${JSON.stringify(value)}`;
    keys.push(key);
    values.push(value);
  }
  const tail = `],"resultType":"complete","_meta":{${JSON.stringify(SERVER_INFO_META_KEY)}:{${text}}}}`;
  lastInfo = { info, keys, values, tail };
  return tail;
}

/** Whether the object's own enumerable keys and their values are still those written. */
function sameStrings(info: Readonly<Record<string, unknown>>, written: WrittenInfo): boolean {
  let i = 0;
  // `hasOwnProperty` of the key `for...in` gives is answered from the loop's cache; `Object.hasOwn` is a call.
  for (const key in info) {
    if (key !== written.keys[i] || info[key] !== written.values[i] || !Object.prototype.hasOwnProperty.call(info, key)) return false;
    i++;
  }
  return i === written.keys.length;
}
