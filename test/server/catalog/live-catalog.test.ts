import { Client, InMemoryTransport, ProtocolError } from '@modelcontextprotocol/client';
import { McpServer, Resource, Tool } from '../../../src';
import { connected, ERAS } from '../support';

/**
 * The live catalog over real v2 clients in both eras (in-process transports): list_changed after add, remove,
 * disable and enable; resource updates only to the subscribers of that URI; pagination; parameter errors.
 */

class Feeds {
  @Resource('feed://news', { description: 'News' })
  news(): string {
    return 'news';
  }

  @Resource('feed://sport')
  sport(): string {
    return 'sport';
  }

  @Tool()
  ping(): string {
    return 'pong';
  }
}

const feeds = () => new McpServer({ name: 'feeds', version: '1' }).add(new Feeds());

const METHODS = {
  tools: 'notifications/tools/list_changed',
  resources: 'notifications/resources/list_changed',
  prompts: 'notifications/prompts/list_changed',
  updated: 'notifications/resources/updated',
} as const;

/** Collects the change notifications a client receives, through the client's own handlers. */
function collect(client: Client): string[] {
  const seen: string[] = [];
  client.setNotificationHandler(METHODS.tools, () => void seen.push('tools'));
  client.setNotificationHandler(METHODS.resources, () => void seen.push('resources'));
  client.setNotificationHandler(METHODS.updated, (n) => void seen.push(`updated ${n.params.uri}`));
  return seen;
}

/** Opens the era's way of hearing changes: nothing to do in 2025 (unsolicited); `subscriptions/listen` in 2026. */
async function listen(client: Client, mode: 'legacy' | 'auto', resources: string[] = []): Promise<void> {
  if (mode === 'auto') {
    await client.listen({
      toolsListChanged: true,
      resourcesListChanged: true,
      ...(resources.length > 0 ? { resourceSubscriptions: resources } : {}),
    });
  } else {
    for (const uri of resources) await client.subscribeResource({ uri });
  }
}

/** Waits until `seen` holds `count` entries: notifications travel after the call that caused them returned. */
async function until(seen: readonly string[], count: number): Promise<void> {
  for (let i = 0; i < 200 && seen.length < count; i++) await new Promise((r) => setTimeout(r, 5));
}

/** A round trip on the connection: every notification sent before it has arrived once it returns. */
const settle = (client: Client) => client.listTools(undefined, { cacheMode: 'bypass' } as never);

describe.each(ERAS)('live catalog at %s', (_version, mode) => {
  it('declares listChanged and resources.subscribe', async () => {
    const { client } = await connected(feeds(), mode);
    const capabilities = client.getServerCapabilities()!;
    expect(JSON.stringify([capabilities.tools, capabilities.resources])).toBe(
      '[{"listChanged":true},{"subscribe":true,"listChanged":true}]',
    );
  });

  it('tells every connected client when a tool is added, disabled, enabled and removed', async () => {
    const server = feeds();
    const a = await connected(server, mode);
    const b = await connected(server, mode);
    const seenA = collect(a.client);
    const seenB = collect(b.client);
    await listen(a.client, mode);
    await listen(b.client, mode);

    server.tool('echo', {}, () => 'echo');
    await until(seenA, 1);
    await until(seenB, 1);
    expect((await a.client.listTools(undefined, { cacheMode: 'bypass' } as never)).tools.map((t) => t.name)).toEqual(['ping', 'echo']);

    server.disable('tool', 'echo');
    await until(seenA, 2);
    expect((await a.client.listTools(undefined, { cacheMode: 'bypass' } as never)).tools.map((t) => t.name)).toEqual(['ping']);
    const hidden = await a.client.callTool({ name: 'echo', arguments: {} }).catch((e: unknown) => e);
    expect((hidden as ProtocolError).code).toBe(-32602);
    expect((hidden as ProtocolError).message).toContain('Unknown tool: echo');

    server.disable('tool', 'echo'); // already disabled: no change, no notification
    server.enable('tool', 'echo');
    await until(seenA, 3);
    expect((await a.client.callTool({ name: 'echo', arguments: {} })).content).toEqual([{ type: 'text', text: 'echo' }]);

    server.remove('tool', 'echo');
    await until(seenA, 4);
    await until(seenB, 4);
    await settle(a.client);
    await settle(b.client);
    expect(seenA).toEqual(['tools', 'tools', 'tools', 'tools']);
    expect(seenB).toEqual(['tools', 'tools', 'tools', 'tools']);
    expect((await b.client.listTools(undefined, { cacheMode: 'bypass' } as never)).tools.map((t) => t.name)).toEqual(['ping']);
  });

  it('tells clients when a resource is added and removed', async () => {
    const server = feeds();
    const { client } = await connected(server, mode);
    const seen = collect(client);
    await listen(client, mode);
    server.addUiResource('ui://feeds/view', { html: '<p>feeds</p>' });
    server.remove('resource', 'feed://sport');
    await until(seen, 2);
    expect(seen).toEqual(['resources', 'resources']);
    expect((await client.listResources(undefined, { cacheMode: 'bypass' } as never)).resources.map((r) => r.uri)).toEqual([
      'feed://news',
      'ui://feeds/view',
    ]);
  });

  it('delivers a resource update only to the clients subscribed to that URI, until they unsubscribe', async () => {
    const server = feeds();
    const subscriber = await connected(server, mode);
    const other = await connected(server, mode);
    const bystander = await connected(server, mode);
    const seenSubscriber = collect(subscriber.client);
    const seenOther = collect(other.client);
    const seenBystander = collect(bystander.client);
    await listen(subscriber.client, mode, ['feed://news']);
    await listen(other.client, mode, ['feed://sport']);
    await listen(bystander.client, mode);

    server.notifyResourceUpdated('feed://news');
    await until(seenSubscriber, 1);
    await Promise.all([settle(subscriber.client), settle(other.client), settle(bystander.client)]);
    expect(seenSubscriber).toEqual(['updated feed://news']);
    expect(seenOther).toEqual([]);
    expect(seenBystander).toEqual([]);

    if (mode === 'legacy') {
      await subscriber.client.unsubscribeResource({ uri: 'feed://news' });
      server.notifyResourceUpdated('feed://news');
      server.notifyResourceUpdated('feed://sport');
      await until(seenOther, 1);
      await settle(subscriber.client);
      expect(seenSubscriber).toEqual(['updated feed://news']);
      expect(seenOther).toEqual(['updated feed://sport']);
    }
  });

  it('stops telling a client that closed its connection', async () => {
    const server = feeds();
    const { client } = await connected(server, mode);
    await listen(client, mode, ['feed://news']);
    await client.close();
    // A closed connection has left the bus: publishing reaches nobody and fails nothing.
    expect(() => server.notifyResourceUpdated('feed://news')).not.toThrow();
    expect(() => server.tool('late', {}, () => 'late')).not.toThrow();
  });
});

describe('live catalog errors', () => {
  it('refuses to remove, disable or enable what is not registered', () => {
    const server = feeds();
    expect(() => server.remove('tool', 'nope')).toThrow("server.remove('tool', 'nope'): no tool name 'nope' is registered.");
    expect(() => server.disable('resource', 'feed://nope')).toThrow(
      "server.disable('resource', 'feed://nope'): no resource URI 'feed://nope' is registered.",
    );
    expect(() => server.enable('prompt', 'nope')).toThrow("server.enable('prompt', 'nope'): no prompt name 'nope' is registered.");
  });

  it('keeps a disabled name taken', () => {
    const server = feeds().disable('tool', 'ping');
    expect(() => server.tool('ping', {}, () => 'again')).toThrow(/the tool name 'ping' is already used/);
  });

  it('frees a removed name', () => {
    const server = feeds().remove('tool', 'ping');
    server.tool('ping', {}, () => 'again');
    expect(server.listTools().map((t) => t.name)).toEqual(['ping']);
  });

  it('refuses an empty URI to notifyResourceUpdated', () => {
    expect(() => feeds().notifyResourceUpdated('')).toThrow(
      "server.notifyResourceUpdated() needs a URI, for example server.notifyResourceUpdated('weather://today').",
    );
  });
});

function manyTools(count: number, pageSize: number | Record<string, number>): McpServer {
  const server = new McpServer({ name: 'many', version: '1' }, { pageSize });
  for (let i = 0; i < count; i++) server.tool(`tool_${String(i).padStart(4, '0')}`, {}, () => i);
  return server;
}

type Listed = { tools?: { name: string }[]; resources?: { uri: string }[]; nextCursor?: string };

/** One raw page (the client's listTools() without a cursor walks every page itself). */
function listPage(client: Client, method: 'tools/list' | 'resources/list', cursor?: unknown): Promise<Listed> {
  return client.request({ method, params: cursor === undefined ? {} : { cursor } } as never) as Promise<Listed>;
}

async function allToolNames(client: Client, onPage?: (page: number) => void): Promise<string[]> {
  const names: string[] = [];
  let cursor: string | undefined;
  let page = 0;
  do {
    const result = await listPage(client, 'tools/list', cursor);
    names.push(...result.tools!.map((t) => t.name));
    cursor = result.nextCursor;
    onPage?.(++page);
  } while (cursor !== undefined);
  return names;
}

describe.each(ERAS)('pagination at %s', (_version, mode) => {
  it('pages through 1,000 tools seven at a time, each tool exactly once', async () => {
    const { client } = await connected(manyTools(1000, 7), mode);
    let pages = 0;
    const names = await allToolNames(client, (n) => (pages = n));
    expect(pages).toBe(Math.ceil(1000 / 7));
    expect(names.length).toBe(1000);
    expect(new Set(names).size).toBe(1000);
    expect(names[999]).toBe('tool_0999');
  });

  it("lets the client's own page walk collect 1,000 tools once each", async () => {
    const server = manyTools(1000, 25);
    const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
    await server.connect(serverEnd);
    const client = new Client({ name: 'walker', version: '1' }, { versionNegotiation: { mode }, listMaxPages: 0 });
    await client.connect(clientEnd);
    const { tools } = await client.listTools(undefined, { cacheMode: 'bypass' } as never);
    expect(new Set(tools.map((t) => t.name)).size).toBe(1000);
    expect(tools.length).toBe(1000);
  });

  it('sends a list without a page size on one page with no nextCursor', async () => {
    const { client, received } = await connected(manyTools(30, { prompts: 2 }), mode);
    await client.listTools(undefined, { cacheMode: 'bypass' } as never);
    const result = received.find((m) => m.result)!.result as Record<string, unknown>;
    expect((result.tools as unknown[]).length).toBe(30);
    expect('nextCursor' in result).toBe(false);
  });

  it.each([['not-a-cursor'], ['eyJ4IjoxfQ.AAAAAAAAAAAAAAAAAAAAAA'], [42]])('refuses the cursor %p with -32602', async (cursor) => {
    const { client } = await connected(manyTools(10, 3), mode);
    const error = await listPage(client, 'tools/list', cursor).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).code).toBe(-32602);
  });

  it('refuses a cursor of another list', async () => {
    const { client } = await connected(new McpServer({ name: 'x', version: '1' }, { pageSize: 1 }).add(new Feeds()), mode);
    const { nextCursor } = await listPage(client, 'resources/list');
    expect(typeof nextCursor).toBe('string');
    const error = await listPage(client, 'tools/list', nextCursor).catch((e: unknown) => e);
    expect((error as ProtocolError).code).toBe(-32602);
  });

  it('continues after the last tool sent when tools are added and removed between pages', async () => {
    const server = manyTools(10, 4);
    const { client } = await connected(server, mode);
    const first = await listPage(client, 'tools/list');
    expect(first.tools!.map((t) => t.name)).toEqual(['tool_0000', 'tool_0001', 'tool_0002', 'tool_0003']);
    server.remove('tool', 'tool_0001').tool('tool_new', {}, () => 'new');
    const second = await listPage(client, 'tools/list', first.nextCursor);
    expect(second.tools!.map((t) => t.name)).toEqual(['tool_0004', 'tool_0005', 'tool_0006', 'tool_0007']);
    const third = await listPage(client, 'tools/list', second.nextCursor);
    expect(third.tools!.map((t) => t.name)).toEqual(['tool_0008', 'tool_0009', 'tool_new']);
    expect(third.nextCursor).toBeUndefined();
  });
});

describe('page size option', () => {
  it.each([[0], [1.5], [{ tools: -1 }]])('refuses %p', (pageSize) => {
    expect(() => new McpServer({ name: 'x', version: '1' }, { pageSize: pageSize as never })).toThrow(
      /McpServerOptions.pageSize takes whole numbers from 1/,
    );
  });
});

// 2026-07-28 has no logging/setLevel (the level travels in each request's envelope).
describe('logging/setLevel at 2025-11-25', () => {
  it('answers an unknown level with -32602', async () => {
    const { client } = await connected(feeds(), 'legacy');
    const error = await client.request({ method: 'logging/setLevel', params: { level: 'loud' } } as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).code).toBe(-32602);
    expect((error as ProtocolError).message).toContain(
      'level must be one of debug, info, notice, warning, error, critical, alert, emergency.',
    );
  });
});
