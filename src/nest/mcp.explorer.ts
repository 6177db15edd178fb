import {
  Inject,
  Injectable,
  Logger,
  type Type,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
  type OnModuleInit,
} from '@nestjs/common';
import { DiscoveryService, ExternalContextCreator, HttpAdapterHost, ModuleRef } from '@nestjs/core';
import { appPipeValidation, applyValidation } from './app-validation';
import {
  DefinitionError,
  McpServer,
  RequestContext,
  type AuthInfo,
  type AuthorizeItem,
  type AuthorizePolicy,
  type Diagnostic,
  type HttpAuthOptions,
  type Interceptor,
  UsageError,
} from '../index';
import { MCP_MODULE_OPTIONS } from './constants';
import type { McpInterceptor, McpModuleOptions } from './options';
import { handlerOptionsOf, mountHttp } from './http';
import { McpPipeline, type ProviderWrapper } from './mcp.pipeline';
import { recordNestLayers, type ExpressAdapterLike } from './router-bypass';

/**
 * Adds every provider and controller with `@Tool`, `@Resource` or `@Prompt` members to the one `McpServer`
 * at start-up, each call running through Nest's enhancer pipeline, then serves it. Every wrong declaration
 * of the application stops its start in one `DefinitionError`.
 */
@Injectable()
export class McpExplorer implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('McpModule');
  /** The Nest providers whose members were added, by instance: those whose guards may hide an item. */
  private readonly providers = new Set<object>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly adapterHost: HttpAdapterHost,
    private readonly server: McpServer,
    private readonly pipeline: McpPipeline,
    @Inject(MCP_MODULE_OPTIONS) private readonly options: McpModuleOptions,
    private readonly contexts: ExternalContextCreator,
    private readonly moduleRef: ModuleRef,
  ) {
    this.recordNestLayersEarly();
  }

  /**
   * Nest's own Express layers are recorded as they are registered, before the application's `init()`, so the router
   * bypass knows them by identity (router-bypass.ts). The adapter may be set after this provider is built (a testing
   * module's `createNestApplication`): `init$` says when, replaying it when it is set already.
   */
  private recordNestLayersEarly(): void {
    if ((this.options.transport ?? 'http') !== 'http' || this.options.bypassRouter === false) return;
    const record = () => {
      const adapter = this.adapterHost.httpAdapter as unknown as ExpressAdapterLike | undefined;
      if (adapter && typeof adapter.getType === 'function') recordNestLayers(adapter);
    };
    const init$ = (this.adapterHost as Partial<Pick<HttpAdapterHost, 'init$'>>).init$;
    if (init$ && typeof init$.subscribe === 'function') init$.subscribe(record);
    else record();
  }

  onModuleInit(): void {
    // The module's `validation`, else the options of the app's global ValidationPipe (set by now), else the default.
    if (this.options.validation === undefined) applyValidation(this.server, appPipeValidation(this.contexts, this.logger));
    this.useInterceptors();
    this.addProviders();
    // Routes must be on the adapter before Nest adds its not-found handler, which follows onModuleInit.
    if ((this.options.transport ?? 'http') === 'http') {
      const path = this.options.path ?? '/mcp';
      const bypassRouter = this.options.bypassRouter;
      const mounted = mountHttp(this.adapterHost, this.server, path, {
        ...handlerOptionsOf(this.options),
        auth: this.authOptions(),
        bypassRouter,
      });
      this.logger.log(`Serving MCP over HTTP at ${path}${mounted.bypassed ? ", ahead of Express's router" : ''}${throughOwn(mounted.run)}`);
      if (mounted.skipped.length > 0 && bypassRouter === undefined) this.logger.log(routedBecause(path, mounted.skipped));
    }
  }

  /**
   * The module's `interceptors` on the server, in order: a function as it is, a class as the application's provider
   * of it (so that its dependencies are injected); a class the application does not provide stops the start.
   */
  private useInterceptors(): void {
    for (const entry of this.options.interceptors ?? []) {
      if (!isClass(entry)) {
        this.server.use(entry as Interceptor);
        continue;
      }
      let instance: McpInterceptor;
      try {
        instance = this.moduleRef.get(entry, { strict: false });
      } catch (error) {
        throw new UsageError(
          `McpModule's interceptors name ${entry.name}, which the application does not provide: add it to the providers of a module.`,
          { cause: error },
        );
      }
      if (typeof instance?.intercept !== 'function') {
        throw new UsageError(`McpModule's interceptors name ${entry.name}, which has no intercept(context, next) method.`);
      }
      this.server.use((context, next) => instance.intercept(context, next));
    }
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.options.transport === 'stdio') await this.server.serveStdio();
  }

  /**
   * Before, not on, application shutdown: Nest closes its HTTP server between the two hooks, and that close
   * waits for every open connection, so the MCP server must end its streams and sessions first (a client
   * holding a stream open would otherwise keep `app.close()`, and the process, from ever finishing).
   */
  async beforeApplicationShutdown(): Promise<void> {
    await this.server.close();
  }

  /**
   * Offers every provider and controller to the server, which takes the decorated ones. A scoped provider's
   * start-up instance only describes its class; its calls get their own instances.
   */
  private addProviders(): void {
    const diagnostics: Diagnostic[] = [];
    const seen = new Set<object>();
    for (const wrapper of [...this.discovery.getProviders(), ...this.discovery.getControllers()]) {
      const instance: unknown = wrapper.instance;
      // Inline, not objects.ts's isObjectLike: src/nest imports only the public API (../index).
      if (typeof instance !== 'object' || instance === null || seen.has(instance)) continue;
      seen.add(instance);
      diagnostics.push(...this.add(instance, wrapper));
    }
    if (diagnostics.length > 0) throw new DefinitionError('The Nest application', diagnostics);
  }

  /** `auth` as given, with the guards of Nest providers joining `authorize` when `guardListings` asks for it. */
  private authOptions(): HttpAuthOptions | undefined {
    const { auth, guardListings } = this.options;
    if (guardListings === true && !auth) {
      this.logger.warn(
        'guardListings is set without auth: guards decide listings only for callers the endpoint knows; they refuse calls as before.',
      );
    }
    if (!auth || guardListings !== true) return auth;
    const own = auth.authorize;
    const guarded: AuthorizePolicy = async (caller, item) =>
      (own ? await own(caller, item) : true) ? this.guardsAllow(caller, item) : false;
    return { ...auth, authorize: guarded };
  }

  /** Whether the guards of the Nest provider method behind an item let the caller see it; true for anything else. */
  private guardsAllow(caller: AuthInfo | undefined, item: AuthorizeItem): Promise<boolean> | boolean {
    const member = this.server.memberOf(item);
    if (!member || !this.providers.has(member.instance) || item.kind === 'skill') return true;
    const kind = item.kind === 'template' ? 'resource' : item.kind;
    return this.pipeline.guardsAllowListing(member.instance, member.key, {
      kind,
      name: item.name,
      context: new RequestContext({ auth: caller }),
    });
  }

  private add(instance: object, wrapper: ProviderWrapper): readonly Diagnostic[] {
    try {
      this.server.add(instance, { invoke: this.pipeline.hookFor(wrapper) });
      this.providers.add(instance);
      return [];
    } catch (error) {
      if (error instanceof DefinitionError) return error.diagnostics;
      throw error;
    }
  }
}

/** The application's middleware MCP requests run through ahead of Express's router, named in the start-up line. */
function throughOwn(run: readonly string[]): string {
  return run.length === 0 ? '' : `, through the application's middleware on the path (${run.join(', ')})`;
}

/** Why MCP requests take Express's way although `bypassRouter` was left unset, and how to change it. */
function routedBecause(path: string, skipped: readonly string[]): string {
  const what = skipped.join(', ');
  return (
    `MCP requests to ${path} go through Express, because ${what} ${skipped.length === 1 ? 'is' : 'are'} registered on the path. ` +
    `Set bypassRouter: true to answer them ahead of Express's middleware and router (faster; ${skipped.length === 1 ? 'it' : 'these'} would not run for them), or false to silence this.`
  );
}

/** A class (a provider's token), which should implement `McpInterceptor`, rather than an interceptor function. */
function isClass(entry: unknown): entry is Type<McpInterceptor> {
  if (typeof entry !== 'function') return false;
  return (
    typeof (entry.prototype as Partial<McpInterceptor> | undefined)?.intercept === 'function' ||
    /^class\b/.test(Function.prototype.toString.call(entry))
  );
}
