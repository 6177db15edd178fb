import { Injectable, UseInterceptors, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { tap } from 'rxjs';
import { McpServer, Tool, UsageError, type InterceptorContext } from '../../src';
import { McpModule, type McpInterceptor } from '../../src/nest';
import { NestApps } from '../support/nest-app';
import { answerOf, modernRequest } from '../support/modern-http';

/**
 * `McpModule.forRoot({ interceptors })` (issue 41): functions and providers of the application around every MCP
 * call, outermost first, with Nest's own enhancers inside them.
 */
const trail: string[] = [];

@Injectable()
class Clock {
  now(): string {
    return 'tick';
  }
}

@Injectable()
class Timed implements McpInterceptor {
  constructor(private readonly clock: Clock) {}

  async intercept(context: InterceptorContext, next: () => Promise<unknown>): Promise<unknown> {
    trail.push(`provider ${context.name} ${this.clock.now()}`);
    return next();
  }
}

class NestSide implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler) {
    trail.push('nest interceptor');
    return next.handle().pipe(tap(() => trail.push('nest interceptor after')));
  }
}

@Injectable()
class Orders {
  @Tool()
  @UseInterceptors(NestSide)
  count(): number {
    trail.push('method');
    return 3;
  }
}

describe('McpModule.forRoot({ interceptors })', () => {
  const apps = new NestApps('nest-interceptors', [Orders, Clock, Timed]);
  afterAll(() => apps.close());

  it('runs a function and a provider (with its dependencies) around the call, Nest’s enhancers inside them', async () => {
    trail.length = 0;
    const url = await apps.serve({
      interceptors: [
        async (context, next) => {
          trail.push(`function ${context.kind} ${context.name}`);
          return next();
        },
        Timed,
      ],
    });
    const answer = answerOf(await modernRequest(url, 'tools/call', { name: 'count', arguments: {} }));
    expect((answer.result as { content: unknown }).content).toEqual([{ type: 'text', text: '3' }]);
    expect(trail).toEqual(['function tool count', 'provider count tick', 'nest interceptor', 'method', 'nest interceptor after']);
  });

  it('stops the start when a class the application does not provide is named', async () => {
    class Unprovided implements McpInterceptor {
      intercept(_context: InterceptorContext, next: () => Promise<unknown>) {
        return next();
      }
    }
    const moduleRef = await Test.createTestingModule({
      imports: [McpModule.forRoot({ name: 'x', version: '1', transport: 'none', logger: false, interceptors: [Unprovided] })],
      providers: [Orders],
    }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    const started = app.init();
    const error = await started.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe(
      "McpModule's interceptors name Unprovided, which the application does not provide: add it to the providers of a module.",
    );
    await app.close();
  });

  it('is the same server.use: the module’s server runs them for in-process calls too', async () => {
    trail.length = 0;
    const moduleRef = await Test.createTestingModule({
      imports: [McpModule.forRoot({ name: 'x', version: '1', transport: 'none', logger: false, interceptors: [Timed] })],
      providers: [Orders, Clock, Timed],
    }).compile();
    const app = await moduleRef.createNestApplication({ logger: false }).init();
    expect(await app.get(McpServer).callTool('count', {})).toEqual({ content: [{ type: 'text', text: '3' }] });
    expect(trail).toEqual(['provider count tick', 'nest interceptor', 'method', 'nest interceptor after']);
    await app.close();
  });
});
