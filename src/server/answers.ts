import type { ServerResponse } from 'node:http';

/** The body of a JSON-RPC error answer without an id (the request was refused before it was read as a message). */
function jsonRpcErrorText(code: number, message: string): string {
  return JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
}

/** A JSON-RPC error answer without an id (the request was refused before it was read as a message). */
export function jsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json' }).end(jsonRpcErrorText(code, message));
}

/**
 * The same answer as a web `Response`, for the steps that answer with one (auth/resource-server.ts, whose other
 * answers are the SDK's `Response`s); `headers` are added to the content type.
 */
export function jsonRpcErrorResponse(
  status: number,
  code: number,
  message: string,
  headers: Readonly<Record<string, string>> = {},
): Response {
  return new Response(jsonRpcErrorText(code, message), { status, headers: { 'content-type': 'application/json', ...headers } });
}
