import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { Int32, McpServer, Param, RequestContext, Tool } from '../../src';
import { APPS, connected, ERAS } from './support';

class Widgets {
  @Tool({ description: 'Shows a widget', uiResource: 'ui://widgets/view', uiVisibility: ['app'] })
  show(@Param({ type: Int32 }) id: number): string {
    return `widget ${id}`;
  }

  @Tool()
  plain(): string {
    return 'plain';
  }
}

class Asking {
  @Tool()
  async sample(ctx: RequestContext): Promise<string> {
    const answer = (await ctx.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 })) as { content: { text: string } };
    return `model said ${answer.content.text}`;
  }

  @Tool()
  async ask(ctx: RequestContext): Promise<string> {
    const answer = await ctx.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
    return `hello ${String(answer.content?.name)}`;
  }

  @Tool()
  confirm(ctx: RequestContext): string {
    const answer = ctx.inputResponse('ok') as { action?: string; content?: { ok?: boolean } } | undefined;
    if (answer?.action !== 'accept') {
      ctx.requireInput({ ok: { method: 'elicitation/create', params: { message: 'Sure?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } } } }, { asked: 1 });
    }
    return `confirmed ${answer.content?.ok} with state ${JSON.stringify(ctx.requestState ?? null)}`;
  }

  @Tool()
  async log(ctx: RequestContext): Promise<string> {
    await ctx.log('warning', { disk: 'low' }, 'storage');
    return 'logged';
  }

  @Tool()
  async slow(signal: AbortSignal): Promise<string> {
    await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    return 'never seen';
  }
}

const VIEW = '<!doctype html><p>widget</p>';
const widgets = () => new McpServer({ name: 'widgets', version: '1' }).add(new Widgets()).addUiResource('ui://widgets/view', { html: VIEW });

describe.each(ERAS)('MCP Apps at %s', (_version, mode) => {
  it('advertises the extension and sets _meta.ui for a client that negotiated it', async () => {
    const server = widgets();
    const { client, received } = await connected(server, mode, APPS);
    expect(client.getServerCapabilities()?.extensions).toEqual({ 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } });
    await client.listTools();
    expect(JSON.stringify((received.find((m) => m.result)!.result as { tools: unknown }).tools)).toBe(JSON.stringify(server.listTools()));
    expect(JSON.stringify(server.listTools()[0]._meta)).toBe('{"ui":{"resourceUri":"ui://widgets/view","visibility":["app"]}}');
  });

  it('lists an ordinary tool to a client that did not negotiate it', async () => {
    const { client, received } = await connected(widgets(), mode);
    await client.listTools();
    expect(JSON.stringify((received.find((m) => m.result)!.result as { tools: unknown }).tools)).toBe(
      '[{"name":"show","description":"Shows a widget","inputSchema":{"type":"object","properties":{"id":{"type":"integer","minimum":-2147483648,"maximum":2147483647}},"required":["id"],"additionalProperties":false}},' +
        '{"name":"plain","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}]',
    );
  });

  it('serves and lists the UI resource as text/html;profile=mcp-app', async () => {
    const { client } = await connected(widgets(), mode);
    expect((await client.listResources()).resources).toEqual([{ uri: 'ui://widgets/view', name: 'widgets/view', mimeType: 'text/html;profile=mcp-app' }]);
    expect((await client.readResource({ uri: 'ui://widgets/view' })).contents).toEqual([{ uri: 'ui://widgets/view', mimeType: 'text/html;profile=mcp-app', text: VIEW }]);
  });
});

describe('MCP Apps registration', () => {
  it('does not advertise the extension without UI tools or resources', async () => {
    const server = new McpServer({ name: 'p', version: '1' }).tool('t', {}, () => 'x');
    const { client } = await connected(server, 'legacy', APPS);
    expect(client.getServerCapabilities()).toEqual({ tools: { listChanged: true }, logging: {} });
  });

  it.each([
    ['http://not-ui', { html: 'x' }, /ui:\/\/ URI/],
    ['ui://ok', {}, /needs \{ html: string \}/],
  ])('refuses addUiResource(%s)', (uri, resource, message) => {
    expect(() => new McpServer({ name: 'p', version: '1' }).addUiResource(uri, resource as { html: string })).toThrow(message);
  });
});

const asking = () => new McpServer({ name: 'asking', version: '1' }).add(new Asking());

describe('sampling and elicitation in the 2025 era', () => {
  it('sends sampling/createMessage to a client that declared sampling', async () => {
    const { client } = await connected(asking(), 'legacy', { sampling: {} });
    client.setRequestHandler('sampling/createMessage', async () => ({ role: 'assistant', content: { type: 'text', text: 'hello' }, model: 'm' }));
    expect((await client.callTool({ name: 'sample', arguments: {} })).content).toEqual([{ type: 'text', text: 'model said hello' }]);
  });

  it('sends elicitation/create to a client that declared elicitation', async () => {
    const { client } = await connected(asking(), 'legacy', { elicitation: { form: {} } });
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { name: 'Ada' } }));
    expect((await client.callTool({ name: 'ask', arguments: {} })).content).toEqual([{ type: 'text', text: 'hello Ada' }]);
  });

  it('fails the tool (masked) when the client did not declare sampling', async () => {
    const { client } = await connected(asking(), 'legacy');
    expect(await client.callTool({ name: 'sample', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'The tool failed.' }], isError: true });
  });
});

describe('RequestContext without sampling', () => {
  it('rejects createMessage on 2026-07-28 with a message that names requireInput', async () => {
    await expect(
      new RequestContext({ unavailable: 'protocol revision 2026-07-28 has no server-to-client requests; use ctx.requireInput().' }).createMessage({ messages: [], maxTokens: 1 }),
    ).rejects.toThrow('Sampling is not available for this request: protocol revision 2026-07-28 has no server-to-client requests; use ctx.requireInput().');
  });
});

describe.each(ERAS)('multi-round input at %s', (_version, mode) => {
  it('asks with requireInput and completes with the answer and the signed state', async () => {
    const { client } = await connected(asking(), mode, { elicitation: { form: {} } });
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { ok: true } }));
    expect((await client.callTool({ name: 'confirm', arguments: {} })).content).toEqual([{ type: 'text', text: 'confirmed true with state {"asked":1}' }]);
  });
});

describe('logging', () => {
  it('sends notifications/message at or above the level the client set (2025 era)', async () => {
    const { client, received } = await connected(asking(), 'legacy');
    await client.setLoggingLevel('warning');
    await client.callTool({ name: 'log', arguments: {} });
    expect(received.filter((m) => m.method === 'notifications/message').map((m) => m.params)).toEqual([{ level: 'warning', logger: 'storage', data: { disk: 'low' } }]);
  });

  it('sends nothing on 2026-07-28 unless the request carries a log level', async () => {
    const { client, received } = await connected(asking(), 'auto');
    await client.callTool({ name: 'log', arguments: {} });
    expect(received.filter((m) => m.method === 'notifications/message')).toEqual([]);
    await client.callTool({ name: 'log', arguments: {}, _meta: { 'io.modelcontextprotocol/logLevel': 'debug' } });
    expect(received.filter((m) => m.method === 'notifications/message').map((m) => m.params)).toEqual([{ level: 'warning', logger: 'storage', data: { disk: 'low' } }]);
  });
});

describe('requestTimeoutMs on the wire', () => {
  it('aborts the signal and answers an error result', async () => {
    const server = new McpServer({ name: 't', version: '1' }, { requestTimeoutMs: 20 }).add(new Asking());
    const { client } = await connected(server, 'legacy');
    expect(await client.callTool({ name: 'slow', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'The tool did not finish within 20 ms.' }], isError: true });
  });
});

describe('listing', () => {
  it('builds listings once and shares them between requests', () => {
    const server = widgets();
    expect(server.listTools()).toBe(server.listTools());
  });

  it('rebuilds them when a class is added', () => {
    const server = widgets();
    const before = server.listTools();
    server.tool('later', {}, () => 'x');
    expect(server.listTools().map((t) => t.name)).toEqual(['show', 'plain', 'later']);
    expect(before.map((t) => t.name)).toEqual(['show', 'plain']);
  });
});

describe('close', () => {
  it('ends the connections it serves', async () => {
    const server = widgets();
    const { client } = await connected(server, 'legacy');
    let closed = false;
    client.onclose = () => {
      closed = true;
    };
    await server.close();
    await expect(client.listTools()).rejects.toThrow('Not connected');
    expect(closed).toBe(true);
  });
});

describe('every revision', () => {
  class Version {
    @Tool()
    version(ctx: RequestContext): string {
      return String(ctx.protocolVersion);
    }
  }

  it.each(['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'])('negotiates %s through initialize', async (version) => {
    const server = new McpServer({ name: 'v', version: '1' }).add(new Version());
    const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
    await server.connect(serverEnd);
    const client = new Client({ name: 'c', version: '1' }, { supportedProtocolVersions: [version] });
    await client.connect(clientEnd);
    expect(client.getNegotiatedProtocolVersion()).toBe(version);
    expect((await client.callTool({ name: 'version', arguments: {} })).content).toEqual([{ type: 'text', text: version }]);
  });

  it('negotiates 2026-07-28 through server/discover', async () => {
    const server = new McpServer({ name: 'v', version: '1' }).add(new Version());
    const { client } = await connected(server, 'auto');
    expect(client.getProtocolEra()).toBe('modern');
    expect((await client.callTool({ name: 'version', arguments: {} })).content).toEqual([{ type: 'text', text: '2026-07-28' }]);
  });
});
