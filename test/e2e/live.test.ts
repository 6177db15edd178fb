import { join } from 'node:path';
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2Stdio } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1Stdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { liveServer } from './fixture/src/live';
import { ensureBuilt, ROOT } from './support/build';

/**
 * The live catalog between processes and over the network: a v1 client (2025-11-25) and a v2 client
 * (2026-07-28, `subscriptions/listen`) over a stdio child and over Streamable HTTP. One client changes the
 * catalog through a tool; every client hears list_changed, and only the subscriber of a URI hears its update.
 */
jest.setTimeout(120_000);

const LIVE_MAIN = join(ROOT, 'test/e2e/fixture/dist/live-main.js');

interface Listener {
  readonly heard: string[];
  call(name: string, args: Record<string, unknown>): Promise<unknown>;
  toolNames(): Promise<string[]>;
  close(): Promise<void>;
}

async function v1Listener(over: 'stdio' | 'http', url: URL, subscribe: string[]): Promise<Listener> {
  const heard: string[] = [];
  const client = new V1Client({ name: 'live-v1', version: '1' });
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void heard.push('tools'));
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void heard.push(`updated ${n.params.uri}`));
  const transport = over === 'stdio' ? new V1Stdio({ command: process.execPath, args: [LIVE_MAIN], stderr: 'pipe' }) : new V1Http(url);
  await client.connect(transport);
  for (const uri of subscribe) await client.subscribeResource({ uri });
  return {
    heard,
    call: (name, args) => client.callTool({ name, arguments: args }),
    async toolNames() {
      const names: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor === undefined ? undefined : { cursor });
        names.push(...page.tools.map((t) => t.name));
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      return names;
    },
    async close() {
      if (transport instanceof V1Http) await transport.terminateSession();
      await client.close();
    },
  };
}

async function v2Listener(over: 'stdio' | 'http', url: URL, subscribe: string[]): Promise<Listener> {
  const heard: string[] = [];
  const client = new V2Client({ name: 'live-v2', version: '1' }, { versionNegotiation: { mode: 'auto' } });
  client.setNotificationHandler('notifications/tools/list_changed', () => void heard.push('tools'));
  client.setNotificationHandler('notifications/resources/updated', (n) => void heard.push(`updated ${n.params.uri}`));
  await client.connect(over === 'stdio' ? new V2Stdio({ command: process.execPath, args: [LIVE_MAIN], stderr: 'pipe' }) : new V2Http(url));
  const subscription = await client.listen({
    toolsListChanged: true,
    ...(subscribe.length > 0 ? { resourceSubscriptions: subscribe } : {}),
  });
  return {
    heard,
    call: (name, args) => client.callTool({ name, arguments: args }),
    toolNames: async () => (await client.listTools(undefined, { cacheMode: 'bypass' })).tools.map((t) => t.name),
    async close() {
      await subscription.close();
      await client.close();
    },
  };
}

async function until(heard: readonly string[], count: number): Promise<void> {
  for (let i = 0; i < 400 && heard.length < count; i++) await new Promise((r) => setTimeout(r, 10));
}

const FACTORIES = [
  ['v1 client (2025-11-25)', v1Listener],
  ['v2 client (2026-07-28)', v2Listener],
] as const;

const server = liveServer();
let url: URL;

beforeAll(async () => {
  await ensureBuilt();
  url = new URL((await server.serveHttp({ port: 0 })).url);
}, 600_000);

afterAll(() => server.close());

describe.each(FACTORIES)('%s over HTTP', (_label, make) => {
  it('hears list_changed after add and remove, and resource updates only for its subscriptions', async () => {
    const subscriber = await make('http', url, ['feed://news']);
    const other = await make('http', url, []);
    try {
      await subscriber.call('add_tool', { name: 'added_http' });
      await until(subscriber.heard, 1);
      await until(other.heard, 1);
      expect(await other.toolNames()).toEqual(['add_tool', 'remove_tool', 'touch', 'added_http']);
      await other.call('remove_tool', { name: 'added_http' });
      await other.call('touch', { uri: 'feed://news' });
      await until(subscriber.heard, 3);
      await until(other.heard, 2);
      await other.call('touch', { uri: 'feed://sport' });
      await subscriber.toolNames();
      await other.toolNames();
      expect(subscriber.heard).toEqual(['tools', 'tools', 'updated feed://news']);
      expect(other.heard).toEqual(['tools', 'tools']);
    } finally {
      await subscriber.close();
      await other.close();
    }
  });
});

describe.each(FACTORIES)('%s over stdio', (_label, make) => {
  it('hears list_changed after add and remove, and the update of the resource it subscribed to', async () => {
    const client = await make('stdio', url, ['feed://news']);
    try {
      await client.call('add_tool', { name: 'added_stdio' });
      await until(client.heard, 1);
      expect(await client.toolNames()).toEqual(['add_tool', 'remove_tool', 'touch', 'added_stdio']);
      await client.call('remove_tool', { name: 'added_stdio' });
      await client.call('touch', { uri: 'feed://sport' });
      await client.call('touch', { uri: 'feed://news' });
      await until(client.heard, 3);
      expect(client.heard).toEqual(['tools', 'tools', 'updated feed://news']);
      expect(await client.toolNames()).toEqual(['add_tool', 'remove_tool', 'touch']);
    } finally {
      await client.close();
    }
  });
});
