import { McpServer, Prompt, Resource, Scopes, Tool } from 'onemodelcontext';
import type { Catalog } from '../../../src/server/catalog/catalog';

/**
 * Scopes as declared (member option, class default, quick path) and the listings a caller's scopes select,
 * in-process: what `listTools({ scopes })` returns is what `tools/list` sends that caller over HTTP.
 */

@Scopes('orders:read')
class Orders {
  @Tool()
  listOrders(): string {
    return '';
  }

  @Tool({ scopes: ['orders:write'] })
  placeOrder(): string {
    return '';
  }

  @Tool({ scopes: [] })
  ping(): string {
    return 'pong';
  }

  @Resource('orders://recent')
  recent(): string {
    return '';
  }

  @Prompt({ scopes: ['orders:read', 'admin'] })
  audit(): string {
    return '';
  }
}

class Open {
  @Tool()
  hello(): string {
    return 'hi';
  }
}

function build(): McpServer {
  const server = new McpServer({ name: 'scopes', version: '1' });
  server.add(new Orders()).add(new Open());
  server.tool('forecast', { params: { city: String }, scopes: ['weather:read'] }, () => 'sunny');
  return server;
}

const catalogOf = (server: McpServer) => (server as unknown as { catalog: Catalog }).catalog;
const names = (items: readonly { readonly name: string }[]) => items.map((i) => i.name);

describe('declared scopes', () => {
  it('come from the member, else its class, else none', () => {
    const catalog = catalogOf(build());
    expect(catalog.tools.get('list_orders')!.scopes).toEqual(['orders:read']);
    expect(catalog.tools.get('place_order')!.scopes).toEqual(['orders:write']);
    expect(catalog.tools.get('ping')!.scopes).toEqual([]);
    expect(catalog.tools.get('hello')!.scopes).toEqual([]);
    expect(catalog.tools.get('forecast')!.scopes).toEqual(['weather:read']);
    expect(catalog.prompts.get('audit')!.scopes).toEqual(['orders:read', 'admin']);
    expect(catalog.declaredScopes).toEqual(['orders:read', 'orders:write', 'weather:read', 'admin']);
  });

  it('name what a request needs', () => {
    const catalog = catalogOf(build());
    expect(catalog.scopesNeeded({ method: 'tools/call', params: { name: 'place_order' } })).toEqual(['orders:write']);
    expect(catalog.scopesNeeded({ method: 'resources/read', params: { uri: 'orders://recent' } })).toEqual(['orders:read']);
    expect(catalog.scopesNeeded({ method: 'prompts/get', params: { name: 'audit' } })).toEqual(['orders:read', 'admin']);
    expect(catalog.scopesNeeded({ method: 'completion/complete', params: { ref: { type: 'ref/prompt', name: 'audit' } } })).toEqual([
      'orders:read',
      'admin',
    ]);
    expect(catalog.scopesNeeded({ method: 'tools/call', params: { name: 'no_such_tool' } })).toEqual([]);
    expect(catalog.scopesNeeded({ method: 'tools/list' })).toEqual([]);
    expect(catalog.scopesNeeded('not a request')).toEqual([]);
  });

  it.each([
    ['@Tool', () => Tool({ scopes: ['has space'] })],
    ['@Resource', () => Resource('a://b', { scopes: 'orders:read' as never })],
    ['@Prompt', () => Prompt({ scopes: [42 as never] })],
    ['@Scopes', () => Scopes('quote"d')],
  ])('are checked by %s', (decorator, make) => {
    expect(make).toThrow(`${decorator}(): 'scopes' must be a list of OAuth scopes without spaces, such as ['orders:read'].`);
  });

  it('are checked on the quick path', () => {
    const server = new McpServer({ name: 'q', version: '1' });
    expect(() => server.tool('t', { scopes: ['a b'] }, () => 1)).toThrow(
      `server.tool('t'): 'scopes' must be a list of OAuth scopes without spaces, such as ['orders:read'].`,
    );
  });
});

describe('listings per scope set', () => {
  it('list everything without scopes (no auth) and what the scopes allow with them', () => {
    const server = build();
    expect(names(server.listTools())).toEqual(['list_orders', 'place_order', 'ping', 'hello', 'forecast']);
    expect(names(server.listTools({ scopes: [] }))).toEqual(['ping', 'hello']);
    expect(names(server.listTools({ scopes: ['orders:read', 'unrelated'] }))).toEqual(['list_orders', 'ping', 'hello']);
    const listings = catalogOf(server).listingsFor(['orders:read']);
    expect(names(listings.resources)).toEqual(['recent']);
    expect(listings.prompts).toEqual([]);
    expect(names(catalogOf(server).listingsFor(['admin', 'orders:read']).prompts)).toEqual(['audit']);
  });

  it('hand out the very entries of the full listing', () => {
    const server = build();
    expect(server.listTools({ scopes: ['orders:write'] })[0]).toBe(server.listTools()[1]);
  });

  it('are built once per distinct set of relevant scopes, whatever the order or the unrelated scopes', () => {
    const server = build();
    const catalog = catalogOf(server);
    const first = server.listTools({ scopes: ['orders:read', 'weather:read'] });
    expect(server.listTools({ scopes: ['weather:read', 'orders:read', 'openid', 'weather:read'] })).toBe(first);
    expect(catalog.scopedListingCount).toBe(1);
    server.listTools({ scopes: ['orders:read'] });
    expect(catalog.scopedListingCount).toBe(2);
  });

  it('are rebuilt after the catalog changes', () => {
    const server = build();
    const before = server.listTools({ scopes: ['weather:read'] });
    server.tool('later', { scopes: ['weather:read'] }, () => 1);
    expect(names(server.listTools({ scopes: ['weather:read'] }))).toEqual([...names(before), 'later']);
  });
});
