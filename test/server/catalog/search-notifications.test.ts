import type { Client } from '@modelcontextprotocol/client';
import { McpServer, Resource, Tool } from '../../../src';
import { connected, ERAS } from '../support';

/** Under `catalog: 'search'` the listing is always the same three tools: adding a tool announces no tool list change. */
class One {
  @Tool() one(): string {
    return '1';
  }
  @Resource('notes://one') note(): string {
    return 'one';
  }
}
class Two {
  @Tool() two(): string {
    return '2';
  }
  @Resource('notes://two') other(): string {
    return 'two';
  }
}

function collect(client: Client): string[] {
  const seen: string[] = [];
  client.setNotificationHandler('notifications/tools/list_changed', () => void seen.push('tools'));
  client.setNotificationHandler('notifications/resources/list_changed', () => void seen.push('resources'));
  return seen;
}

describe.each(ERAS)('list changes under the search-first catalog (%s)', (_revision, mode) => {
  it('announces the resource that came with a tool, and no tool list change', async () => {
    const server = new McpServer({ name: 's', version: '1' }, { catalog: 'search', logger: false }).add(new One());
    const { client } = await connected(server, mode);
    const seen = collect(client);
    if (mode === 'auto') await client.listen({ toolsListChanged: true, resourcesListChanged: true });
    // One class with a tool and a resource: the catalog announces the tool first, so a tools notification would
    // arrive before the resources one.
    server.add(new Two());
    for (let i = 0; i < 200 && seen.length < 1; i++) await new Promise((r) => setTimeout(r, 5));
    await client.listResources(); // a round trip: what was sent before it has arrived
    expect(seen).toEqual(['resources']);
    expect((await client.callTool({ name: 'call_tool', arguments: { name: 'two', arguments: {} } })).content).toEqual([
      { type: 'text', text: '2' },
    ]);
    await client.close();
  });
});
