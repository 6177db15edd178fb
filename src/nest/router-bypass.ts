import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { HttpHandler } from '../index';

/**
 * The Express side of the MCP endpoint's fast path (the module's `bypassRouter`): the application's Node
 * server hands a POST, GET or DELETE of exactly the MCP path straight to the endpoint's handler, before Express
 * builds its request, runs its middleware, its body parsers and its router; or, when the application has
 * middleware of its own on the path, runs exactly that middleware first with Express's own code
 * (`stackRunner`), skipping only the route matching of the layers known not to be on the path and Nest's body
 * parsers. Everything else, and every request while the adapter has request hooks or is shutting down, goes to
 * Express as before, where the routed endpoint (same handler, same sessions) still answers the other spellings
 * of the path (`/MCP`, `/mcp/`).
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

/** The Express application: its settings and its router (`router` in Express 5, `_router` in Express 4). */
export interface ExpressAppLike {
  enabled(setting: string): boolean;
  readonly router?: ExpressRouterLike;
  readonly _router?: ExpressRouterLike;
  /** What the application's own request listener calls: `handle(req, res, done?)`. */
  readonly handle?: unknown;
}

interface ExpressRouterLike {
  readonly stack?: readonly ExpressLayer[];
  readonly handle?: unknown;
}

interface ExpressLayer {
  readonly name?: string;
  readonly handle?: Function;
  readonly route?: {
    readonly path?: unknown;
    readonly methods?: Readonly<Record<string, boolean>>;
    readonly stack?: readonly { readonly handle?: Function }[];
  };
  match?(path: string): boolean;
}

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

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
export function bypassExpressRouter(adapter: ExpressAdapterLike, handler: HttpHandler, path: string, runStack?: RequestListener): boolean {
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
    if (runStack) return runStack(req, res);
    // The one header Express writes on every answer itself, kept so that the wire bytes stay the same.
    if (app.enabled('x-powered-by')) res.setHeader('X-Powered-By', 'Express');
    void handler.handle(req, res);
  });
  return true;
}

/**
 * What Express would have run on the MCP path before the endpoint's own routes (those registered with `route`),
 * which the fast path runs (`stackRunner`) or, with `bypassRouter: true`, skips: middleware of `app.use()`, `enableCors()` and `MiddlewareConsumer`, and routes of
 * the same path, by name. Nest's JSON and urlencoded body parsers are left out (the endpoint reads the body
 * itself), as is the adapter's own hook middleware, which the fast path stands aside for: both known by identity
 * (`recordNestLayers`). Any other parser, one of `useBodyParser` or a user's `express.json({ verify })`, is named.
 */
export function registeredOnPath(adapter: ExpressAdapterLike, path: string, route: Function): readonly string[] {
  const skipped: string[] = [];
  const own = NEST_LAYERS.get(adapter);
  for (const layer of stackOf(adapter.getInstance())) {
    if (layer.route) {
      if (layer.route.stack?.some((r) => r.handle === route)) break; // nothing after the endpoint's routes runs first
      if (layer.match?.(path))
        skipped.push(
          `the route ${Object.keys(layer.route.methods ?? {})
            .join('/')
            .toUpperCase()} ${String(layer.route.path)}`,
        );
      continue;
    }
    if (!layer.match?.(path) || isNestOwn(own, layer)) continue;
    skipped.push(layer.name && layer.name !== '<anonymous>' ? layer.name : 'an anonymous middleware');
  }
  return skipped;
}

/**
 * Nest's own layers on each Express adapter, by identity (never by name or by a word in their source, which any
 * user middleware can share: every body parser is named `jsonParser`). Recorded by `recordNestLayers` from the
 * module's start-up, before the application's `init()`: the body parsers Nest's `registerParserMiddleware` adds,
 * and the adapter's own request-hook middleware, whose source is compared whole with a fresh adapter's.
 */
const NEST_LAYERS = new WeakMap<object, WeakSet<Function>>();

function ownOf(adapter: object): WeakSet<Function> {
  let own = NEST_LAYERS.get(adapter);
  if (!own) NEST_LAYERS.set(adapter, (own = new WeakSet()));
  return own;
}

function stackOf(app: ExpressAppLike | undefined): readonly ExpressLayer[] {
  // Express 4's `app.router` getter throws; its router is `_router`, which Express 5 no longer has.
  return (app?._router ?? app?.router)?.stack ?? [];
}

/** What `recordNestLayers` reads of the adapter beyond {@link ExpressAdapterLike}. */
interface RecordableAdapter extends ExpressAdapterLike {
  registerParserMiddleware?: (...args: unknown[]) => unknown;
}

/**
 * Notes Nest's own layers on an Express adapter (the seam into its internals: every member is checked first). Call
 * before the application's `init()` (the module does, when Nest builds it). `false` when the adapter is not one
 * it can read: its layers then all count as the application's, which keeps MCP requests on Express, named in the log.
 */
export function recordNestLayers(adapter: ExpressAdapterLike): boolean {
  if (adapter.getType() !== 'express') return false;
  const recordable = adapter as RecordableAdapter;
  const original = recordable.registerParserMiddleware;
  if (typeof original !== 'function' || NEST_LAYERS.has(adapter)) return NEST_LAYERS.has(adapter);
  const own = ownOf(adapter);
  const hookSources = freshAdapterSources(adapter);
  for (const layer of stackOf(adapter.getInstance())) {
    if (layer.handle && hookSources.has(Function.prototype.toString.call(layer.handle))) own.add(layer.handle);
  }
  recordable.registerParserMiddleware = function (this: RecordableAdapter, ...args: unknown[]) {
    const before = new Set(stackOf(adapter.getInstance()).map((l) => l.handle));
    const result = original.apply(this, args);
    for (const layer of stackOf(adapter.getInstance())) if (layer.handle && !before.has(layer.handle)) own.add(layer.handle);
    return result;
  };
  return true;
}

/** The sources of the layers a new adapter of the same class puts on a fresh application (its hook middleware). */
function freshAdapterSources(adapter: ExpressAdapterLike): ReadonlySet<string> {
  try {
    const Adapter = adapter.constructor as new () => ExpressAdapterLike;
    return new Set(stackOf(new Adapter().getInstance()).flatMap((l) => (l.handle ? [Function.prototype.toString.call(l.handle)] : [])));
  } catch {
    return new Set();
  }
}

/** Nest's own layers (recorded by identity), which the fast path stands aside for or does itself. */
function isNestOwn(own: WeakSet<Function> | undefined, layer: ExpressLayer): boolean {
  return layer.handle !== undefined && own?.has(layer.handle) === true;
}

/**
 * The application's own middleware for the MCP path, run by Express's own code (the seam into its router: every
 * member is checked first; `undefined` sends MCP requests through Express's router as before). Each request is
 * handed to the application's `handle` (Express's request and response prototypes, `res.locals`, `X-Powered-By`,
 * the final handler), on a router that inherits the application's (its settings and `param` callbacks) with a
 * stack of the application's own layers in their order: those on the MCP path as they are, matched per request as
 * Express matches them; those known not to be on it (and Nest's body parsers, which the endpoint stands in for)
 * answering the MCP path at once, any other path (a middleware that rewrote `req.url`) by their own matching.
 * So middleware order, `next(err)`, error handlers, a middleware that answers, and the endpoint's route itself
 * run exactly as through Express.
 */
export function stackRunner(adapter: ExpressAdapterLike, path: string): RequestListener | undefined {
  const app = adapter.getInstance();
  // Express 4's `app.router` getter throws; its router is `_router`, which Express 5 no longer has.
  const key = app._router ? '_router' : 'router';
  const router = app[key];
  if (typeof app.handle !== 'function' || !readable(router)) return undefined;
  const own = NEST_LAYERS.get(adapter);
  const local = Object.create(router) as { stack: readonly ExpressLayer[] };
  const runner = Object.create(app, { [key]: { value: local } }) as { handle(req: IncomingMessage, res: ServerResponse): void };
  let plannedLength = -1;
  return (req, res) => {
    // Layers are only ever appended (Nest's error and not-found handlers come after the endpoint's routes).
    if (router.stack.length !== plannedLength) {
      local.stack = router.stack.map((layer) => onPath(layer, path, own));
      plannedLength = router.stack.length;
    }
    runner.handle(req, res);
  };
}

/** A router whose stack the fast path can read: an array of layers, each with `match(path)` and a handle. */
function readable(router: ExpressRouterLike | undefined): router is ExpressRouterLike & { stack: readonly ExpressLayer[] } {
  return (
    typeof router?.handle === 'function' &&
    Array.isArray(router.stack) &&
    router.stack.every((layer: ExpressLayer) => typeof layer?.match === 'function' && typeof layer.handle === 'function')
  );
}

/** The layer as the MCP path's stack holds it: itself when it is on the path, else a view that says so at once. */
function onPath(layer: ExpressLayer, path: string, own: WeakSet<Function> | undefined): ExpressLayer {
  const parser = !layer.route && isNestOwn(own, layer);
  let matches: boolean;
  try {
    matches = Boolean(layer.match!(path));
  } catch {
    matches = true; // Express reports a matching failure per request: left to it
  }
  if (matches && !parser) return layer;
  // The view inherits everything else of the layer (its handle, route, and what Express 4's `match` records).
  return Object.create(layer, { match: { value: (p: string) => (p === path ? false : layer.match!(p)) } }) as ExpressLayer;
}
