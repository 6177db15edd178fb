import type { IncomingMessage } from 'node:http';

/**
 * What the era classification, the hot path and the HTTP hot paths of both eras (`http/era.ts`, `hot-path.ts`,
 * `http/legacy-posts.ts`, `http/modern.ts`) all need to know about JSON-RPC messages and Node's requests.
 */

/** The keys a JSON-RPC request may have. */
export const MESSAGE_KEYS: ReadonlySet<string> = new Set(['jsonrpc', 'id', 'method', 'params']);

export { isCopyableObject, isPlainObject } from '../../objects';

/** A JSON-RPC request id as the SDK's schema takes it: a string or an integer. */
export const isId = (value: unknown): value is string | number => typeof value === 'string' || Number.isSafeInteger(value);

/** A request header as one string, as a web `Headers` would give it (repeated values joined). */
export function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The headers of an SSE response, as the SDK's transports write them. */
export const SSE_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};
