import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_MAX_REQUEST_BODY_SIZE, createMcpHandler, isLegacyRequest, type Server } from '@modelcontextprotocol/server';
import { localhostHostValidation, localhostOriginValidation, toNodeHandler, toWebRequest } from '@modelcontextprotocol/node';
import { SessionTable } from './sessions';

/**
 * Streamable HTTP for both eras on one endpoint: 2026-07-28 requests (they carry the `_meta` envelope) go
 * to the SDK's stateless per-request handler; 2025-era requests get a session each (`Mcp-Session-Id`), so
 * progress, cancellation, logging, sampling and elicitation work for them.
 */

/** Options of `server.serveHttp()`. */
export interface ServeHttpOptions {
  /** Default `127.0.0.1`. On a loopback address, Host and Origin headers are checked (DNS rebinding). */
  readonly host?: string;
  /** Default `3000`; `0` picks a free port (see the resolved address). */
  readonly port?: number;
  /** Default `/mcp`. */
  readonly path?: string;
  /** Largest accepted request body in bytes; default 4 MiB. Larger bodies are answered 413. */
  readonly maxRequestBodySize?: number;
  /** Most 2025-era sessions open at once; an `initialize` beyond it is answered 503. Default 1,000. */
  readonly maxSessions?: number;
  /** A 2025-era session with no request for this long (and no open stream) is closed. Default 30 minutes. */
  readonly sessionIdleTimeoutMs?: number;
}

/** Where `serveHttp()` listens. */
export interface HttpAddress {
  readonly host: string;
  readonly port: number;
  /** The endpoint, such as `http://127.0.0.1:3000/mcp`. */
  readonly url: string;
}

export interface HttpEndpoint extends HttpAddress {
  close(): Promise<void>;
}

const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|::1|\[::1\])$/;

function jsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/** Reads a POST body up to `limit` bytes; `undefined` after answering 413 or 400 itself. */
async function readJson(req: IncomingMessage, res: ServerResponse, limit: number): Promise<{ body: unknown } | undefined> {
  const tooLarge = () => {
    res.setHeader('connection', 'close');
    jsonRpcError(res, 413, -32000, `Payload Too Large: the request body must not exceed ${limit} bytes.`);
    req.resume();
    return undefined;
  };
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) return tooLarge();
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return { body: JSON.parse(text) };
  } catch {
    jsonRpcError(res, 400, -32700, 'Parse error: the request body is not valid JSON.');
    return undefined;
  }
}

function opensSession(body: unknown): boolean {
  const isInit = (m: unknown) => typeof m === 'object' && m !== null && (m as { method?: unknown }).method === 'initialize';
  return Array.isArray(body) ? body.some(isInit) : isInit(body);
}

/** Options of a handler mounted in someone else's HTTP server (`server.createHttpHandler()`). */
export interface HttpHandlerOptions {
  /** Answer only this path (404 otherwise); leave it out when the framework routes by path itself. */
  readonly path?: string;
  /** Largest accepted request body in bytes; default 4 MiB. */
  readonly maxRequestBodySize?: number;
  /** Check Host and Origin against loopback names (DNS-rebinding protection); default true. */
  readonly validateHost?: boolean;
  /** Most 2025-era sessions open at once; an `initialize` beyond it is answered 503. Default 1,000. */
  readonly maxSessions?: number;
  /** A 2025-era session with no request for this long (and no open stream) is closed. Default 30 minutes. */
  readonly sessionIdleTimeoutMs?: number;
}

/** A Node request handler for the MCP endpoint, in both eras. */
export interface HttpHandler {
  /**
   * Answers one request. Pass `parsed` when a framework already read the body (Express's or Nest's JSON
   * body parser); otherwise the body is read here, within the size limit.
   */
  handle(req: IncomingMessage, res: ServerResponse, parsed?: { readonly body: unknown }): Promise<void>;
  /** Closes every session and the stateless handler. */
  close(): Promise<void>;
}

/** The endpoint's request handling; `factory` makes one SDK `Server` per modern request or legacy session. */
export function createHttpHandler(factory: () => Server, options: HttpHandlerOptions = {}): HttpHandler {
  const path = options.path;
  const limit = options.maxRequestBodySize ?? DEFAULT_MAX_REQUEST_BODY_SIZE;
  const modernHandler = createMcpHandler(() => factory(), { legacy: 'reject', maxRequestBodySize: limit });
  const modern = toNodeHandler(modernHandler, { maxRequestBodySize: limit });
  const sessions = new SessionTable(factory, {
    maxSessions: options.maxSessions,
    idleTimeoutMs: options.sessionIdleTimeoutMs,
    maxRequestBodySize: limit,
  });
  const guarded = options.validateHost ?? true;
  const validHost = localhostHostValidation();
  const validOrigin = localhostOriginValidation();

  async function legacy(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const sid = req.headers['mcp-session-id'];
    let session = typeof sid === 'string' ? sessions.get(sid) : undefined;
    if (!session) {
      if (sid !== undefined) return jsonRpcError(res, 404, -32001, 'Session not found');
      if (req.method !== 'POST' || !opensSession(body)) return jsonRpcError(res, 400, -32000, 'Bad Request: no valid Mcp-Session-Id header.');
      if (sessions.isFull) {
        res.setHeader('retry-after', '60');
        return jsonRpcError(res, 503, -32000, 'Service Unavailable: too many open sessions; close one (DELETE) or try again later.');
      }
      session = await sessions.open();
    }
    return sessions.handle(session, req, res, body);
  }

  async function handle(req: IncomingMessage, res: ServerResponse, parsed?: { readonly body: unknown }): Promise<void> {
    if (path !== undefined && new URL(req.url ?? '/', 'http://localhost').pathname !== path) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
      return;
    }
    if (guarded && (!validHost(req, res) || !validOrigin(req, res))) return; // 403 already written
    let body: unknown = parsed?.body;
    if (req.method === 'POST' && !parsed) {
      const read = await readJson(req, res, limit);
      if (!read) return;
      body = read.body;
    }
    if (await isLegacyRequest(await toWebRequest(req, body), body, { maxRequestBodySize: limit })) return legacy(req, res, body);
    return modern(req, res, body);
  }

  return {
    handle: (req, res, parsed) => handle(req, res, parsed).catch(() => jsonRpcError(res, 500, -32603, 'Internal error')),
    async close() {
      await modernHandler.close();
      await sessions.closeAll();
    },
  };
}

/** Starts the endpoint on its own Node HTTP server. */
/**
 * What a failed `listen` means, in one line a person can act on (issue 11: a newcomer got an
 * `EADDRINUSE` stack). The system error stays as `cause`, its `code` is kept.
 */
function listenError(error: unknown, host: string, port: number): Error {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const message =
    code === 'EADDRINUSE'
      ? `Port ${port} on ${host} is already in use: stop the other server, or choose another port (port 0 picks a free one).`
      : code === 'EACCES'
        ? `Port ${port} on ${host} needs privileges this process does not have: choose a port above 1023.`
        : code === 'EADDRNOTAVAIL'
          ? `The address ${host} is not an address of this machine: use 127.0.0.1, or 0.0.0.0 for every interface.`
          : undefined;
  if (message === undefined) return error instanceof Error ? error : new Error(String(error));
  return Object.assign(new Error(message, { cause: error }), { code });
}

export async function startHttp(factory: () => Server, options: ServeHttpOptions = {}): Promise<HttpEndpoint> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  const handler = createHttpHandler(factory, {
    path,
    maxRequestBodySize: options.maxRequestBodySize,
    maxSessions: options.maxSessions,
    sessionIdleTimeoutMs: options.sessionIdleTimeoutMs,
    validateHost: LOOPBACK.test(host),
  });
  const http: HttpServer = createServer((req, res) => void handler.handle(req, res));
  const port = options.port ?? 3000;
  try {
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(port, host, () => {
        http.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await handler.close();
    throw listenError(error, host, port);
  }
  const address = http.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    host: address.address,
    port: address.port,
    url: `http://${shown}:${address.port}${path}`,
    async close() {
      await handler.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
