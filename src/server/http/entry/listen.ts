import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { asError } from '../../../errors';
import { Log } from '../../../log';
import { capConnectionsPerAddress, checkingIntervalOf, connectionBounds } from '../guards/connection-bounds';
import { createHttpHandler } from './handler';
import { healthResponder } from './lifecycle';
import {
  NO_RULES,
  type HttpHandler,
  type HttpServing,
  type ListeningEndpoint,
  type MemberRules,
  type ServeHttpOptions,
} from '../guards/options';

const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|::1|\[::1\])$/;

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
  if (message === undefined) return asError(error);
  // eslint-disable-next-line no-restricted-syntax -- its `code` is Node's (EADDRINUSE ...), not ours (src/errors.ts)
  return Object.assign(new Error(message, { cause: error }), { code });
}

/** Listens on `host` and `port`; the bound address, or the failure in words (see {@link listenError}). */
async function listen(http: HttpServer, host: string, port: number): Promise<AddressInfo> {
  await new Promise<void>((resolve, reject) => {
    http.once('error', (error) => reject(listenError(error, host, port)));
    http.listen(port, host, () => {
      http.removeAllListeners('error');
      resolve();
    });
  });
  return http.address() as AddressInfo;
}

function closeServer(http: HttpServer): Promise<void> {
  return new Promise<void>((resolve) => http.close(() => resolve()));
}

/** The endpoint's URL, such as `http://127.0.0.1:3000/mcp` (an IPv6 address in brackets). */
function urlOf(address: AddressInfo, path: string): string {
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${shown}:${address.port}${path}`;
}

function warnIfOpen(host: string, url: string, options: ServeHttpOptions, log: Log): void {
  if (LOOPBACK.test(host) || options.auth) return;
  log.warn(
    `The MCP endpoint listens on ${host}, beyond loopback, without auth: anyone who reaches ${url} can call every tool. ` +
      'Give serveHttp({ auth }) unless a proxy in front authenticates callers.',
    { event: 'http.unauthenticated' },
  );
}

/** Starts the endpoint on its own Node HTTP server. */
export async function startHttp(
  serving: HttpServing,
  options: ServeHttpOptions = {},
  rules: MemberRules = NO_RULES,
  log: Log = Log.silent,
): Promise<ListeningEndpoint> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  const bounds = connectionBounds(options);
  // The handler is made once the port is known: the endpoint's URL is the default resource identifier.
  let handler: HttpHandler | undefined;
  let draining = false;
  const health = options.health ? healthResponder(options.health === true ? {} : options.health, () => draining) : undefined;
  // Not an async function: without health paths nothing is waited for, and a promise per request would be made for nothing.
  const serve = (req: IncomingMessage, res: ServerResponse): void => void handler?.handle(req, res);
  const http: HttpServer = createServer(
    {
      headersTimeout: bounds.headersTimeoutMs,
      // Receiving the request only: Node stops timing a request once its body is in, so responses run unbounded.
      requestTimeout: bounds.requestTimeoutMs,
      connectionsCheckingInterval: checkingIntervalOf(bounds),
    },
    health ? async (req, res) => void ((await health(req, res)) || serve(req, res)) : serve,
  );
  capConnectionsPerAddress(http, bounds.maxConnectionsPerAddress, log);
  const address = await listen(http, host, options.port ?? 3000);
  const url = urlOf(address, path);
  const auth = options.auth && { ...options.auth, resource: options.auth.resource ?? url };
  try {
    // `validateHost` follows `host`, whatever the options object carries.
    handler = createHttpHandler(serving, { ...options, path, auth, validateHost: LOOPBACK.test(host) }, rules, log);
  } catch (error) {
    await closeServer(http);
    throw error;
  }
  warnIfOpen(host, url, options, log);
  const ready = handler;
  const close = async () => {
    await ready.close();
    http.closeAllConnections();
    await closeServer(http);
  };
  const shutdown = async (deadlineMs: number) => {
    // Still listening while draining: new work is answered 503 (a balancer retries it elsewhere) and
    // readiness says so; the listener closes with the sessions.
    draining = true;
    await ready.drain(deadlineMs);
    await close();
  };
  return { host: address.address, port: address.port, url, close, shutdown };
}
