import { McpServer, Prompt, Resource, Scopes, Tool, type AuthorizeItem, type LogDetails, type McpLogger } from 'onemodelcontext';
import type { Catalog } from '../../../src/server/catalog/catalog';
import { anonymousAuthInfo, sdkAuthInfoOf, withEndpoint, type AuthorizePolicy, type EndpointAuth } from '../../../src/server/auth/caller';
import { Visibility } from '../../../src/server/auth/visibility';

/**
 * `public` as declared (member option, class default overridden, quick path, views), what it means for the
 * requests a caller without a token may send, and `auth.authorize` narrowing listings in-process: listings
 * kept per distinct answer set, a policy that throws refusing (logged), refusals logged.
 */

@Scopes('orders:read')
class Shop {
  @Tool({ public: true })
  search(): string {
    return '';
  }

  @Tool()
  listOrders(): string {
    return '';
  }

  @Resource('docs://readme', { public: true })
  readme(): string {
    return '';
  }

  @Resource('orders://{id}')
  order(id: string): string {
    return id;
  }

  @Prompt({ public: true })
  greet(): string {
    return '';
  }
}

const catalogOf = (server: McpServer) => (server as unknown as { catalog: Catalog }).catalog;
const RESOURCE = 'https://mcp.example.com/mcp';

function build(logger: McpLogger | false = false): McpServer {
  const server = new McpServer({ name: 'shop', version: '1.0.0' }, { logger });
  server.addUiResource('ui://shop/view', { html: '<p>shop</p>', public: true });
  server.add(new Shop());
  server.tool('ping', { public: true }, () => 'pong');
  return server;
}

describe('public', () => {
  it('contradicts scopes on one member, and must be a boolean', () => {
    expect(() => Tool({ public: true, scopes: ['x'] })).toThrow(
      new TypeError(
        "@Tool(): 'public' and 'scopes' contradict each other: a public item answers callers without a token. Remove one of them.",
      ),
    );
    expect(() => Prompt({ public: 'yes' as never })).toThrow(new TypeError("@Prompt(): 'public' must be true or false, got string."));
    expect(() => new McpServer({ name: 's', version: '1' }).tool('t', { public: true, scopes: ['x'] }, () => '')).toThrow(
      "server.tool('t'): 'public' and 'scopes' contradict each other",
    );
  });

  it('opens a member of a @Scopes class to callers without a token; the rest asks for one', () => {
    const catalog = catalogOf(build());
    expect(catalog.scopesNeeded({ method: 'tools/call', params: { name: 'search' } })).toEqual([]);
    expect(catalog.openToAnonymous({ method: 'tools/call', params: { name: 'search' } })).toBe(true);
    expect(catalog.openToAnonymous({ method: 'tools/call', params: { name: 'ping' } })).toBe(true);
    expect(catalog.openToAnonymous({ method: 'resources/read', params: { uri: 'docs://readme' } })).toBe(true);
    expect(catalog.openToAnonymous({ method: 'resources/read', params: { uri: 'ui://shop/view' } })).toBe(true);
    expect(catalog.openToAnonymous({ method: 'prompts/get', params: { name: 'greet' } })).toBe(true);
    expect(catalog.openToAnonymous({ method: 'tools/list' })).toBe(true);
    expect(catalog.openToAnonymous({ method: 'tools/call', params: { name: 'no_such_tool' } })).toBe(true);
    expect(catalog.openToAnonymous({ method: 'tools/call', params: { name: 'list_orders' } })).toBe(false);
    expect(catalog.openToAnonymous({ method: 'resources/read', params: { uri: 'orders://7' } })).toBe(false);
    expect(
      catalog.openToAnonymous({ method: 'completion/complete', params: { ref: { type: 'ref/resource', uri: 'orders://{id}' } } }),
    ).toBe(false);
  });

  it('gives an anonymous caller the public entries, built once', () => {
    const catalog = catalogOf(build());
    const listings = catalog.anonymousListings;
    expect(listings.tools.map((t) => t.name)).toEqual(['search', 'ping']);
    expect(listings.resources.map((r) => r.uri)).toEqual(['docs://readme', 'ui://shop/view']);
    expect(listings.templates).toEqual([]);
    expect(listings.prompts.map((p) => p.name)).toEqual(['greet']);
    expect(catalog.anonymousListings).toBe(listings);
  });
});

describe('auth.authorize in-process', () => {
  const caller = (clientId: string, role: string) =>
    sdkAuthInfoOf('t', { subject: clientId, clientId, scopes: ['orders:read'], expiresAt: 4102444800, claims: { role } }, RESOURCE);

  it('keeps one list per distinct answer set, whoever asks', async () => {
    const authorize: AuthorizePolicy = (c, item) => item.name !== 'list_orders' || c?.claims.role === 'admin';
    const endpoint: EndpointAuth = { baseScopes: [], allowAnonymous: true, authorize };
    const server = build();
    const seen = new Visibility(catalogOf(server), catalogOf(server).log);
    const first = await seen.list(withEndpoint(caller('a', 'clerk'), endpoint), 'tools');
    const second = await seen.list(withEndpoint(caller('b', 'clerk'), endpoint), 'tools');
    const admin = await seen.list(withEndpoint(caller('c', 'admin'), endpoint), 'tools');
    expect(first.map((t) => t.name)).toEqual(['search', 'ping']);
    expect(second).toBe(first);
    expect(admin.map((t) => t.name)).toEqual(['search', 'list_orders', 'ping']);
    expect((await seen.list(withEndpoint(anonymousAuthInfo(RESOURCE), endpoint), 'tools')).map((t) => t.name)).toEqual(['search', 'ping']);
    // Without auth (no endpoint on the request) the list is the catalog's own, unfiltered.
    expect(await seen.list(undefined, 'tools')).toBe(catalogOf(server).listings.tools);
  });

  it('refuses what a throwing policy is asked about, and logs both the failure and each refused call', async () => {
    const logged: string[] = [];
    const log = (message: string, details?: LogDetails) => void logged.push(`${String(details?.event)}: ${message}`);
    const server = build({ error: log, warn: log, info: () => {}, debug: () => {} });
    const authorize: AuthorizePolicy = (_c, item: AuthorizeItem) => {
      if (item.kind === 'prompt') throw new Error('policy store down');
      return true;
    };
    const endpoint: EndpointAuth = { baseScopes: [], allowAnonymous: false, authorize };
    const visibility = new Visibility(catalogOf(server), catalogOf(server).log);
    expect(await visibility.list(withEndpoint(caller('a', 'clerk'), endpoint), 'prompts')).toEqual([]);
    expect(await visibility.allows(withEndpoint(caller('a', 'clerk'), endpoint), { kind: 'prompt', name: 'greet' }, 4)).toBe(false);
    expect(logged).toEqual([
      "auth.failed: auth.authorize threw for the prompt 'greet'; the item is refused: Error: policy store down",
      "auth.failed: auth.authorize threw for the prompt 'greet'; the item is refused: Error: policy store down",
      "auth.refused: auth.authorize refused client 'a' (subject 'a') the prompt 'greet'; answered as an unknown prompt (request 4)",
    ]);
  });
});
