import { UsageError } from '../index';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpAdapterHost } from '@nestjs/core';
import type { HttpAuthOptions, HttpHandlerOptions, McpServer } from '../index';
import { bypassExpressRouter, registeredOnPath, stackRunner, type ExpressAdapterLike } from './router-bypass';
import { noteFrameworkRequest } from './mcp-execution-context';

/** What Express (Node objects with `body`) and Fastify (`raw`, `hijack`) hand a route. */
interface FrameworkRequest {
  readonly raw?: IncomingMessage;
  readonly body?: unknown;
}
interface FrameworkReply {
  readonly raw?: ServerResponse;
  hijack?: () => void;
}

/** The handler's options the module takes by the same names: all but `path`, which the adapter routes. */
export type NestHandlerOptions = Omit<HttpHandlerOptions, 'path'>;

/** What `mountHttp` passes on to the handler, and how it mounts it. */
export interface MountOptions extends NestHandlerOptions {
  /**
   * Answer the MCP path on the Node server ahead of Express's router (router-bypass.ts): `true` always, skipping
   * what the application registered on the path; `false` never; unset, through the application's own middleware
   * on the path when it has any.
   */
  readonly bypassRouter?: boolean;
}

/**
 * Every handler option the module passes on. A record rather than a list so that the compiler refuses it when
 * `HttpHandlerOptions` gains an option that is missing here (an option the module would silently drop).
 */
const PASSED_ON: Readonly<Record<keyof NestHandlerOptions, true>> = {
  maxRequestBodySize: true,
  validateHost: true,
  allowedHosts: true,
  maxSessions: true,
  sessionIdleTimeoutMs: true,
  maxSessionsPerCaller: true,
  maxSessionLifetimeMs: true,
  trustedProxies: true,
  legacy: true,
  route: true,
  eventStore: true,
  sseRetryMs: true,
  sseCloseAfterMs: true,
  storeTimeoutMs: true,
  auth: true,
  cors: true,
  listing: true,
  describeConstraints: true,
  serverCard: true,
};

/** The handler's options among the module's (those given; the handler's defaults apply to the others). */
export function handlerOptionsOf(options: NestHandlerOptions): NestHandlerOptions {
  const given: Record<string, unknown> = {};
  for (const key of Object.keys(PASSED_ON) as (keyof NestHandlerOptions)[]) {
    if (options[key] !== undefined) given[key] = options[key];
  }
  return given as NestHandlerOptions;
}

/** How the endpoint was mounted. */
export interface Mounted {
  /** Whether POST, GET and DELETE of the path are answered ahead of Express's middleware and router. */
  readonly bypassed: boolean;
  /** What the application registered on the path that Express runs first, which MCP requests skip. */
  readonly skipped: readonly string[];
  /** What the application registered on the path that Express runs first, run ahead of the router all the same. */
  readonly run: readonly string[];
}

const WELL_KNOWN = '/.well-known/oauth-protected-resource';

/** Where the server card is served (`serverCard`), on the host's root whatever the MCP path or a global prefix. */
export const SERVER_CARD_ROUTES: readonly string[] = ['/.well-known/mcp/server-card.json', '/.well-known/mcp/server-card'];

/** The routes of the protected resource metadata: the root form and the path-suffixed forms (RFC 9728). */
function metadataRoutes(path: string, auth: HttpAuthOptions): readonly string[] {
  const suffix = (p: string) => (p === '/' ? '' : p.replace(/\/$/, ''));
  const publicPath = URL.canParse(auth.resource ?? '') ? new URL(auth.resource!).pathname : path;
  return [...new Set([WELL_KNOWN, WELL_KNOWN + suffix(path), WELL_KNOWN + suffix(publicPath)])];
}

/**
 * Mounts the MCP endpoint on the application's own HTTP adapter, Express or Fastify, for POST, GET and
 * DELETE at `path` (and OPTIONS with CORS, the metadata routes with auth, the server card's with `serverCard`). On a route, the framework's JSON body
 * parser has already read the body; it is handed on parsed. With Express, POST, GET and DELETE of exactly `path`
 * are answered ahead of Express's router, by the same handler: when `bypassRouter` is true, skipping everything of
 * the application's on the path; unset, after running the application's middleware on the path as Express would
 * (only Nest's own body parsers left out), or through Express when its router is not one that can be read.
 */
export function mountHttp(host: HttpAdapterHost, server: McpServer, path: string, options: MountOptions): Mounted {
  const adapter = host.httpAdapter;
  if (!adapter) {
    throw new UsageError(
      "McpModule: transport 'http' needs an HTTP application (NestFactory.create). For an application context " +
        "(NestFactory.createApplicationContext) use transport 'stdio' or 'none'.",
    );
  }
  const { bypassRouter, ...handlerOptions } = options;
  const handler = server.createHttpHandler(handlerOptions);
  const route = (req: FrameworkRequest & IncomingMessage, res: FrameworkReply & ServerResponse): Promise<void> => {
    const fastify = typeof res.hijack === 'function';
    if (fastify) res.hijack!();
    const rawReq = fastify ? req.raw! : req;
    const rawRes = fastify ? res.raw! : res;
    // A guard on a Fastify route reads Fastify's request: so does one of an MCP call (`switchToHttp().getRequest()`).
    if (fastify) noteFrameworkRequest(rawReq, req);
    return handler.handle(rawReq, rawRes, req.body === undefined ? undefined : { body: req.body });
  };
  adapter.post(path, route);
  adapter.get(path, route);
  adapter.delete(path, route);
  const metadata = options.auth ? metadataRoutes(path, options.auth) : [];
  for (const at of metadata) adapter.get(at, route);
  if (options.cors) for (const at of [path, ...metadata]) adapter.options(at, route);
  // GET answers HEAD too, in Express and in Fastify; OPTIONS is the card's own preflight, whatever `cors` says.
  if (options.serverCard) {
    for (const at of SERVER_CARD_ROUTES) {
      adapter.get(at, route);
      adapter.options(at, route);
    }
  }
  if (bypassRouter === false || adapter.getType() !== 'express') return { bypassed: false, skipped: [], run: [] };
  const express = adapter as unknown as ExpressAdapterLike;
  const registered = registeredOnPath(express, path, route);
  if (bypassRouter === true || registered.length === 0) {
    return { bypassed: bypassExpressRouter(express, handler, path), skipped: registered, run: [] };
  }
  // Unset, with middleware of the application's on the path: it runs for MCP requests as for a controller's.
  const runStack = stackRunner(express, path);
  if (!runStack) return { bypassed: false, skipped: registered, run: [] };
  const bypassed = bypassExpressRouter(express, handler, path, runStack);
  return bypassed ? { bypassed, skipped: [], run: registered } : { bypassed, skipped: registered, run: [] };
}
