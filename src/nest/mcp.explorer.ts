import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, HttpAdapterHost } from '@nestjs/core';
import { DefinitionError, McpServer, type Diagnostic } from '../index';
import { MCP_MODULE_OPTIONS } from './constants';
import type { McpModuleOptions } from './options';
import { mountHttp } from './http';
import { McpPipeline, type ProviderWrapper } from './mcp.pipeline';

/**
 * Adds every provider and controller with `@Tool`, `@Resource` or `@Prompt` members to the one `McpServer`
 * at start-up, each call running through Nest's enhancer pipeline, then serves it. Every wrong declaration
 * of the application stops its start in one `DefinitionError`.
 */
@Injectable()
export class McpExplorer implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('McpModule');

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly adapterHost: HttpAdapterHost,
    private readonly server: McpServer,
    private readonly pipeline: McpPipeline,
    @Inject(MCP_MODULE_OPTIONS) private readonly options: McpModuleOptions,
  ) {}

  onModuleInit(): void {
    this.addProviders();
    // Routes must be on the adapter before Nest adds its not-found handler, which follows onModuleInit.
    if ((this.options.transport ?? 'http') === 'http') {
      const path = this.options.path ?? '/mcp';
      const { validateHost = true, allowedHosts, auth, cors } = this.options;
      mountHttp(this.adapterHost, this.server, path, { validateHost, allowedHosts, auth, cors });
      this.logger.log(`Serving MCP over HTTP at ${path}`);
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
      if (typeof instance !== 'object' || instance === null || seen.has(instance)) continue;
      seen.add(instance);
      diagnostics.push(...this.add(instance, wrapper));
    }
    if (diagnostics.length > 0) throw new DefinitionError('The Nest application', diagnostics);
  }

  private add(instance: object, wrapper: ProviderWrapper): readonly Diagnostic[] {
    try {
      this.server.add(instance, { invoke: this.pipeline.hookFor(wrapper) });
      return [];
    } catch (error) {
      if (error instanceof DefinitionError) return error.diagnostics;
      throw error;
    }
  }
}
