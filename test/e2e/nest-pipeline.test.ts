import type { INestApplication } from '@nestjs/common';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { connectClient, textOf, type TestClient } from './support/clients';
import { CapturingLogger, PipelineModule, Seen } from './support/nest-pipeline-app';

/**
 * Nest's enhancer pipeline on MCP calls, on a real application over HTTP (Express, ahead of its router and
 * through it, and Fastify) with a real SDK client: global, class and method guards, interceptors and exception
 * filters, HTTP exceptions, masked failures logged through the application's logger, request-scoped and
 * transient providers.
 */
jest.setTimeout(60_000);

/** What a result says, without the `_meta` the 2026-07-28 era adds. */
function answer(result: Record<string, unknown>): Record<string, unknown> {
  return 'isError' in result ? { content: result.content, isError: result.isError } : { content: result.content };
}

/** `express` answers the MCP path ahead of Express's router (the default), `express-routed` through it (`bypassRouter: false`). */
type Adapter = 'express' | 'express-routed' | 'fastify';

async function start(adapter: Adapter, options: { denyAll?: boolean } = {}) {
  const mcp = adapter === 'express-routed' ? { bypassRouter: false } : {};
  const moduleRef = await Test.createTestingModule({ imports: [PipelineModule.register({ ...options, mcp })] }).compile();
  const logger = new CapturingLogger();
  const app: INestApplication =
    adapter === 'fastify' ? moduleRef.createNestApplication(new FastifyAdapter(), { logger }) : moduleRef.createNestApplication({ logger });
  await app.listen(0, '127.0.0.1');
  const url = new URL(`${await app.getUrl()}/mcp`.replace('[::1]', '127.0.0.1'));
  const client = await connectClient({ client: 'v2' }, 'http', url);
  return { app, client, logger, seen: app.get(Seen) };
}

describe.each(['express', 'express-routed', 'fastify'] as const)('Nest pipeline on %s', (adapter) => {
  describe('with a global guard that denies everything', () => {
    let app: INestApplication;
    let client: TestClient;
    let seen: Seen;
    beforeAll(async () => ({ app, client, seen } = await start(adapter, { denyAll: true })));
    afterAll(async () => {
      await client.close();
      await app.close();
    });

    it.each(['get_order', 'shout', 'who_am_i', 'transient_number', 'cached'])('refuses %s before its method runs', async (tool) => {
      const result = await client.callTool(tool, tool === 'get_order' ? { id: 1 } : tool === 'shout' ? { text: 'hi' } : {});
      expect(answer(result)).toEqual({ content: [{ type: 'text', text: `The call to tool '${tool}' was refused.` }], isError: true });
      expect(seen.calls).toBe(0);
    });
  });

  describe('with guards, interceptors and filters', () => {
    let app: INestApplication;
    let client: TestClient;
    let logger: CapturingLogger;
    let seen: Seen;
    beforeAll(async () => ({ app, client, logger, seen } = await start(adapter)));
    afterAll(async () => {
      await client.close();
      await app.close();
    });

    it('runs a tool through the class guard, which reads the call through McpExecutionContext', async () => {
      const result = await client.callTool('get_order', { id: 1 });
      expect(answer(result)).toEqual({ content: [{ type: 'text', text: 'order 1: 3 widgets' }] });
      expect(seen.guardSaw.at(-1)).toEqual({ kind: 'tool', name: 'get_order', args: { id: 1 }, requestId: expect.anything() });
    });

    it('answers a guard that throws ForbiddenException with a refusal that carries none of its text', async () => {
      const calls = seen.calls;
      const result = await client.callTool('get_order', { id: 13 });
      expect(answer(result)).toEqual({ content: [{ type: 'text', text: "The call to tool 'get_order' was refused." }], isError: true });
      expect(seen.calls).toBe(calls);
    });

    it('refuses the one tool whose method guard says no', async () => {
      const calls = seen.calls;
      expect(textOf(await client.callTool('delete_order', { id: 1 }))).toBe("The call to tool 'delete_order' was refused.");
      expect(seen.calls).toBe(calls);
    });

    it('answers a 4xx HttpException as an error result carrying its message', async () => {
      const result = await client.callTool('get_order', { id: 42 });
      expect(answer(result)).toEqual({ content: [{ type: 'text', text: 'Order 42 not found' }], isError: true });
    });

    it('lets a filter turn a domain error into a result', async () => {
      const result = await client.callTool('close_order', { id: 7 });
      expect(answer(result)).toEqual({
        content: [{ type: 'text', text: 'Order 7 is closed; close_order cannot change it.' }],
        isError: true,
      });
    });

    it('masks a thrown Error, without the ExceptionsHandler line Nest writes for other external contexts', async () => {
      const result = await client.callTool('explode', {});
      expect(answer(result)).toEqual({ content: [{ type: 'text', text: 'The tool failed.' }], isError: true });
      expect(logger.lines.some((l) => l.level === 'error' && String(l.rest.at(-1)) === 'ExceptionsHandler')).toBe(false);
    });

    it("logs the masked failure through the application's logger by default: tool, request id, stack, context McpServer", async () => {
      const before = logger.lines.length;
      await client.callTool('explode', {});
      const lines = logger.lines.slice(before).filter((l) => l.rest.at(-1) === 'McpServer');
      expect(lines).toEqual([
        {
          level: 'error',
          message: expect.stringMatching(
            /^Tool 'explode' failed \(request \d+\): Error: connection to db-7\.internal refused \(password=hunter2\)$/,
          ),
          rest: [
            expect.stringMatching(
              /^Error: connection to db-7\.internal refused \(password=hunter2\)\n\s+at \S+ \(.*nest-pipeline-app\.ts:\d+:\d+\)/,
            ),
            'McpServer',
          ],
        },
      ]);
    });

    it('masks a 5xx HttpException', async () => {
      expect(answer(await client.callTool('unavailable', {}))).toEqual({
        content: [{ type: 'text', text: 'The tool failed.' }],
        isError: true,
      });
    });

    it('answers a ToolError with its message, without logging it', async () => {
      const before = logger.lines.filter((l) => l.level === 'error').length;
      expect(answer(await client.callTool('domain_error', {}))).toEqual({
        content: [{ type: 'text', text: 'Orders are read-only during the audit.' }],
        isError: true,
      });
      expect(logger.lines.filter((l) => l.level === 'error')).toHaveLength(before);
    });

    it('lets a global interceptor time each call and see its result before it is written', async () => {
      await client.callTool('get_order', { id: 1 });
      const timing = seen.timings.at(-1)!;
      expect(timing).toEqual({ tool: 'get_order', ms: expect.any(Number), result: 'order 1: 3 widgets' });
      expect(timing.ms).toBeGreaterThanOrEqual(0);
    });

    it('lets a method interceptor map the result', async () => {
      expect(answer(await client.callTool('shout', { text: 'quiet please' }))).toEqual({
        content: [{ type: 'text', text: 'QUIET PLEASE' }],
      });
    });

    it('runs method pipes on each read argument as a custom argument with its index', async () => {
      expect(textOf(await client.callTool('echo', { text: '  hi  ', times: 2 }))).toBe('hi|hi');
      expect(seen.pipeSaw.slice(-2)).toEqual([
        { type: 'custom', metatype: String, data: 0 },
        { type: 'custom', metatype: Number, data: 1 },
      ]);
    });

    it('lets an interceptor answer without calling the method', async () => {
      const calls = seen.calls;
      expect(textOf(await client.callTool('cached', {}))).toBe('from the cache');
      expect(seen.calls).toBe(calls);
    });

    it('gives a request-scoped provider a new instance per call, holding that call’s RequestContext', async () => {
      const first = JSON.parse(textOf(await client.callTool('who_am_i', {})));
      const second = JSON.parse(textOf(await client.callTool('who_am_i', {})));
      expect(first.sameContext).toBe(true);
      expect(second.sameContext).toBe(true);
      expect(second.instance).toBe(first.instance + 1);
      expect(second.requestId).not.toEqual(first.requestId);
    });

    it('gives a transient provider a new instance per call', async () => {
      const first = Number(textOf(await client.callTool('transient_number', {})));
      const second = Number(textOf(await client.callTool('transient_number', {})));
      expect(second).toBe(first + 1);
    });

    it('answers a NotFoundException of a resource as resource not found, and guards prompts', async () => {
      const found = await client.readResource('orders://1');
      expect(found.contents).toEqual([{ uri: 'orders://1', mimeType: 'text/plain', text: 'order 1' }]);
      await expect(client.readResource('orders://2')).rejects.toThrow(/Resource not found/);
      await expect(client.getPrompt('secret_prompt', {})).rejects.toThrow(/The call to prompt 'secret_prompt' was refused\./);
    });
  });
});
