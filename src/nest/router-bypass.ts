import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { HttpHandler } from '../index';

/**
 * The Express side of the MCP endpoint's fast path (the module's `bypassRouter`): the application's Node
 * server hands a POST, GET or DELETE of exactly the MCP path straight to the endpoint's handler, before Express
 * builds its request, runs its middleware, its body parsers and its router. Everything else, and every request
 * while the adapter has request hooks or is shutting down, goes to Express as before, where the routed
 * endpoint (same handler, same sessions) still answers the other spellings of the path (`/MCP`, `/mcp/`).
 */

/** The parts of Nest's `ExpressAdapter` the fast path reads. */
export interface ExpressAdapterLike {
  getType(): string;
  getHttpServer(): unknown;
  getInstance(): ExpressAppLike;
  /** Set by `setOnRequestHook` / `setOnResponseHook`; Express runs them in a middleware of the adapter's own. */
  readonly onRequestHook?: unknown;
  readonly onResponseHook?: unknown;
  /** True once `close()` began; with `return503OnClosing` Express then answers 503. */
  readonly isShuttingDown?: boolean;
}

/** The Express application: its settings and its router's stack (`router` in Express 5, `_router` in Express 4). */
export interface ExpressAppLike {
  enabled(setting: string): boolean;
  readonly router?: { readonly stack?: readonly ExpressLayer[] };
  readonly _router?: { readonly stack?: readonly ExpressLayer[] };
}

interface ExpressLayer {
  readonly name?: string;
  readonly handle?: Function;
  readonly route?: { readonly path?: unknown; readonly methods?: Readonly<Record<string, boolean>>; readonly stack?: readonly { readonly handle?: Function }[] };
  match?(path: string): boolean;
}

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

const SERVED = new Set(['POST', 'GET', 'DELETE']);

/** The path of a request target, without its query. */
function pathOf(url: string | undefined): string {
  if (url === undefined) return '/';
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}

/**
 * Puts the fast path in front of the Express application on the adapter's Node server; false when the adapter
 * is not Express or has no Node server. An application only `init()`ed and handed to a serverless wrapper,
 * which calls Express itself, never reaches this listener: the routed endpoint serves it.
 */
export function bypassExpressRouter(adapter: ExpressAdapterLike, handler: HttpHandler, path: string): boolean {
  if (adapter.getType() !== 'express') return false;
  const server = adapter.getHttpServer() as Server | undefined;
  if (!server || typeof server.listeners !== 'function') return false;
  const app = adapter.getInstance();
  // Every listener is kept and called in order for what the fast path leaves, as the server would have.
  const listeners = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const fast =
      SERVED.has(req.method!) &&
      pathOf(req.url) === path &&
      adapter.onRequestHook === undefined &&
      adapter.onResponseHook === undefined &&
      adapter.isShuttingDown !== true;
    if (!fast) {
      for (const listener of listeners) listener.call(server, req, res);
      return;
    }
    // The one header Express writes on every answer itself, kept so that the wire bytes stay the same.
    if (app.enabled('x-powered-by')) res.setHeader('X-Powered-By', 'Express');
    void handler.handle(req, res);
  });
  return true;
}

/**
 * What Express would have run on the MCP path before the endpoint's own routes (those registered with `route`),
 * which the fast path skips: middleware of `app.use()`, `enableCors()` and `MiddlewareConsumer`, and routes of
 * the same path, by name. Nest's JSON and urlencoded body parsers are left out (the endpoint reads the body
 * itself), as is the adapter's own hook middleware, which the fast path stands aside for.
 */
export function skippedMiddleware(app: ExpressAppLike, path: string, route: Function): readonly string[] {
  const skipped: string[] = [];
  // Express 4's `app.router` getter throws; its router is `_router`, which Express 5 no longer has.
  for (const layer of (app._router ?? app.router)?.stack ?? []) {
    if (layer.route) {
      if (layer.route.stack?.some((r) => r.handle === route)) break; // nothing after the endpoint's routes runs first
      if (layer.match?.(path)) skipped.push(`the route ${Object.keys(layer.route.methods ?? {}).join('/').toUpperCase()} ${String(layer.route.path)}`);
      continue;
    }
    if (!layer.match?.(path) || isNestOwn(layer)) continue;
    skipped.push(layer.name && layer.name !== '<anonymous>' ? layer.name : 'an anonymous middleware');
  }
  return skipped;
}

const NEST_PARSERS = new Set(['jsonParser', 'urlencodedParser']);

/** Nest's body parsers, and the adapter's request-hook and 503-on-closing middleware (which the fast path honours itself). */
function isNestOwn(layer: ExpressLayer): boolean {
  if (layer.name && NEST_PARSERS.has(layer.name)) return true;
  const source = layer.handle ? Function.prototype.toString.call(layer.handle) : '';
  return source.includes('onResponseHook') || source.includes('isShuttingDown');
}
