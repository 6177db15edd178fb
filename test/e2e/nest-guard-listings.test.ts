import { Injectable, UseGuards, type CanActivate, type ExecutionContext, type INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Prompt, Scopes, Tool } from 'onemodelcontext';
import { McpExecutionContext, McpModule, type McpContextType } from 'onemodelcontext/nest';
import { TestIssuer, type TestClient } from './support/issuer';

/**
 * McpModule's `guardListings` (issue 26) against a real authorization server (oidc-provider) and the real v2
 * client: a Nest guard decides what each caller lists, seeing an execution context that says it is a listing,
 * and a tool it hides is answered as unknown; `public` and `@Scopes` on a Nest provider work as on a plain
 * class, with anonymous callers let in by `allowAnonymous`.
 */
jest.setTimeout(120_000);

const RESOURCE = 'http://127.0.0.1/nest-shop/mcp';
const CLERK: TestClient = { client_id: 'clerk', client_secret: 'clerk-secret-0123456789', scope: 'mcp orders:read orders:write' };
const MANAGER: TestClient = { client_id: 'manager', client_secret: 'manager-secret-0123456789', scope: 'mcp orders:read orders:write' };

/** What the guard was asked, in order: listing or call, and the item. */
@Injectable()
class Seen {
  readonly asked: string[] = [];
}

/** Only the manager's client may see or use what this guards. */
@Injectable()
class ManagerGuard implements CanActivate {
  constructor(private readonly seen: Seen) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType<McpContextType>() !== 'mcp') return true;
    const mcp = McpExecutionContext.create(context);
    this.seen.asked.push(`${mcp.isListing() ? 'listing' : 'call'} ${mcp.getKind()} ${mcp.getName()}`);
    return mcp.getContext().auth?.clientId === MANAGER.client_id;
  }
}

@Injectable()
@Scopes('orders:read')
class ShopTools {
  @Tool({ description: 'Searches the catalogue.', public: true })
  search(query: string): string {
    return `found ${query}`;
  }

  @Tool({ description: 'Lists the orders.' })
  listOrders(): string[] {
    return ['A-1'];
  }

  @Tool({ description: 'Refunds an order.', scopes: ['orders:write'] })
  @UseGuards(ManagerGuard)
  refund(order: string): string {
    return `refunded ${order}`;
  }

  @Prompt({ description: 'Audits the orders.' })
  @UseGuards(ManagerGuard)
  audit(): string {
    return 'Audit every order.';
  }
}

let issuer: TestIssuer;
let app: INestApplication;
let url: URL;
let seen: Seen;
const tokens: Record<'clerk' | 'manager', string> = { clerk: '', manager: '' };

beforeAll(async () => {
  issuer = await TestIssuer.start([CLERK, MANAGER]);
  tokens.clerk = await issuer.token(CLERK, CLERK.scope, RESOURCE);
  tokens.manager = await issuer.token(MANAGER, MANAGER.scope, RESOURCE);
  const moduleRef = await Test.createTestingModule({
    imports: [
      McpModule.forRoot({
        name: 'shop',
        version: '1.0.0',
        logger: false,
        guardListings: true,
        auth: { issuer: issuer.url, resource: RESOURCE, scopes: ['mcp'], allowAnonymous: true },
      }),
    ],
    providers: [ShopTools, ManagerGuard, Seen],
  }).compile();
  app = moduleRef.createNestApplication({ logger: false });
  await app.listen(0, '127.0.0.1');
  url = new URL(`${await app.getUrl()}/mcp`.replace('[::1]', '127.0.0.1'));
  seen = app.get(Seen);
});

afterAll(async () => {
  await app?.close();
  await issuer?.stop();
});

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function connect(caller: 'clerk' | 'manager' | undefined): Promise<Client> {
  const client = new Client({ name: caller ?? 'visitor', version: '1' }, { versionNegotiation: { mode: 'auto' } });
  const headers: Record<string, string> = caller === undefined ? {} : { authorization: `Bearer ${tokens[caller]}` };
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  clients.push(client);
  return client;
}

const names = (items: readonly { name: string }[]) => items.map((i) => i.name);

it('a guard that refuses the caller hides the tool and the prompt, seeing a listing context', async () => {
  const clerk = await connect('clerk');
  const before = seen.asked.length;
  expect(names((await clerk.listTools()).tools)).toEqual(['search', 'list_orders']);
  expect(seen.asked.slice(before)).toEqual(['listing tool refund']);
  expect((await clerk.listPrompts()).prompts).toEqual([]);
  const manager = await connect('manager');
  expect(names((await manager.listTools()).tools)).toEqual(['search', 'list_orders', 'refund']);
  expect(names((await manager.listPrompts()).prompts)).toEqual(['audit']);
});

it('a hidden tool is answered as unknown; the guard runs as a listing, then for the call it allows', async () => {
  const clerk = await connect('clerk');
  await expect(clerk.callTool({ name: 'refund', arguments: { order: 'A-1' } })).rejects.toThrow('Unknown tool: refund');
  const manager = await connect('manager');
  const before = seen.asked.length;
  expect((await manager.callTool({ name: 'refund', arguments: { order: 'A-1' } })).content).toEqual([
    { type: 'text', text: 'refunded A-1' },
  ]);
  expect(seen.asked.slice(before)).toEqual(['listing tool refund', 'call tool refund']);
});

it('public and @Scopes of a Nest provider work as on a plain class: an anonymous caller lists the public tool only', async () => {
  const visitor = await connect(undefined);
  expect(names((await visitor.listTools()).tools)).toEqual(['search']);
  expect((await visitor.callTool({ name: 'search', arguments: { query: 'tea' } })).content).toEqual([{ type: 'text', text: 'found tea' }]);
  await expect(visitor.callTool({ name: 'list_orders', arguments: {} })).rejects.toThrow(/needs an access token/);
});
