import { isPlainObject } from '../../objects';

/**
 * The JSON text of a reply, as `JSON.stringify` writes it, byte for byte. The usual `tools/call` answer (text blocks
 * only, as the hot path encodes it: `result`, `jsonrpc`, `id`) is written from its parts: `JSON.stringify` walks
 * even so small a message in its general C++ path, which costs several times more. Anything else, or anything that
 * `JSON.stringify` would treat otherwise (another key or order, a `toJSON`, a non-finite id), goes to `JSON.stringify`.
 */
export function jsonTextOf(message: object): string {
  const m = message as { readonly result?: unknown; readonly jsonrpc?: unknown; readonly id?: unknown };
  const id = idText(m.id);
  const blocks = id === undefined || m.jsonrpc !== '2.0' || !keysAre(message, REPLY_KEYS) ? undefined : textBlocksOf(m.result);
  return blocks === undefined ? JSON.stringify(message) : `{"result":{"content":[${blocks}]},"jsonrpc":"2.0","id":${id}}`;
}

const REPLY_KEYS = ['result', 'jsonrpc', 'id'] as const;
const RESULT_KEYS = ['content'] as const;
const BLOCK_KEYS = ['type', 'text'] as const;

/** The id as JSON writes it: a finite number or a string; `undefined` for anything else. */
function idText(id: unknown): string | undefined {
  if (typeof id === 'number') return Number.isFinite(id) ? String(id) : undefined;
  return typeof id === 'string' ? JSON.stringify(id) : undefined;
}

/** Whether `value` is a plain object, without `toJSON`, whose own enumerable keys are exactly `keys`, in order. */
function keysAre(value: unknown, keys: readonly string[]): boolean {
  if (!isPlainObject(value) || 'toJSON' in value) return false;
  let i = 0;
  for (const key in value) if (key !== keys[i++]) return false;
  return i === keys.length;
}

/** The blocks of a result that is `{ content }` with text blocks only, written as JSON; `undefined` otherwise. */
function textBlocksOf(result: unknown): string | undefined {
  if (!keysAre(result, RESULT_KEYS)) return undefined;
  const content = (result as { readonly content?: unknown }).content;
  if (!Array.isArray(content) || Object.getPrototypeOf(content) !== Array.prototype || 'toJSON' in content) return undefined;
  let text = '';
  for (let i = 0; i < content.length; i++) {
    const block = content[i] as { readonly type?: unknown; readonly text?: unknown } | undefined;
    if (!keysAre(block, BLOCK_KEYS) || block!.type !== 'text' || typeof block!.text !== 'string') return undefined;
    text += `${i === 0 ? '' : ','}{"type":"text","text":${JSON.stringify(block!.text)}}`;
  }
  return text;
}
