import { send, type Reply } from './raw-http';

/** A raw 2026-07-28 request over HTTP, as the v2 client sends one, and its answer read back. */

export const MODERN = '2026-07-28';

export interface ModernOptions {
  readonly token?: string;
  readonly capabilities?: Record<string, unknown>;
  readonly id?: number;
  /** More headers (Host, Origin, `Mcp-Param-*` ...), sent after and over the ones built here. */
  readonly headers?: Record<string, string>;
}

/** Sends one 2026-07-28 request (`_meta` envelope, `Mcp-*` headers, a bearer token when given). */
export function modernRequest(url: string, method: string, params: Record<string, unknown>, options: ModernOptions = {}): Promise<Reply> {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': options.capabilities ?? {},
  };
  const named = params.name ?? params.uri ?? params.taskId;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': MODERN,
    'mcp-method': method,
    ...(typeof named === 'string' && { 'mcp-name': named }),
    ...(options.token !== undefined && { authorization: `Bearer ${options.token}` }),
    ...options.headers,
  };
  return send(url, 'POST', headers, JSON.stringify({ jsonrpc: '2.0', id: options.id ?? 1, method, params: { ...params, _meta: meta } }));
}

/** The JSON-RPC answer of a reply, whether it came as JSON or as one SSE event. */
export function answerOf(reply: Reply): { result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } } {
  const text = String(reply.headers['content-type']).startsWith('text/event-stream')
    ? reply.body
        .split('\n')
        .find((l) => l.startsWith('data: '))!
        .slice(6)
    : reply.body;
  return JSON.parse(text) as never;
}
