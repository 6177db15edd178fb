import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, HttpAdapterHost, MetadataScanner } from '@nestjs/core';
// eslint-disable-next-line no-restricted-imports -- which members a class decorates is not public API yet
import { decoratedMembersOf } from '../schema/tools';
import { DefinitionError, McpServer, type Diagnostic } from '../index';
import { MCP_MODULE_OPTIONS } from './constants';
import type { McpModuleOptions } from './options';
import { mountHttp } from './http';

/**
 * Finds every provider and controller with `@Tool`, `@Resource` or `@Prompt` members at start-up and adds
 * its instance to the one `McpServer`, then serves it. A wrong declaration stops the application start.
 */
@Injectable()
export class McpExplorer implements OnModuleInit, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('McpModule');

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly adapterHost: HttpAdapterHost,
    private readonly server: McpServer,
    @Inject(MCP_MODULE_OPTIONS) private readonly options: McpModuleOptions,
  ) {}

  onModuleInit(): void {
    this.addDecoratedInstances();
    // Routes must be on the adapter before Nest adds its not-found handler, which follows onModuleInit.
    if ((this.options.transport ?? 'http') === 'http') {
      const path = this.options.path ?? '/mcp';
      mountHttp(this.adapterHost, this.server, path, this.options.validateHost ?? true);
      this.logger.log(`Serving MCP over HTTP at ${path}`);
    }
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.options.transport === 'stdio') await this.server.serveStdio();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.server.close();
  }

  private addDecoratedInstances(): void {
    const wrappers = [...this.discovery.getProviders(), ...this.discovery.getControllers()];
    const diagnostics: Diagnostic[] = [];
    const refused: string[] = [];
    const seen = new Set<object>();
    for (const wrapper of wrappers) {
      const ctor = wrapper.metatype;
      if (typeof ctor !== 'function' || !this.hasDecoratedMethods(ctor)) continue;
      if (!wrapper.isDependencyTreeStatic() || wrapper.isTransient) {
        refused.push(
          `${ctor.name} is request-scoped or transient (or depends on such a provider): MCP tools, resources and prompts ` +
            `are registered once at start-up, so their class must be a singleton. Remove the scope, or move the ` +
            `request-scoped work into a service the tool class calls.`,
        );
        continue;
      }
      const instance = wrapper.instance as object | undefined;
      if (!instance || seen.has(instance)) continue;
      seen.add(instance);
      try {
        this.server.add(instance);
      } catch (error) {
        if (!(error instanceof DefinitionError)) throw error;
        diagnostics.push(...error.diagnostics);
      }
    }
    if (refused.length > 0) throw new Error(`McpModule cannot serve ${refused.length} provider(s):\n  ${refused.join('\n  ')}`);
    if (diagnostics.length > 0) throw new DefinitionError('The MCP providers', diagnostics);
  }

  /** Uses Nest's MetadataScanner for the methods, and our metadata for whether one is an MCP member. */
  private hasDecoratedMethods(ctor: Function): boolean {
    const members = decoratedMembersOf(ctor);
    if (members.length === 0) return false;
    const methods = new Set(this.scanner.getAllMethodNames(ctor.prototype));
    // Static or field members are not methods but must still reach the diagnostics (OMCG0001).
    return members.some((m) => methods.has(String(m.key)) || m.shape !== 'method');
  }
}

