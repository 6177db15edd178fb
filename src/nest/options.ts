import type { ModuleMetadata, Type } from '@nestjs/common';
import type {
  CorsOptions,
  HttpAuthOptions,
  Interceptor,
  InterceptorContext,
  McpLogger,
  McpServerOptions,
  ServerInfo,
  UiResourceOptions,
} from '../index';
import type { NestHandlerOptions } from './http';

/** How the module serves the MCP server. */
export type McpTransport = 'http' | 'stdio' | 'none';

/**
 * Options of `McpModule.forRoot`: the server's (`new McpServer(info, options)`) and, with transport `http`, every
 * option of `server.createHttpHandler()` by the same name but `path` (sessions and their limits, SSE polling and
 * resumption, `eventStore`, `route`, `legacy`, `trustedProxies`, `maxRequestBodySize`), besides the module's own.
 */
export interface McpModuleOptions extends ServerInfo, McpServerOptions, NestHandlerOptions {
  /** `http` mounts on the application's own HTTP adapter (default); `stdio` serves a Nest application context; `none` only builds the server. */
  readonly transport?: McpTransport;
  /** HTTP path on the application's adapter; default `/mcp`. */
  readonly path?: string;
  /**
   * Check Host and Origin against loopback names (DNS-rebinding protection); default true. Turn it off when
   * the application is reached under a real host name (behind a proxy that checks hosts itself), or give
   * `allowedHosts`. `Origin` is checked either way: one not listed in `cors.origins` or `allowedHosts` is 403.
   */
  readonly validateHost?: boolean;
  /** The host names the application answers to (no port), checked against `Host` and accepted as `Origin`. */
  readonly allowedHosts?: readonly string[];
  /**
   * Makes the endpoint an OAuth 2.1 resource server (transport `http`). `auth.resource` is required: the
   * endpoint's public URL. The protected resource metadata is routed at `/.well-known/oauth-protected-resource`
   * and its path-suffixed form.
   */
  readonly auth?: HttpAuthOptions;
  /**
   * Let Nest guards decide what is listed too (with `auth`, transport `http`): a tool, resource or prompt whose
   * guards refuse the caller is absent from its listings and answered as unknown, like `auth.authorize` refuses
   * (with which it combines). Guards see `McpExecutionContext.isListing()` true and no arguments then. Default
   * `false`: guards only refuse calls.
   */
  readonly guardListings?: boolean;
  /** Cross-origin access for browser hosts on the MCP routes; off unless given. */
  readonly cors?: CorsOptions;
  /**
   * The bound of one operation of a given `taskStore` or `eventStore` (Redis): past it, or while the store is
   * known to be down, the request is answered "temporarily unable" (a task) or 503 with `Retry-After` (a session's
   * events). Default 1,000 ms.
   */
  readonly storeTimeoutMs?: number;
  /**
   * Largest request body in bytes that the endpoint reads itself: with Express, a request answered ahead of the
   * router (`bypassRouter`); default 4 MiB, 413 beyond. A body Express's or Fastify's own parser read is bound by
   * that parser's limit (Express 100 KB, Fastify 1 MiB by default).
   */
  readonly maxRequestBodySize?: number;
  /**
   * With the Express adapter, answer POST, GET and DELETE of exactly `path` on the application's Node server,
   * ahead of Express's router: no route matching and none of Nest's body parsers (the endpoint reads the body
   * itself, up to 4 MiB). Left unset, the application's own middleware on the path (`app.use()`,
   * `app.enableCors()`, `MiddlewareConsumer`) runs first, by Express's own code, exactly as for a controller
   * (start-up names it); `true` skips it too; `false` sends every MCP request through Express's router. Guards,
   * interceptors, pipes, filters and request scope apply either way: they run per call. Fastify is routed either way.
   */
  readonly bypassRouter?: boolean;
  /**
   * Where the server logs masked failures, output-schema mismatches, timeouts, refused requests and transport
   * errors. Default: the application's Nest logger, context `McpServer` (`NestMcpLogger`), kept off stdout over
   * stdio; `false` logs nothing.
   */
  readonly logger?: McpLogger | false;
  /**
   * MCP Apps views by `ui://` URI, registered before the providers are added, so that their tools may name them
   * with `@Tool({ uiResource })` (see `server.addUiResource`).
   */
  readonly uiResources?: Readonly<Record<string, UiResourceOptions>>;
  /**
   * `server.use`'s interceptors, outermost first, around every MCP call (Nest's own guards, interceptors and
   * filters run inside them): functions, or classes implementing `McpInterceptor` that are providers of the
   * application (resolved from it, so they get their dependencies injected).
   */
  readonly interceptors?: readonly (Interceptor | Type<McpInterceptor>)[];
}

/**
 * An interceptor as a Nest provider, for `McpModule.forRoot({ interceptors: [RateLimit] })`.
 * @example
 * @Injectable()
 * class Audit implements McpInterceptor {
 *   constructor(private readonly log: AuditLog) {}
 *   async intercept(call: InterceptorContext, next: () => Promise<unknown>) {
 *     this.log.write(call.kind, call.name, call.request.auth?.subject);
 *     return next();
 *   }
 * }
 */
export interface McpInterceptor {
  intercept(context: InterceptorContext, next: () => Promise<unknown>): unknown;
}

/** Options of `McpModule.forRootAsync`. */
export interface McpModuleAsyncOptions extends Pick<ModuleMetadata, 'imports'> {
  readonly useFactory: (...args: never[]) => McpModuleOptions | Promise<McpModuleOptions>;
  readonly inject?: readonly (string | symbol | Function)[];
}
