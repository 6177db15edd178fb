/**
 * Deepest nesting of objects and arrays a request body may have. JSON-RPC messages need a few levels; tool
 * arguments rarely need more than a few dozen. Far deeper values break the recursion of whatever handles
 * them next (`JSON.stringify` overflows its stack a few thousand levels down), so they are refused up front.
 */
import { isObjectLike } from '../../../objects';
export const MAX_BODY_DEPTH = 1000;

/** The message of the 400 answer to a body nested deeper than {@link MAX_BODY_DEPTH}. */
export const TOO_DEEP = `Bad Request: the request body nests objects and arrays more than ${MAX_BODY_DEPTH} levels deep.`;

/**
 * Whether JSON text has at most `max` brackets that open an object or array, strings included: then it cannot nest
 * deeper than `max`. Counted with `indexOf`, far cheaper than the scan below, and true for almost every body.
 */
function fewOpeners(text: string, max: number): boolean {
  let count = 0;
  for (const opener of ['{', '[']) {
    for (let at = text.indexOf(opener); at !== -1; at = text.indexOf(opener, at + 1)) if (++count > max) return false;
  }
  return true;
}

/** Whether JSON text nests objects and arrays deeper than `max` (strings skipped, escapes honoured). */
export function textNestsDeeperThan(text: string, max: number): boolean {
  if (text.length <= max || fewOpeners(text, max)) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** Whether a parsed value (a framework's parsed body) nests deeper than `max`, walked without recursion. */
export function valueNestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (!isObjectLike(v)) continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}
