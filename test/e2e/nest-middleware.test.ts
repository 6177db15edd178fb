import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  Controller,
  Get,
  Injectable,
  Module,
  Post,
  UnauthorizedException,
  UseGuards,
  type CanActivate,
  type ExecutionContext,
  type MiddlewareConsumer,
  type NestMiddleware,
  type NestModule,
} from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { NestExpressApplication } from '@nestjs/platform-express';
import helmet from 'helmet';
import { Tool } from '../../src';
import { McpModule } from '../../src/nest';
import { CapturingLogger } from './support/nest-pipeline-app';

/**
 * Issue 39: a Nest application on Express with middleware of its own on the MCP path (cors, helmet, a request
 * logger and an authentication middleware through `MiddlewareConsumer`, a global prefix). With `bypassRouter`
 * unset, MCP requests are answered ahead of Express's router and that middleware runs for them exactly as for a
 * controller: the same headers, the same request and response objects with Express's methods, a middleware that
 * answers or calls `next(err)` honoured, in order; a guard reading the HTTP request sees what middleware set.
 */
jest.setTimeout(60_000);

/** What the middleware saw, in the order it ran. */
const ran: string[] = [];
/** What the request logger saw of each finished request. */
const logged: { url: unknown; status: number; sameReq: boolean; sameRes: boolean; express: unknown[] }[] = [];
const guardSaw: unknown[] = [];

type ExpressReq = IncomingMessage & {
  originalUrl?: string;
  path?: string;
  ip?: string;
  user?: unknown;
  res?: unknown;
  get?(name: string): string | undefined;
};
type ExpressRes = ServerResponse & { req?: unknown; locals?: Record<string, unknown> };

@Injectable()
class RequestLogger implements NestMiddleware {
  use(req: ExpressReq, res: ExpressRes, next: () => void): void {
    ran.push(`logger ${req.method} ${req.originalUrl}`);
    res.locals!.started = true;
    res.on('finish', () =>
      logged.push({
        url: req.originalUrl,
        status: res.statusCode,
        sameReq: res.req === req,
        sameRes: req.res === res,
        express: [req.path, req.get?.('x-probe'), typeof req.ip, res.locals?.started],
      }),
    );
    next();
  }
}

/** Signs the caller in from a header; refuses with 401 itself, or through Nest's exception handler. */
@Injectable()
class Authenticate implements NestMiddleware {
  use(req: ExpressReq, res: ExpressRes, next: (error?: unknown) => void): void {
    ran.push(`auth ${req.method} ${req.originalUrl}`);
    const token = req.headers['x-token'];
    if (token === 'refuse') {
      res.statusCode = 401;
      res.setHeader('content-type', 'text/plain');
      res.end('no entry');
      return;
    }
    if (token === 'throw') return next(new UnauthorizedException('The token is not valid.'));
    req.user = { name: String(token ?? 'anonymous') };
    next();
  }
}

/** Runs only under the global prefix (`forRoutes('health')` is prefixed): never for the MCP path. */
@Injectable()
class HealthOnly implements NestMiddleware {
  use(req: ExpressReq, _res: ExpressRes, next: () => void): void {
    ran.push(`health-only ${req.method} ${req.originalUrl}`);
    next();
  }
}

@Injectable()
class UserGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    guardSaw.push(context.switchToHttp().getRequest<ExpressReq>().user);
    return true;
  }
}

@Injectable()
class Greeter {
  @Tool()
  @UseGuards(UserGuard)
  greet(): string {
    return 'hello';
  }
}

@Controller('hello')
class HelloController {
  @Post()
  hello(): string {
    return 'hello';
  }
}

@Controller('health')
class HealthController {
  @Get()
  health(): string {
    return 'ok';
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'mw', version: '1.0.0' })],
  controllers: [HelloController, HealthController],
  providers: [Greeter],
})
class AppModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(RequestLogger, Authenticate).forRoutes('*');
    consumer.apply(HealthOnly).forRoutes('health');
  }
}

let app: NestExpressApplication;
let base: string;
const logger = new CapturingLogger();

beforeAll(async () => {
  const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile();
  app = moduleRef.createNestApplication<NestExpressApplication>({ logger });
  // `hello` and the MCP path are left out of the prefix: the logger's '*' covers them, as Nest documents.
  app.setGlobalPrefix('api', { exclude: ['mcp', 'hello'] });
  app.enableCors();
  app.use(helmet());
  // A middleware that sends a request elsewhere: Express matches what follows against the new path.
  app.use(function rewrite(req: IncomingMessage, _res: ServerResponse, next: () => void) {
    if (req.headers['x-rewrite'] !== undefined) req.url = String(req.headers['x-rewrite']);
    next();
  });
  await app.listen(0, '127.0.0.1');
  base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
});
afterAll(() => app.close());
beforeEach(() => {
  ran.length = 0;
  logged.length = 0;
  guardSaw.length = 0;
});

const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': 'greet',
  'x-probe': 'probe',
};
const CALL = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: {
    name: 'greet',
    arguments: {},
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'mw-test', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  },
});

/** The answer's headers that middleware sets (those of the answer itself left out), sorted by name. */
async function middlewareHeaders(answer: Response): Promise<[string, string][]> {
  await answer.text();
  const own = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive', 'etag', 'mcp-session-id']);
  return [...answer.headers].filter(([name]) => !own.has(name)).sort(([a], [b]) => a.localeCompare(b));
}

const post = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, { method: 'POST', headers: { ...HEADERS, ...headers }, body: CALL });

it('serves MCP ahead of the router through the middleware, and says so at start-up', () => {
  const lines = logger.lines.filter((l) => l.rest.at(-1) === 'McpModule' && String(l.message).startsWith('Serving MCP'));
  expect(lines.map((l) => l.message)).toEqual([
    "Serving MCP over HTTP at /mcp, ahead of Express's router, through the application's middleware on the path " +
      '(corsMiddleware, helmetMiddleware, rewrite, handler, handler)', // Nest names each MiddlewareConsumer middleware `handler`
  ]);
});

it('sets the same cors and helmet headers on an MCP answer as on a controller’s', async () => {
  const controller = await middlewareHeaders(await post('/hello'));
  const mcp = await post('/mcp');
  expect(mcp.status).toBe(200);
  const headers = await middlewareHeaders(mcp);
  expect(headers).toEqual(controller);
  expect(headers.map(([name]) => name)).toEqual(
    expect.arrayContaining(['access-control-allow-origin', 'content-security-policy', 'strict-transport-security', 'x-frame-options']),
  );
  expect(headers.find(([name]) => name === 'x-powered-by')).toBe(undefined); // helmet removes it, for both
});

it('runs the logger and the authentication in order, with Express’s request and response, for both', async () => {
  await (await post('/hello', { 'x-token': 'ann' })).text();
  await (await post('/mcp', { 'x-token': 'bob' })).text();
  expect(ran).toEqual(['logger POST /hello', 'auth POST /hello', 'logger POST /mcp', 'auth POST /mcp']);
  expect(logged).toEqual([
    { url: '/hello', status: 201, sameReq: true, sameRes: true, express: ['/hello', 'probe', 'string', true] },
    { url: '/mcp', status: 200, sameReq: true, sameRes: true, express: ['/mcp', 'probe', 'string', true] },
  ]);
});

it('lets a guard of the tool read what the middleware set on the request', async () => {
  const answer = await post('/mcp', { 'x-token': 'carol' });
  expect(await answer.text()).toContain('"text":"hello"');
  expect(guardSaw).toEqual([{ name: 'carol' }]);
});

it('refuses MCP as it refuses the controller when the middleware answers 401 itself', async () => {
  const controller = await post('/hello', { 'x-token': 'refuse' });
  const mcp = await post('/mcp', { 'x-token': 'refuse' });
  expect([controller.status, await controller.text()]).toEqual([401, 'no entry']);
  expect([mcp.status, await mcp.text()]).toEqual([401, 'no entry']);
  expect(guardSaw).toEqual([]);
});

it('refuses MCP through Nest’s exception handler as it refuses the controller when the middleware calls next(err)', async () => {
  const controller = await post('/hello', { 'x-token': 'throw' });
  const mcp = await post('/mcp', { 'x-token': 'throw' });
  const refusal = '{"message":"The token is not valid.","error":"Unauthorized","statusCode":401}';
  expect([controller.status, await controller.text()]).toEqual([401, refusal]);
  expect([mcp.status, await mcp.text()]).toEqual([401, refusal]);
  expect(guardSaw).toEqual([]);
});

it('honours the global prefix: middleware of prefixed routes runs for them, not for the MCP path', async () => {
  const health = await fetch(`${base}/api/health`);
  expect([health.status, await health.text()]).toEqual([200, 'ok']);
  await (await post('/mcp')).text();
  expect(ran).toEqual([
    'logger GET /api/health',
    'auth GET /api/health',
    'health-only GET /api/health',
    'logger POST /mcp',
    'auth POST /mcp',
  ]);
  expect((await fetch(`${base}/api/mcp`, { method: 'POST', headers: HEADERS, body: CALL })).status).toBe(404);
});

it('answers a preflight of the MCP path with the application’s cors, as Express did', async () => {
  const preflight = await fetch(`${base}/mcp`, {
    method: 'OPTIONS',
    headers: { origin: 'https://host.example', 'access-control-request-method': 'POST' },
  });
  expect([preflight.status, preflight.headers.get('access-control-allow-origin')]).toEqual([204, '*']);
});

it('matches the layers after a middleware that rewrote the URL against the new path, as Express does', async () => {
  const rewritten = await post('/mcp', { 'x-rewrite': '/api/health' });
  // No POST route at /api/health: Nest's not-found handler answers, naming the original URL.
  expect([rewritten.status, await rewritten.text()]).toEqual([404, '{"message":"Cannot POST /mcp","error":"Not Found","statusCode":404}']);
  const health = await fetch(`${base}/mcp`, { headers: { 'x-rewrite': '/api/health' } });
  expect([health.status, await health.text()]).toEqual([200, 'ok']);
  expect(ran).toEqual([
    'logger POST /mcp',
    'auth POST /mcp',
    'health-only POST /mcp',
    'logger GET /mcp',
    'auth GET /mcp',
    'health-only GET /mcp',
  ]);
});
