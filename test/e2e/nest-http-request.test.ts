import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  ForbiddenException,
  Injectable,
  UseGuards,
  UseInterceptors,
  type CallHandler,
  type CanActivate,
  type ExecutionContext,
  type INestApplication,
  type NestInterceptor,
} from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Observable } from 'rxjs';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { McpServer, TOOL_FAILED_CHANNEL, Tool } from '../../src';
import { McpExecutionContext, McpModule } from '../../src/nest';

/**
 * A Nest guard and interceptor written the ordinary way, reading `context.switchToHttp().getRequest()`, on the MCP
 * calls of a real Express application and real SDK clients: they get the HTTP request of each call (its headers,
 * `ip`, and `user` when Express middleware set it), ahead of Express's router and through it, for 2025-era sessions
 * and 2026-07-28 requests alike. Without HTTP, `getRequest()` says there is none.
 */
jest.setTimeout(60_000);

interface Seen {
  readonly key: unknown;
  readonly ip: unknown;
  readonly user: unknown;
  /** Whether the request is Express's (`req.get` is Express's own method): the call went through Express. */
  readonly express: boolean;
}

interface HttpRequest {
  readonly headers: Record<string, string | string[] | undefined>;
  readonly ip?: string;
  readonly user?: unknown;
  readonly get?: unknown;
}

const guardSaw: Seen[] = [];
const interceptorSaw: unknown[] = [];

/** An API-key guard as it is written for HTTP routes. */
@Injectable()
class ApiKeyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<HttpRequest>();
    guardSaw.push({ key: request.headers['x-api-key'], ip: request.ip, user: request.user, express: typeof request.get === 'function' });
    if (request.headers['x-api-key'] !== 'right') throw new ForbiddenException('Wrong API key.');
    return true;
  }
}

/** An interceptor reading a header of the request. */
@Injectable()
class TraceInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    interceptorSaw.push({ trace: http.getRequest<HttpRequest>().headers['x-trace'], response: http.getResponse(), next: http.getNext() });
    return next.handle();
  }
}

@Injectable()
class Vault {
  @Tool()
  @UseGuards(ApiKeyGuard)
  @UseInterceptors(TraceInterceptor)
  secret(): string {
    return 'the secret';
  }
}

/** A guard for both transports: local callers (stdio) are trusted, HTTP ones need the key. */
@Injectable()
class LocalOrKeyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (McpExecutionContext.create(context).getContext().http === undefined) return true;
    return context.switchToHttp().getRequest<HttpRequest>().headers['x-api-key'] === 'right';
  }
}

@Injectable()
class Door {
  @Tool()
  @UseGuards(LocalOrKeyGuard)
  open(): string {
    return 'opened';
  }
}

/** A middleware that signs the caller in, as passport's does. */
function signIn(req: IncomingMessage & { user?: unknown }, _res: ServerResponse, next: () => void): void {
  req.user = { name: 'ann' };
  next();
}

async function start(routed: boolean): Promise<{ app: INestApplication; url: string }> {
  const moduleRef = await Test.createTestingModule({
    imports: [McpModule.forRoot({ name: 'vault', version: '1' })],
    providers: [Vault],
  }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  // Middleware on the path keeps MCP requests on Express's router (bypassRouter unset).
  if (routed) app.use(signIn);
  await app.listen(0, '127.0.0.1');
  return { app, url: `${(await app.getUrl()).replace('[::1]', '127.0.0.1')}/mcp` };
}

interface Caller {
  call(): Promise<{ content?: unknown; isError?: unknown }>;
  close(): Promise<void>;
}

/** A 2025-era session (the v1 client) or 2026-07-28 requests (the v2 client) sending `headers`, read at each request. */
async function connect(era: '2025' | '2026-07-28', url: string, headers: Record<string, string>): Promise<Caller> {
  if (era === '2025') {
    const transport = new V1Http(new URL(url), { requestInit: { headers } });
    const client = new V1Client({ name: 'v1', version: '1' });
    await client.connect(transport);
    return {
      call: () => client.callTool({ name: 'secret', arguments: {} }) as Promise<{ content?: unknown; isError?: unknown }>,
      close: async () => {
        await transport.terminateSession();
        await client.close();
      },
    };
  }
  const client = new V2Client({ name: 'v2', version: '1' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(new V2Http(new URL(url), { requestInit: { headers } }));
  return { call: () => client.callTool({ name: 'secret', arguments: {} }), close: () => client.close() };
}

const ANSWERED = { content: [{ type: 'text', text: 'the secret' }] };
const REFUSED = { content: [{ type: 'text', text: "The call to tool 'secret' was refused." }], isError: true };

describe.each([
  ['ahead of Express (the router bypass)', false],
  ['through Express (middleware on the path)', true],
] as const)('switchToHttp().getRequest() %s', (_way, routed) => {
  let app: INestApplication;
  let url: string;
  beforeAll(async () => ({ app, url } = await start(routed)));
  afterAll(() => app.close());
  beforeEach(() => {
    guardSaw.length = 0;
    interceptorSaw.length = 0;
  });

  const user = routed ? { name: 'ann' } : undefined;

  it.each(['2025', '2026-07-28'] as const)(
    'lets the right API key in and refuses a wrong one, each request read on its own (%s)',
    async (era) => {
      const headers: Record<string, string> = { 'x-api-key': 'right', 'x-trace': 't-1' };
      const caller = await connect(era, url, headers);
      const first = await caller.call();
      headers['x-api-key'] = 'wrong';
      const second = await caller.call();
      headers['x-api-key'] = 'right';
      headers['x-trace'] = 't-3';
      const third = await caller.call();
      await caller.close();

      // A 2026-07-28 result also carries the server's info in `_meta`.
      expect([first, second, third].map(({ content, isError }) => ({ content, isError }))).toEqual([ANSWERED, REFUSED, ANSWERED]);
      expect(guardSaw).toEqual([
        { key: 'right', ip: '127.0.0.1', user, express: routed },
        { key: 'wrong', ip: '127.0.0.1', user, express: routed },
        { key: 'right', ip: '127.0.0.1', user, express: routed },
      ]);
      expect(interceptorSaw).toEqual([
        { trace: 't-1', response: undefined, next: undefined },
        { trace: 't-3', response: undefined, next: undefined },
      ]);
    },
  );
});

describe('switchToHttp().getRequest() without HTTP', () => {
  it('throws, saying the call did not come over HTTP; the call fails as any unhandled error does', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [McpModule.forRoot({ name: 'vault', version: '1', transport: 'none' })],
      providers: [Vault],
    }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    await app.init();
    const failures: { tool: string; error: Error }[] = [];
    const record = (message: unknown) => failures.push(message as { tool: string; error: Error });
    subscribe(TOOL_FAILED_CHANNEL, record);
    const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
    await app.get(McpServer).connect(serverEnd);
    const client = new V2Client({ name: 'mem', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(clientEnd);
    const result = await client.callTool({ name: 'secret', arguments: {} });
    await client.close();
    unsubscribe(TOOL_FAILED_CHANNEL, record);
    await app.close();

    expect({ content: result.content, isError: result.isError }).toEqual({
      content: [{ type: 'text', text: 'The tool failed.' }],
      isError: true,
    });
    expect(failures.map(({ tool, error }) => [tool, error.message])).toEqual([
      [
        'secret',
        'switchToHttp().getRequest(): this MCP call did not come over HTTP (it came over stdio or an in-memory transport), so there is no HTTP request. ' +
          "context.getType() is 'mcp' over every transport: check McpExecutionContext.create(context).getContext().http, undefined without HTTP, before reading the request.",
      ],
    ]);
  });

  it('lets a guard that checks first tell a call over HTTP from one without', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [McpModule.forRoot({ name: 'door', version: '1', transport: 'none' })],
      providers: [Door],
    }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    await app.init();
    const result = await app.get(McpServer).callTool('open', {});
    await app.close();
    expect(result).toEqual({ content: [{ type: 'text', text: 'opened' }] });
  });
});
