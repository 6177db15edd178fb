import { Controller, Get, Injectable, type INestApplication, type OnApplicationShutdown } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
/** Express itself, as the application has it (the package ships no types of its own). */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const express = require('express') as {
  json(options: {
    verify(req: IncomingMessage, res: ServerResponse, buffer: Buffer): void;
  }): (req: IncomingMessage, res: ServerResponse, next: () => void) => void;
};
import { connectClient, textOf, type Flavour, type TestClient } from './support/clients';
import { CapturingLogger, PipelineModule, Seen } from './support/nest-pipeline-app';

/**
 * `bypassRouter` on a real Express application over real HTTP: ahead of the router, POST, GET and DELETE of the
 * MCP path are answered before Express's middleware and router, and everything a Nest user relies on behaves as
 * when they go through Express (guards, interceptors, filters, pipes, request scope through the module's own
 * pipeline; the global prefix, the module's CORS, shutdown hooks). With `bypassRouter: false` Express's
 * middleware and body parser see the MCP requests again. Left unset, the fast path runs the application's own
 * middleware on the path first, when it has any (test/e2e/nest-middleware.test.ts).
 */
jest.setTimeout(60_000);

const ORIGIN = 'https://host.example';

@Controller('health')
class HealthController {
  @Get()
  health(): string {
    return 'ok';
  }
}

/** Records that the application's shutdown hooks ran. */
@Injectable()
class ShutdownProbe implements OnApplicationShutdown {
  static signals: (string | undefined)[] = [];
  onApplicationShutdown(signal?: string): void {
    ShutdownProbe.signals.push(signal);
  }
}

interface Started {
  readonly app: INestApplication;
  readonly base: string;
  readonly logger: CapturingLogger;
  /** The paths Express middleware registered with `app.use()` saw, in order. */
  readonly middlewareSaw: string[];
}

async function start(
  bypassRouter: boolean | undefined,
  { middleware = true, configure }: { middleware?: boolean; configure?: (app: NestExpressApplication) => void } = {},
): Promise<Started> {
  const mcp = { cors: { origins: [ORIGIN] }, ...(bypassRouter === undefined ? {} : { bypassRouter }) };
  const moduleRef = await Test.createTestingModule({
    imports: [PipelineModule.register({ mcp })],
    controllers: [HealthController],
    providers: [ShutdownProbe],
  }).compile();
  const logger = new CapturingLogger();
  const app = moduleRef.createNestApplication<NestExpressApplication>({ logger });
  const middlewareSaw: string[] = [];
  app.setGlobalPrefix('api');
  app.enableShutdownHooks();
  if (middleware) {
    app.use(function recordPath(req: IncomingMessage, _res: ServerResponse, next: () => void) {
      middlewareSaw.push(`${req.method} ${req.url}`);
      next();
    });
  }
  configure?.(app);
  await app.listen(0, '127.0.0.1');
  const base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  return { app, base, logger, middlewareSaw };
}

const MODERN_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/list',
};

/** A 2026-07-28 tools/list, whose body is padded with `padding` characters of `_meta`. */
function toolsList(padding = 0): string {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'bypass-test', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
    ...(padding > 0 && { 'example.com/padding': 'x'.repeat(padding) }),
  };
  return JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta } });
}

describe.each([
  ['ahead of the router (bypassRouter: true)', true],
  ['through Express (bypassRouter: false)', false],
] as const)('McpModule on Express, %s', (_name, bypassRouter) => {
  const routed = bypassRouter === false;
  let started: Started;
  beforeAll(async () => {
    started = await start(bypassRouter);
  });
  afterAll(() => started.app.close());

  describe.each([
    ['v1 client, 2025-11-25 session', { client: 'v1', version: '2025-11-25' } as Flavour],
    ['v2 client, 2026-07-28', { client: 'v2' } as Flavour],
  ])('%s', (_client, flavour) => {
    let client: TestClient;
    beforeAll(async () => {
      client = await connectClient(flavour, 'http', new URL(`${started.base}/mcp`));
    });
    afterAll(() => client.close());

    it('runs guards, interceptors, filters, pipes and request-scoped providers as before', async () => {
      const seen = started.app.get(Seen);
      expect(textOf(await client.callTool('get_order', { id: 1 }))).toBe('order 1: 3 widgets');
      expect(seen.guardSaw.at(-1)).toEqual({ kind: 'tool', name: 'get_order', args: { id: 1 }, requestId: expect.anything() });
      expect(seen.timings.at(-1)).toEqual({ tool: 'get_order', ms: expect.any(Number), result: 'order 1: 3 widgets' });
      expect(textOf(await client.callTool('get_order', { id: 13 }))).toBe("The call to tool 'get_order' was refused.");
      expect(textOf(await client.callTool('shout', { text: 'quiet please' }))).toBe('QUIET PLEASE');
      expect(textOf(await client.callTool('close_order', { id: 7 }))).toBe('Order 7 is closed; close_order cannot change it.');
      expect(textOf(await client.callTool('echo', { text: '  hi  ', times: 2 }))).toBe('hi|hi');
      expect(seen.pipeSaw.at(-1)).toEqual({ type: 'custom', metatype: Number, data: 1 });
      const first = JSON.parse(textOf(await client.callTool('who_am_i', {})));
      const second = JSON.parse(textOf(await client.callTool('who_am_i', {})));
      expect([first.sameContext, second.sameContext, second.instance - first.instance]).toEqual([true, true, 1]);
    });
  });

  it(routed ? 'lets Express middleware see the MCP requests' : 'answers the MCP requests before any Express middleware', async () => {
    started.middlewareSaw.length = 0;
    const answer = await fetch(`${started.base}/mcp`, { method: 'POST', headers: MODERN_HEADERS, body: toolsList() });
    expect(answer.status).toBe(200);
    expect(started.middlewareSaw).toEqual(routed ? ['POST /mcp'] : []);
  });

  it('writes the X-Powered-By header Express writes', async () => {
    const answer = await fetch(`${started.base}/mcp`, { method: 'POST', headers: MODERN_HEADERS, body: toolsList() });
    expect(answer.headers.get('x-powered-by')).toBe('Express');
  });

  it('leaves the other routes to Express under the global prefix, which the MCP path does not take', async () => {
    started.middlewareSaw.length = 0;
    const health = await fetch(`${started.base}/api/health`);
    expect([health.status, await health.text()]).toEqual([200, 'ok']);
    expect(started.middlewareSaw).toEqual(['GET /api/health']);
    const prefixed = await fetch(`${started.base}/api/mcp`, { method: 'POST', headers: MODERN_HEADERS, body: toolsList() });
    expect(prefixed.status).toBe(404);
  });

  it("answers other spellings of the path through Express's route, as before", async () => {
    started.middlewareSaw.length = 0;
    const answer = await fetch(`${started.base}/MCP/`, { method: 'POST', headers: MODERN_HEADERS, body: toolsList() });
    expect(answer.status).toBe(200);
    expect(started.middlewareSaw).toEqual(['POST /MCP/']);
  });

  it("applies the module's CORS: preflight and the allowed origin echoed", async () => {
    const preflight = await fetch(`${started.base}/mcp`, {
      method: 'OPTIONS',
      headers: {
        origin: ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, mcp-protocol-version',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    const answer = await fetch(`${started.base}/mcp`, {
      method: 'POST',
      headers: { ...MODERN_HEADERS, origin: ORIGIN },
      body: toolsList(),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    const stranger = await fetch(`${started.base}/mcp`, {
      method: 'POST',
      headers: { ...MODERN_HEADERS, origin: 'https://evil.example' },
      body: toolsList(),
    });
    expect(stranger.status).toBe(403);
  });

  it(
    routed
      ? "refuses a body over Express's JSON parser limit (100 KB) in Express's body parser"
      : "reads a body over Express's JSON parser limit itself, within the endpoint's own 4 MiB",
    async () => {
      const answer = await fetch(`${started.base}/mcp`, { method: 'POST', headers: MODERN_HEADERS, body: toolsList(200_000) });
      expect(answer.status).toBe(routed ? 413 : 200);
    },
  );

  it('logs nothing about the way MCP requests take at start-up, since the option says which', () => {
    expect(started.logger.lines.filter((l) => l.rest.at(-1) === 'McpModule' && String(l.message).includes('bypassRouter'))).toEqual([]);
  });
});

/** What the module logged at start-up about the way MCP requests take. */
function wayLines(logger: CapturingLogger): { level: string; message: unknown }[] {
  return logger.lines
    .filter((l) => l.rest.at(-1) === 'McpModule' && String(l.message).includes('bypassRouter'))
    .map(({ level, message }) => ({ level, message }));
}

/** The module's start-up line saying where MCP requests are served. */
function servingLines(logger: CapturingLogger): unknown[] {
  return logger.lines.filter((l) => l.rest.at(-1) === 'McpModule' && String(l.message).startsWith('Serving MCP')).map((l) => l.message);
}

const through = (names: string) =>
  `Serving MCP over HTTP at /mcp, ahead of Express's router, through the application's middleware on the path (${names})`;

describe('McpModule on Express, bypassRouter unset', () => {
  it('runs the application’s middleware on the path for MCP requests ahead of the router, and says so once (issue 39)', async () => {
    const { app, base, logger, middlewareSaw } = await start(undefined);
    const answer = await fetch(`${base}/mcp`, { method: 'POST', headers: MODERN_HEADERS, body: toolsList() });
    const oversized = await fetch(`${base}/mcp`, { method: 'POST', headers: MODERN_HEADERS, body: toolsList(200_000) });
    await app.close();
    // Nest's own JSON parser (100 KB) is left out: the endpoint reads the body itself, up to 4 MiB.
    expect([answer.status, oversized.status]).toEqual([200, 200]);
    expect(middlewareSaw).toEqual(['POST /mcp', 'POST /mcp']);
    expect(servingLines(logger)).toEqual([through('recordPath')]);
    expect(wayLines(logger)).toEqual([]);
  });

  it('answers ahead of Express when nothing of the application is on the path, and logs nothing about it', async () => {
    const { app, base, logger } = await start(undefined, { middleware: false });
    const oversized = await fetch(`${base}/mcp`, { method: 'POST', headers: MODERN_HEADERS, body: toolsList(200_000) });
    await app.close();
    // Express's body parser would answer 413 over 100 KB; the endpoint reads up to 4 MiB itself.
    expect(oversized.status).toBe(200);
    expect(wayLines(logger)).toEqual([]);
    expect(logger.lines.filter((l) => l.rest.at(-1) === 'McpModule').map((l) => l.message)).toContain(
      "Serving MCP over HTTP at /mcp, ahead of Express's router",
    );
  });
});

describe('the bypass knows Nest’s own layers by identity, not by name (issue 37)', () => {
  it('runs the application’s own express.json({ verify }) for MCP requests: the check runs, and the log names it', async () => {
    const verified: string[] = [];
    const verify = (_req: IncomingMessage, _res: ServerResponse, buffer: Buffer) =>
      void verified.push(buffer.toString('utf8').slice(0, 20));
    const { app, base, logger } = await start(undefined, { middleware: false, configure: (a) => a.use(express.json({ verify })) });
    const answer = await fetch(`${base}/mcp`, { method: 'POST', headers: MODERN_HEADERS, body: toolsList() });
    await app.close();
    expect(answer.status).toBe(200);
    expect(verified).toEqual([toolsList().slice(0, 20)]);
    expect(servingLines(logger)).toEqual([through('jsonParser')]);
  });

  it("runs useBodyParser's parser for MCP requests, under its own limit: a 20 KB body over a 1 KB limit is answered 413", async () => {
    const { app, base, logger } = await start(undefined, {
      middleware: false,
      configure: (a) => a.useBodyParser('json', { limit: '1kb' }),
    });
    const small = await fetch(`${base}/mcp`, { method: 'POST', headers: MODERN_HEADERS, body: toolsList() });
    const large = await fetch(`${base}/mcp`, { method: 'POST', headers: MODERN_HEADERS, body: toolsList(20_000) });
    await app.close();
    expect([small.status, large.status]).toEqual([200, 413]);
    expect(servingLines(logger)).toEqual([through('jsonParser')]);
  });

  it('does not take a middleware whose source mentions isShuttingDown for Nest’s own', async () => {
    const saw: string[] = [];
    const { app, base, logger } = await start(undefined, {
      middleware: false,
      configure: (a) =>
        a.use(function drainGuard(req: IncomingMessage, _res: ServerResponse, next: () => void) {
          const isShuttingDown = false;
          if (!isShuttingDown) saw.push(`${req.method} ${req.url}`);
          next();
        }),
    });
    await fetch(`${base}/mcp`, { method: 'POST', headers: MODERN_HEADERS, body: toolsList() });
    await app.close();
    expect(saw).toEqual(['POST /mcp']);
    expect(servingLines(logger)).toEqual([through('drainGuard')]);
  });
});

it('closes with an open 2025-era GET stream, running the shutdown hooks, with requests on the fast path', async () => {
  ShutdownProbe.signals = [];
  const { app, base } = await start(true);
  // The v1 client opens its GET stream once the session is initialized.
  const client = new V1Client({ name: 'shutdown-test', version: '1.0.0' });
  await client.connect(new V1Http(new URL(`${base}/mcp`)));
  const result = await client.callTool({ name: 'get_order', arguments: { id: 1 } });
  expect(result.content).toEqual([{ type: 'text', text: 'order 1: 3 widgets' }]);
  await app.close();
  expect(ShutdownProbe.signals).toEqual([undefined]);
  await expect(fetch(`${base}/mcp`, { method: 'POST', headers: MODERN_HEADERS, body: toolsList() })).rejects.toThrow('fetch failed');
  await client.close();
});

it('routes MCP requests through Express while the adapter has a request hook, which then sees them', async () => {
  const { app, base, middlewareSaw } = await start(true);
  const hooked: string[] = [];
  const adapter = app.getHttpAdapter() as unknown as {
    setOnRequestHook(hook: (req: IncomingMessage, res: ServerResponse, done: () => void) => void): void;
  };
  adapter.setOnRequestHook((req, _res, done) => {
    hooked.push(`${req.method} ${req.url}`);
    done();
  });
  const answer = await fetch(`${base}/mcp`, { method: 'POST', headers: MODERN_HEADERS, body: toolsList() });
  await app.close();
  expect(answer.status).toBe(200);
  expect([hooked, middlewareSaw]).toEqual([['POST /mcp'], ['POST /mcp']]);
});

it('answers with the same status, headers and body ahead of the router as through it, a malformed body aside', async () => {
  const apps = [await start(true), await start(false)];
  const exchange = async ({ base }: Started, body: string) => {
    const answer = await fetch(`${base}/mcp`, { method: 'POST', headers: { ...MODERN_HEADERS, origin: ORIGIN }, body });
    const headers = [...answer.headers].filter(([name]) => name !== 'date');
    return { status: answer.status, headers, body: await answer.text() };
  };
  const [fast, routed] = [await exchange(apps[0], toolsList()), await exchange(apps[1], toolsList())];
  const [fastBad, routedBad] = [await exchange(apps[0], '{"jsonrpc":'), await exchange(apps[1], '{"jsonrpc":')];
  await Promise.all(apps.map(({ app }) => app.close()));
  expect(fast).toEqual(routed);
  expect(fast.status).toBe(200);
  // The documented difference: a malformed body is answered by the endpoint (as serveHttp answers it), not by
  // Express's body parser through Nest's exception handler.
  expect([fastBad.status, fastBad.body]).toEqual([
    400,
    '{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error: the request body is not valid JSON."},"id":null}',
  ]);
  expect([routedBad.status, routedBad.body]).toEqual([
    400,
    '{"message":"Unexpected end of JSON input","error":"Bad Request","statusCode":400}',
  ]);
});
