import { Inject, Injectable, Module, Scope, type OnModuleInit } from '@nestjs/common';
import { ContextIdFactory, REQUEST, type ContextId, type ContextIdStrategy, type HostComponentInfo } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { Int32, McpServer, Tool, DefinitionError, type RequestContext } from '../../src';
import { McpModule } from '../../src/nest';
import { DocketRepository } from '../../samples/nest-docket/src/docket.repository';
import { DocketService } from '../../samples/nest-docket/src/docket.service';

async function boot(imports: unknown[], providers: unknown[]) {
  const moduleRef = await Test.createTestingModule({ imports: imports as never[], providers: providers as never[] }).compile();
  const app = moduleRef;
  await app.init();
  return app;
}

describe('McpModule (no transport)', () => {
  it('adds decorated providers with their dependencies and lists them as outside Nest', async () => {
    const app = await boot([McpModule.forRoot({ name: 'docket', version: '1', transport: 'none' })], [DocketRepository, DocketService]);
    const server = app.get(McpServer);
    const outside = new McpServer({ name: 'docket', version: '1' }).add(new DocketService(new DocketRepository()));
    expect(JSON.stringify(server.listTools())).toBe(JSON.stringify(outside.listTools()));
    expect(server.listTools().map((t) => t.name)).toEqual(['list_open_cases', 'get_docket', 'open_case']);
    const result = await server.callTool('get_docket', { id: 1 });
    expect(result.structuredContent).toMatchObject({ id: 1, number: '2026-CV-0001', title: 'Acme v. Widget' });
    await app.close();
  });

  it('passes the server icons and the cache default on to the server', async () => {
    const icons = [{ src: 'https://example.com/docket.png', mimeType: 'image/png' }];
    const app = await boot(
      [McpModule.forRoot({ name: 'docket', version: '1', transport: 'none', icons, cache: { ttlMs: 1_000, scope: 'public' } })],
      [],
    );
    const server = app.get(McpServer);
    expect(JSON.stringify(server.info)).toBe(JSON.stringify({ name: 'docket', version: '1', icons }));
    expect(server.options.cache).toEqual({ ttlMs: 1_000, scope: 'public' });
    await app.close();
  });

  it('registers the uiResources views before the providers whose tools name them', async () => {
    @Injectable()
    class Weather {
      @Tool({ uiResource: 'ui://weather/view' }) conditions(city: string): string {
        return `${city}: windy`;
      }
    }
    const uiResources = { 'ui://weather/view': { html: '<p>view</p>', title: 'Weather', prefersBorder: true } };
    const app = await boot([McpModule.forRoot({ name: 'w', version: '1', transport: 'none', uiResources })], [Weather]);
    expect(JSON.stringify(app.get(McpServer).listTools()[0]._meta)).toBe(
      '{"ui":{"resourceUri":"ui://weather/view","visibility":["model","app"]},"ui/resourceUri":"ui://weather/view"}',
    );
    await app.close();
    await expect(boot([McpModule.forRoot({ name: 'w', version: '1', transport: 'none' })], [Weather])).rejects.toThrow(
      "OMCG0015 Weather.conditions: uiResource 'ui://weather/view' names no registered view.",
    );
  });

  it('maps class-validator errors of DTO records to argument paths', async () => {
    const app = await boot([McpModule.forRoot({ name: 'docket', version: '1', transport: 'none' })], [DocketRepository, DocketService]);
    const result = await app.get(McpServer).callTool('open_case', {
      input: { number: '2026-XX-1', title: 'Bad number', parties: [] },
    });
    expect(result).toEqual({
      content: [{ type: 'text', text: "Argument 'input.number' is not valid. number must look like 2026-CV-0042" }],
      isError: true,
    });
    await app.close();
  });

  it('builds options with forRootAsync and lets services inject McpServer', async () => {
    @Injectable()
    class Registrar implements OnModuleInit {
      constructor(private readonly server: McpServer) {}
      onModuleInit(): void {
        this.server.tool('double', { params: { n: Int32 } }, ({ n }) => Number(n) * 2);
      }
    }
    @Injectable()
    class Config {
      readonly name = 'from-config';
    }
    @Module({ providers: [Config], exports: [Config] })
    class ConfigModule {}
    const app = await boot(
      [
        McpModule.forRootAsync({
          imports: [ConfigModule],
          inject: [Config],
          useFactory: (c: Config) => ({ name: c.name, version: '2', transport: 'none' }),
        }),
      ],
      [Registrar],
    );
    const server = app.get(McpServer);
    expect(server.info.name).toBe('from-config');
    expect(await server.callTool('double', { n: 21 })).toEqual({ content: [{ type: 'text', text: '42' }] });
    await app.close();
  });

  it('stops the application start with the diagnostics of a wrong declaration', async () => {
    @Injectable()
    class Broken {
      @Tool('bad name') a(tags: string[]): void {}
    }
    const start = boot([McpModule.forRoot({ name: 'x', version: '1', transport: 'none' })], [Broken]);
    await expect(start).rejects.toThrow(DefinitionError);
    await expect(boot([McpModule.forRoot({ name: 'x', version: '1', transport: 'none' })], [Broken])).rejects.toThrow(
      "The Nest application has 2 definition problems:\n  OMCG0008 Broken.a: the tool name 'bad name' is not valid",
    );
  });

  it('reports every problem of every provider in one error: definitions, scoped providers, name clashes', async () => {
    @Injectable()
    class First {
      @Tool() ping(): string {
        return 'pong';
      }
    }
    @Injectable({ scope: Scope.REQUEST })
    class Second {
      @Tool() ping(): string {
        return 'pong again';
      }
      @Tool('bad name') other(): void {}
    }
    @Injectable({ scope: Scope.TRANSIENT })
    class Third {
      @Tool() when(at: object): void {}
      @Tool() tags(list: string[]): number {
        return list.length;
      }
    }
    const error: DefinitionError = await boot(
      [McpModule.forRoot({ name: 'x', version: '1', transport: 'none' })],
      [First, Second, Third],
    ).then(
      () => Promise.reject(new Error('the application started')),
      (e: DefinitionError) => e,
    );
    expect(error).toBeInstanceOf(DefinitionError);
    expect(error.diagnostics.map((d) => `${d.code} ${d.where}`)).toEqual([
      'OMCG0008 Second.other',
      'OMCG0007 Second.ping',
      "OMCG0002 Third.when, parameter 'at'",
      "OMCG0005 Third.tags, parameter 'list'",
    ]);
    expect(error.message).toMatch(/^The Nest application has 4 definition problems:\n/);
  });

  it('serves a request-scoped provider with a new instance per call', async () => {
    let made = 0;
    @Injectable({ scope: Scope.REQUEST })
    class PerRequest {
      private readonly number = ++made;
      @Tool() ping(): string {
        return `pong ${this.number}`;
      }
    }
    const app = await boot([McpModule.forRoot({ name: 'x', version: '1', transport: 'none' })], [PerRequest]);
    const server = app.get(McpServer);
    const first = await server.callTool('ping', {});
    const second = await server.callTool('ping', {});
    expect([first.content, second.content]).toEqual([
      [{ type: 'text', text: `pong ${made - 1}` }],
      [{ type: 'text', text: `pong ${made}` }],
    ]);
    await app.close();
  });

  it('respects durable providers: a ContextIdStrategy given the RequestContext shares one instance per session', async () => {
    class PerSession implements ContextIdStrategy {
      private readonly sessions = new Map<string, ContextId>();
      attach(contextId: ContextId, request: RequestContext) {
        const session = request.sessionId ?? 'none';
        if (!this.sessions.has(session)) this.sessions.set(session, ContextIdFactory.create());
        const durable = this.sessions.get(session)!;
        return { resolve: (info: HostComponentInfo) => (info.isTreeDurable ? durable : contextId), payload: { session } };
      }
    }
    let made = 0;
    @Injectable({ scope: Scope.REQUEST, durable: true })
    class SessionTools {
      private readonly number = ++made;
      constructor(@Inject(REQUEST) private readonly payload: { session: string }) {}
      @Tool() which(): string {
        return `${this.number} ${this.payload.session}`;
      }
    }
    ContextIdFactory.apply(new PerSession());
    try {
      const app = await boot([McpModule.forRoot({ name: 'x', version: '1', transport: 'none' })], [SessionTools]);
      const server = app.get(McpServer);
      const call = async (sessionId: string) => (await server.callTool('which', {}, { context: { sessionId } })).content;
      expect([await call('a'), await call('a'), await call('b'), await call('a')]).toEqual([
        [{ type: 'text', text: '1 a' }],
        [{ type: 'text', text: '1 a' }],
        [{ type: 'text', text: '2 b' }],
        [{ type: 'text', text: '1 a' }],
      ]);
      await app.close();
    } finally {
      ContextIdFactory.apply({ attach: (contextId: ContextId) => () => contextId });
    }
  });
});
