import type { IncomingMessage } from 'node:http';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { JsonRpcCode } from '../sdk/lazy';

/**
 * What the era classification, the hot dispatch and the HTTP hot paths of both eras (`http/wire/era.ts`, `hot-path.ts`,
 * `http/legacy/legacy-posts.ts`, `http/modern/modern.ts`) all need to know about JSON-RPC messages and Node's requests.
 */

/** The keys a JSON-RPC request may have. */
export const MESSAGE_KEYS: ReadonlySet<string> = new Set(['jsonrpc', 'id', 'method', 'params']);

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

/**
 * The JSON-RPC error answer to what a request's handler threw: its code (internal error when it has none) as the
 * connection's codec writes it (`encodeCode`), its message and its data. The hot dispatch and the stdio loop both
 * answer this way, as the SDK's dispatch does.
 */
export function errorAnswerOf(id: string | number, error: unknown, encodeCode: (code: number) => number): JSONRPCMessage {
  const thrown = error as { code?: unknown; message?: unknown; data?: unknown };
  const code = Number.isSafeInteger(thrown.code) ? (thrown.code as number) : JsonRpcCode.InternalError;
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code: encodeCode(code),
      message: (thrown.message as string | undefined) ?? 'Internal error',
      ...(thrown.data !== undefined && { data: thrown.data }),
    },
  } as JSONRPCMessage;
}

function isNotFound(message: JSONRPCMessage): boolean {
  if (!('error' in message)) return false;
  const error = message.error as { code: number; message: string; data?: { uri?: unknown } };
  return error.code === JsonRpcCode.InvalidParams && error.message.startsWith('Resource not found') && typeof error.data?.uri === 'string';
}

/**
 * A reply as a 2025-era connection is sent it: before 2026-07-28 an unknown resource is -32002 (DESIGN.md section
 * 8), but the SDK's codecs write every resource-not-found as -32602, so the older code is written back.
 */
export function withLegacyNotFound(message: JSONRPCMessage): JSONRPCMessage {
  return isNotFound(message)
    ? ({ ...message, error: { ...(message as { error: object }).error, code: -32002 } } as JSONRPCMessage)
    : message;
}
