import { Injectable, UseGuards, type CanActivate, type ExecutionContext, type INestApplication } from '@nestjs/common';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Scopes, Tool, type AuthInfo } from 'onemodelcontext';
import { McpExecutionContext, McpModule, type McpContextType } from 'onemodelcontext/nest';
import { TestIssuer, type TestClient } from './support/issuer';
import { modernRequest } from '../support/modern-http';

/**
 * McpModule with `auth` against a real authorization server (oidc-provider), called by the real v2 SDK
 * client with the issuer's access tokens over HTTP, on Express and Fastify: a Nest guard decides from the
 * caller's `auth` (read through `McpExecutionContext`), and `@Scopes` / `@Tool({ scopes })` of a Nest provider
 * list and refuse per the caller's scopes with the documented 403 scope challenge.
 */
jest.setTimeout(120_000);

/** The identifier tokens are issued for (their `aud`); the endpoint's public URL in a deployment. */
const RESOURCE = 'http://127.0.0.1/nest-orders/mcp';

const READER: TestClient = { client_id: 'reader', client_secret: 'reader-secret-0123456789', scope: 'mcp orders:read' };
const WRITER: TestClient = { client_id: 'writer', client_secret: 'writer-secret-0123456789', scope: 'mcp orders:read orders:write' };

/** What the guard was shown of each caller. */
@Injectable()
class Seen {
  readonly callers: (AuthInfo | undefined)[] = [];
}

/** Audits are for callers who may write, whatever the tool itself asks: a decision on the caller's scopes. */
@Injectable()
class WriterOnlyGuard implements CanActivate {
  constructor(private readonly seen: Seen) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType<McpContextType>() !== 'mcp') return true;
    const auth = McpExecutionContext.create(context).getContext().auth;
    this.seen.callers.push(auth);
    return auth?.scopes.includes('orders:write') === true;
  }
}

@Injectable()
@Scopes('orders:read')
class OrderTools {
  @Tool({ description: 'Lists the orders.' })
  listOrders(): string[] {
    return ['A-1', 'A-2'];
  }

  @Tool({ description: 'Places an order.', scopes: ['orders:write'] })
  placeOrder(item: string): string {
    return `placed ${item}`;
  }

  @Tool({ description: 'Audits the orders: open to every caller, guarded.', scopes: [] })
  @UseGuards(WriterOnlyGuard)
  auditOrders(): string {
    return 'audited';
  }
}

let issuer: TestIssuer;
const tokens: Record<'reader' | 'writer', string> = { reader: '', writer: '' };

beforeAll(async () => {
  issuer = await TestIssuer.start([READER, WRITER]);
  tokens.reader = await issuer.token(READER, READER.scope, RESOURCE);
  tokens.writer = await issuer.token(WRITER, WRITER.scope, RESOURCE);
});

afterAll(() => issuer?.stop());

describe.each(['express', 'fastify'] as const)('McpModule with auth on %s', (adapter) => {
  let app: INestApplication;
  let url: URL;
  let seen: Seen;
  const clients: Client[] = [];

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        McpModule.forRoot({
          name: 'orders',
          version: '1.0.0',
          logger: false,
          auth: { issuer: issuer.url, resource: RESOURCE, scopes: ['mcp'] },
        }),
      ],
      providers: [OrderTools, WriterOnlyGuard, Seen],
    }).compile();
    app =
      adapter === 'fastify'
        ? moduleRef.createNestApplication(new FastifyAdapter(), { logger: false })
        : moduleRef.createNestApplication({ logger: false });
    await app.listen(0, '127.0.0.1');
    url = new URL(`${await app.getUrl()}/mcp`.replace('[::1]', '127.0.0.1'));
    seen = app.get(Seen);
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await app.close();
  });

  /** The real v2 client, sending the caller's access token on every request. */
  async function connect(caller: 'reader' | 'writer'): Promise<Client> {
    const client = new Client({ name: caller, version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(
      new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${tokens[caller]}` } } }),
    );
    clients.push(client);
    return client;
  }

  const text = (result: { content?: unknown }) => (result.content as { text: string }[])[0].text;

  it('the guard reads the caller and its scopes from the context, and refuses the reader', async () => {
    const reader = await connect('reader');
    const before = seen.callers.length;
    const refused = await reader.callTool({ name: 'audit_orders', arguments: {} });
    expect([refused.isError, refused.content]).toEqual([true, [{ type: 'text', text: "The call to tool 'audit_orders' was refused." }]]);
    const [caller] = seen.callers.slice(before);
    expect({ ...caller, scopes: [...caller!.scopes].sort(), claims: { iss: caller!.claims.iss, aud: caller!.claims.aud } }).toEqual({
      subject: 'reader',
      clientId: 'reader',
      scopes: ['mcp', 'orders:read'],
      expiresAt: expect.any(Number),
      claims: { iss: issuer.url, aud: RESOURCE },
    });
  });

  it('the guard lets the writer through', async () => {
    const writer = await connect('writer');
    expect(text(await writer.callTool({ name: 'audit_orders', arguments: {} }))).toBe('audited');
    expect(seen.callers.at(-1)?.clientId).toBe('writer');
  });

  it('@Scopes and @Tool({ scopes }) decide what each caller is listed', async () => {
    const names = async (client: Client) => (await client.listTools()).tools.map((t) => t.name);
    expect(await names(await connect('reader'))).toEqual(['list_orders', 'audit_orders']);
    expect(await names(await connect('writer'))).toEqual(['list_orders', 'place_order', 'audit_orders']);
  });

  it("a call without the tool's scope is refused with the 403 scope challenge, before any Nest enhancer runs", async () => {
    const reader = await connect('reader');
    const before = seen.callers.length;
    await expect(reader.callTool({ name: 'place_order', arguments: { item: 'tea' } })).rejects.toThrow(
      'Insufficient scope: required "mcp orders:read orders:write"',
    );
    const raw = await modernRequest(url.href, 'tools/call', { name: 'place_order', arguments: { item: 'tea' } }, { token: tokens.reader });
    expect(raw.status).toBe(403);
    expect(raw.headers['www-authenticate']).toBe(
      `Bearer error="insufficient_scope", error_description="This request needs the scope orders:write.", scope="mcp orders:read orders:write", resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource/nest-orders/mcp"`,
    );
    expect(seen.callers.length).toBe(before);
  });

  it('the writer, holding orders:write, places the order', async () => {
    const writer = await connect('writer');
    expect(text(await writer.callTool({ name: 'place_order', arguments: { item: 'tea' } }))).toBe('placed tea');
  });
});
