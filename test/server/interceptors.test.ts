import {
  Int32,
  McpServer,
  Param,
  Prompt,
  Range,
  RequestContext,
  Resource,
  Tool,
  ToolError,
  type InterceptorContext,
  type LogDetails,
} from '../../src';
import { modernRequest, answerOf } from '../support/modern-http';
import { connected, ERAS } from './support';

/**
 * `server.use(interceptor)` (issue 41): code around every tool call, resource read and prompt, in registration
 * order, told the item and its read arguments, able to answer itself, refuse, retry or transform; what fails inside
 * is masked and logged as the method's failure is.
 */
class Shop {
  calls = 0;
  failuresLeft = 0;

  @Tool({ description: 'Adds two numbers' })
  add(@Param({ type: Int32 }) @Range(0, 100) a: number, @Param({ type: Int32 }) b: number): number {
    this.calls++;
    if (this.failuresLeft > 0) {
      this.failuresLeft--;
      throw new Error('flaky');
    }
    return a + b;
  }

  @Resource('shop://items/{id}')
  item(id: string): string {
    return `item ${id}`;
  }

  @Prompt()
  greet(name: string): string {
    return `Hello, ${name}`;
  }
}

interface Logged {
  readonly message: string;
  readonly details?: LogDetails;
}

function serverWith(shop: Shop) {
  const errors: Logged[] = [];
  const server = new McpServer(
    { name: 'shop', version: '1' },
    { logger: { error: (message, details) => void errors.push({ message, details }), warn() {}, info() {}, debug() {} } },
  ).add(shop);
  return { server, errors };
}

/** What an interceptor saw, without the request context (checked on its own). */
const seen = (context: InterceptorContext) => ({ kind: context.kind, name: context.name, args: { ...context.args } });

describe.each(ERAS)('server.use over a real SDK client (%s)', (_revision, mode) => {
  it('runs the interceptors in registration order around the method, told the item and its read arguments', async () => {
    const shop = new Shop();
    const { server } = serverWith(shop);
    const trail: string[] = [];
    const contexts: InterceptorContext[] = [];
    server
      .use(async (context, next) => {
        contexts.push(context);
        trail.push('outer in');
        const value = await next();
        trail.push(`outer out ${String(value)}`);
        return value;
      })
      .use(async (_context, next) => {
        trail.push('inner in');
        const value = await next();
        trail.push(`inner out ${String(value)}`);
        return value;
      });
    const { client } = await connected(server, mode);
    const result = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
    expect(result.content).toEqual([{ type: 'text', text: '5' }]);
    expect(trail).toEqual(['outer in', 'inner in', 'inner out 5', 'outer out 5']);
    expect(contexts.map(seen)).toEqual([{ kind: 'tool', name: 'add', args: { a: 2, b: 3 } }]);
    expect(contexts[0].request).toBeInstanceOf(RequestContext);
    expect(contexts[0].request.signal.aborted).toBe(false);
    expect(Object.isFrozen(contexts[0].args)).toBe(true);
    await client.close();
  });

  it('reaches resource reads and prompts with their text arguments by name', async () => {
    const { server } = serverWith(new Shop());
    const contexts: InterceptorContext[] = [];
    server.use((context, next) => {
      contexts.push(context);
      return next();
    });
    const { client } = await connected(server, mode);
    expect((await client.readResource({ uri: 'shop://items/7' })).contents).toEqual([
      { uri: 'shop://items/7', mimeType: 'text/plain', text: 'item 7' },
    ]);
    expect((await client.getPrompt({ name: 'greet', arguments: { name: 'Ada' } })).messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Hello, Ada' } },
    ]);
    expect(contexts.map(seen)).toEqual([
      { kind: 'resource', name: 'item', args: { id: '7' } },
      { kind: 'prompt', name: 'greet', args: { name: 'Ada' } },
    ]);
    await client.close();
  });
});

describe('what an interceptor may do', () => {
  it('answers itself (a cache hit): the method does not run, and the value is written as the method’s would be', async () => {
    const shop = new Shop();
    const { server } = serverWith(shop);
    server.use(async ({ args }, next) => (args.a === 1 ? 41 : next()));
    expect(await server.callTool('add', { a: 1, b: 1 })).toEqual({ content: [{ type: 'text', text: '41' }] });
    expect(shop.calls).toBe(0);
  });

  it('refuses with a ToolError: the model reads its message, the method does not run', async () => {
    const shop = new Shop();
    const { server, errors } = serverWith(shop);
    server.use(() => {
      throw new ToolError('Too many calls; try again in 30 s.');
    });
    expect(await server.callTool('add', { a: 1, b: 1 })).toEqual({
      content: [{ type: 'text', text: 'Too many calls; try again in 30 s.' }],
      isError: true,
    });
    expect(shop.calls).toBe(0);
    expect(errors).toEqual([]);
  });

  it('retries: next() runs the method again', async () => {
    const shop = new Shop();
    shop.failuresLeft = 2;
    const { server } = serverWith(shop);
    server.use(async (_context, next) => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await next();
        } catch (error) {
          if (attempt === 3) throw error;
        }
      }
    });
    expect(await server.callTool('add', { a: 1, b: 2 })).toEqual({ content: [{ type: 'text', text: '3' }] });
    expect(shop.calls).toBe(3);
  });

  it('transforms the result before it is written', async () => {
    const { server } = serverWith(new Shop());
    server.use(async (_context, next) => ((await next()) as number) * 10);
    expect(await server.callTool('add', { a: 1, b: 2 })).toEqual({ content: [{ type: 'text', text: '30' }] });
  });

  it('fails: the client gets the masked failure, the developer a log line with the error', async () => {
    const { server, errors } = serverWith(new Shop());
    const bug = new TypeError('interceptor bug');
    server.use(() => {
      throw bug;
    });
    expect(await server.callTool('add', { a: 1, b: 2 })).toEqual({ content: [{ type: 'text', text: 'The tool failed.' }], isError: true });
    expect(errors).toEqual([
      {
        message: "Tool 'add' failed: TypeError: interceptor bug",
        details: expect.objectContaining({ event: 'tool.failed', tool: 'add', error: bug }),
      },
    ]);
  });

  it('fails around a resource: the client gets the masked failure, the developer a log line', async () => {
    const { server, errors } = serverWith(new Shop());
    server.use(() => Promise.reject(new Error('cache down')));
    const { client } = await connected(server, 'legacy');
    await expect(client.readResource({ uri: 'shop://items/7' })).rejects.toThrow('The resource failed.');
    expect(errors.map((e) => e.message)).toEqual(["Resource 'item' failed (request 1): Error: cache down"]);
    await client.close();
  });
});

describe('when interceptors run', () => {
  it('not for arguments that fail reading: the refusal names them before any interceptor is asked', async () => {
    const { server } = serverWith(new Shop());
    const asked: string[] = [];
    server.use((context, next) => {
      asked.push(context.name);
      return next();
    });
    const result = await server.callTool('add', { a: 500, b: 1 });
    expect(result.isError).toBe(true);
    expect(asked).toEqual([]);
  });

  it('from the next call on: registered after the items, or while a call runs', async () => {
    const { server } = serverWith(new Shop());
    expect(await server.callTool('add', { a: 1, b: 2 })).toEqual({ content: [{ type: 'text', text: '3' }] });
    const trail: string[] = [];
    server.use(async (_context, next) => {
      trail.push('first');
      server.use(async (_c, n) => {
        trail.push('second');
        return n();
      });
      return next();
    });
    await server.callTool('add', { a: 1, b: 2 });
    expect(trail).toEqual(['first']);
    trail.length = 0;
    await server.callTool('add', { a: 1, b: 2 });
    expect(trail).toEqual(['first', 'second']);
  });

  it('around the quick path, with the handler’s arguments by name', async () => {
    const server = new McpServer({ name: 'quick', version: '1' }, { logger: false }).tool(
      'double',
      { params: { n: Int32 } },
      ({ n }) => (n as number) * 2,
    );
    const contexts: InterceptorContext[] = [];
    server.use((context, next) => {
      contexts.push(context);
      return next();
    });
    expect(await server.callTool('double', { n: 4 })).toEqual({ content: [{ type: 'text', text: '8' }] });
    expect(contexts.map(seen)).toEqual([{ kind: 'tool', name: 'double', args: { n: 4 } }]);
  });

  it('over HTTP on the hot path, where the request context carries the HTTP request', async () => {
    const { server } = serverWith(new Shop());
    const agents: unknown[] = [];
    server.use((context, next) => {
      agents.push(context.request.http?.headers['user-agent']);
      return next();
    });
    const { port } = await server.serveHttp({ port: 0, host: '127.0.0.1' });
    try {
      const answer = answerOf(
        await modernRequest(
          `http://127.0.0.1:${port}/mcp`,
          'tools/call',
          { name: 'add', arguments: { a: 2, b: 2 } },
          { headers: { 'user-agent': 'probe/1' } },
        ),
      );
      expect((answer.result as { content: unknown }).content).toEqual([{ type: 'text', text: '4' }]);
      expect(agents).toEqual(['probe/1']);
    } finally {
      await server.close();
    }
  });

  it('refuses what is not a function, saying what it takes', () => {
    const { server } = serverWith(new Shop());
    expect(() => server.use({} as never)).toThrow(
      new TypeError('server.use() takes an interceptor function, for example server.use((call, next) => next()).'),
    );
  });
});
