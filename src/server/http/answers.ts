import type { ServerResponse } from 'node:http';

/** A JSON-RPC error answer without an id (the request was refused before it was read as a message). */
export function jsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
