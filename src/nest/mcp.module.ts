import { Module, type DynamicModule, type Provider } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { McpServer } from '../index';
import { MCP_MODULE_OPTIONS } from './constants';
import { McpExplorer } from './mcp.explorer';
import { McpPipeline } from './mcp.pipeline';
import { NestMcpLogger, nestLogsToStderr } from './nest-logger';
import type { McpModuleAsyncOptions, McpModuleOptions } from './options';

/** The server's options: without a `logger`, the application's Nest logger (kept off stdout over stdio). */
function serverOptions(options: McpModuleOptions): McpModuleOptions {
  if (options.logger !== undefined) return options;
  return { ...options, logger: new NestMcpLogger(undefined, { stdio: options.transport === 'stdio' }) };
}

function serverProvider(): Provider {
  return {
    provide: McpServer,
    useFactory: (options: McpModuleOptions) => {
      // forRootAsync's options are known only now; forRoot's swapped the logger as the module was declared.
      if (options.transport === 'stdio') nestLogsToStderr();
      const server = new McpServer(
        { name: options.name, version: options.version, title: options.title, ...(options.icons && { icons: options.icons }) },
        serverOptions(options),
      );
      // Views first: the explorer adds the providers whose tools name them at module init.
      for (const [uri, view] of Object.entries(options.uiResources ?? {})) server.addUiResource(uri, view);
      return server;
    },
    inject: [MCP_MODULE_OPTIONS],
  };
}

/**
 * Serves every `@Tool`, `@Resource` and `@Prompt` of the application's providers and controllers as one
 * MCP server, over the application's own HTTP adapter or stdio. `McpServer` is injectable.
 * @example
 * @Module({ imports: [McpModule.forRoot({ name: 'docket', version: '1.0.0' })], providers: [DocketService] })
 * export class AppModule {}
 */
@Module({})
export class McpModule {
  /**
   * With transport `stdio`, Nest's default console logger (which writes to stdout) is replaced with a
   * `StderrLogger` of the same options at once, so that Nest's start-up lines stay off stdout too.
   */
  static forRoot(options: McpModuleOptions): DynamicModule {
    if (options?.transport === 'stdio') nestLogsToStderr();
    return McpModule.build([{ provide: MCP_MODULE_OPTIONS, useValue: Object.freeze({ ...options }) }], []);
  }

  /**
   * Options from a factory, with its own imports and injections.
   * @example McpModule.forRootAsync({ imports: [ConfigModule], inject: [ConfigService], useFactory: (c) => ({ name: c.get('NAME'), version: '1' }) })
   */
  static forRootAsync(options: McpModuleAsyncOptions): DynamicModule {
    return McpModule.build(
      [{ provide: MCP_MODULE_OPTIONS, useFactory: options.useFactory, inject: [...(options.inject ?? [])] }],
      options.imports ?? [],
    );
  }

  private static build(optionProviders: Provider[], imports: NonNullable<McpModuleAsyncOptions['imports']>): DynamicModule {
    return {
      module: McpModule,
      global: true,
      imports: [DiscoveryModule, ...imports],
      providers: [...optionProviders, serverProvider(), McpPipeline, McpExplorer],
      exports: [McpServer],
    };
  }
}
