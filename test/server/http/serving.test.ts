import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DefinitionError, Int32, McpServer, Param, RequestContext, Tool, type McpLogger } from '../../../src';
import { APPS, connected, ERAS } from '../support';

class Widgets {
  @Tool({ description: 'Shows a widget', uiResource: 'ui://widgets/view', uiVisibility: ['app'] })
  show(@Param({ type: Int32 }) id: number): string {
    return `widget ${id}`;
  }

  @Tool({ uiResource: 'ui://widgets/view' })
  board(): string {
    return 'board';
  }

  @Tool({ uiVisibility: ['app'] })
  refresh(): string {
    return 'refreshed';
  }

  @Tool()
  plain(): string {
    return 'plain';
  }
}

class Asking {
  @Tool()
  async sample(ctx: RequestContext): Promise<string> {
    const answer = (await ctx.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 })) as {
      content: { text: string };
    };
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
      ctx.requireInput(
        {
          ok: {
            method: 'elicitation/create',
            params: { message: 'Sure?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } },
          },
        },
        { asked: 1 },
      );
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
const SECURITY = {
  csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://cdn.example.com'] },
  permissions: { clipboardWrite: {} },
  domain: 'widgets.example.com',
  prefersBorder: true,
};
const UI_META =
  '{"ui":{"csp":{"connectDomains":["https://api.example.com"],"resourceDomains":["https://cdn.example.com"]},"permissions":{"clipboardWrite":{}},"domain":"widgets.example.com","prefersBorder":true}}';
const widgets = (log: McpLogger | false = false) =>
  new McpServer({ name: 'widgets', version: '1' }, { logger: log })
    .addUiResource('ui://widgets/view', { html: VIEW, title: 'Widget', description: 'One widget, large', ...SECURITY })
    .add(new Widgets());
const listed = (received: Record<string, unknown>[]) =>
  JSON.stringify((received.find((m) => m.result)!.result as { tools: unknown }).tools);

describe.each(ERAS)('MCP Apps at %s', (_version, mode) => {
  it('advertises the extension and sets _meta.ui, with the older ui/resourceUri key, for a client that negotiated it', async () => {
    const server = widgets();
    const { client, received } = await connected(server, mode, APPS);
    expect(client.getServerCapabilities()?.extensions).toEqual({
      'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] },
    });
    await client.listTools();
    expect(listed(received)).toBe(JSON.stringify(server.listTools()));
    expect(server.listTools().map((t) => JSON.stringify(t._meta))).toEqual([
      '{"ui":{"resourceUri":"ui://widgets/view","visibility":["app"]},"ui/resourceUri":"ui://widgets/view"}',
      '{"ui":{"resourceUri":"ui://widgets/view","visibility":["model","app"]},"ui/resourceUri":"ui://widgets/view"}',
      '{"ui":{"visibility":["app"]}}',
      undefined,
    ]);
  });

  it('hides app-only tools from a client that did not negotiate the extension, and lists the others without _meta', async () => {
    const { client, received } = await connected(widgets(), mode);
    await client.listTools();
    expect(listed(received)).toBe(
      '[{"name":"board","inputSchema":{"type":"object","properties":{},"additionalProperties":false}},' +
        '{"name":"plain","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}]',
    );
  });

  it('refuses app-only tools to a client without the extension as unknown tools, and serves them to one with it', async () => {
    const plain = (await connected(widgets(), mode)).client;
    await expect(plain.callTool({ name: 'show', arguments: { id: 1 } })).rejects.toThrow('Unknown tool: show');
    await expect(plain.callTool({ name: 'refresh', arguments: {} })).rejects.toThrow('Unknown tool: refresh');
    expect((await plain.callTool({ name: 'board', arguments: {} })).content).toEqual([{ type: 'text', text: 'board' }]);
    const apps = (await connected(widgets(), mode, APPS)).client;
    expect((await apps.callTool({ name: 'show', arguments: { id: 7 } })).content).toEqual([{ type: 'text', text: 'widget 7' }]);
    expect((await apps.callTool({ name: 'refresh', arguments: {} })).content).toEqual([{ type: 'text', text: 'refreshed' }]);
  });

  it.each([
    ['an empty declaration', {}],
    ['other MIME types only', { mimeTypes: ['text/html'] }],
    ['mimeTypes that is not a list', { mimeTypes: 'text/html;profile=mcp-app' }],
  ])('treats a client whose extension entry has %s as one without MCP Apps', async (_name, declaration) => {
    const { client, received } = await connected(widgets(), mode, { extensions: { 'io.modelcontextprotocol/ui': declaration } });
    await client.listTools();
    expect(JSON.parse(listed(received)).map((t: { name: string }) => t.name)).toEqual(['board', 'plain']);
    await expect(client.callTool({ name: 'show', arguments: { id: 1 } })).rejects.toThrow('Unknown tool: show');
  });

  it('lists and reads the view as text/html;profile=mcp-app with its title, description and _meta.ui', async () => {
    const { client, received } = await connected(widgets(), mode);
    await client.listResources();
    expect(JSON.stringify((received.find((m) => m.result)!.result as { resources: unknown }).resources)).toBe(
      `[{"uri":"ui://widgets/view","name":"widgets/view","title":"Widget","description":"One widget, large","mimeType":"text/html;profile=mcp-app","_meta":${UI_META}}]`,
    );
    await client.readResource({ uri: 'ui://widgets/view' });
    expect(JSON.stringify((received.filter((m) => m.result).at(-1)!.result as { contents: unknown }).contents)).toBe(
      `[{"uri":"ui://widgets/view","mimeType":"text/html;profile=mcp-app","text":${JSON.stringify(VIEW)},"_meta":${UI_META}}]`,
    );
  });
});

describe('MCP Apps views', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'omc-view-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const read = async (server: McpServer, uri: string) => (await connected(server, 'legacy')).client.readResource({ uri });

  it('reads a file on every read, so a rebuilt view is served at once', async () => {
    const file = join(dir, 'view.html');
    writeFileSync(file, '<p>first</p>');
    const server = new McpServer({ name: 'p', version: '1' }).addUiResource('ui://p/view', { file });
    expect((await read(server, 'ui://p/view')).contents).toEqual([
      { uri: 'ui://p/view', mimeType: 'text/html;profile=mcp-app', text: '<p>first</p>' },
    ]);
    writeFileSync(file, '<p>second</p>');
    expect((await read(server, 'ui://p/view')).contents[0]).toMatchObject({ text: '<p>second</p>' });
  });

  it('builds the HTML with a read function on every read', async () => {
    let reads = 0;
    const server = new McpServer({ name: 'p', version: '1' }).addUiResource('ui://p/view', {
      name: 'view',
      read: async () => `<p>read ${++reads}</p>`,
    });
    await expect((await connected(server, 'legacy')).client.listResources()).resolves.toEqual({
      resources: [{ uri: 'ui://p/view', name: 'view', mimeType: 'text/html;profile=mcp-app' }],
    });
    expect((await read(server, 'ui://p/view')).contents[0]).toMatchObject({ text: '<p>read 1</p>' });
    expect((await read(server, 'ui://p/view')).contents[0]).toMatchObject({ text: '<p>read 2</p>' });
  });

  it.each([
    ['a missing file', { file: '/nonexistent/omc/view.html' }, /ENOENT/],
    [
      'a read function that throws',
      {
        read: () => {
          throw new Error('template store down at 10.0.0.7');
        },
      },
      /template store down/,
    ],
    ['a read function that returns no string', { read: () => 42 as unknown as string }, /returned number, not the HTML string/],
  ])('answers an internal error without details for %s, and logs why', async (_name, source, logged) => {
    const errors: string[] = [];
    const log: McpLogger = {
      error: (message, details) => void errors.push(`${message} ${String(details?.error ?? '')}`),
      warn: () => {},
      info: () => {},
      debug: () => {},
    };
    const server = new McpServer({ name: 'p', version: '1' }, { logger: log }).addUiResource('ui://p/view', source);
    const failure = await read(server, 'ui://p/view').then(
      () => undefined,
      (error: Error & { code?: number }) => error,
    );
    expect([failure?.code, failure?.message]).toEqual([-32603, 'The request failed.']);
    expect(failure?.message).not.toMatch(logged);
    expect(errors.join('\n')).toMatch(logged);
  });
});

describe('MCP Apps registration', () => {
  it('does not advertise the extension without UI tools or resources', async () => {
    const server = new McpServer({ name: 'p', version: '1' }).tool('t', {}, () => 'x');
    const { client } = await connected(server, 'legacy', APPS);
    expect(client.getServerCapabilities()).toEqual({ tools: { listChanged: true }, logging: {} });
  });

  it('refuses a class whose tool names a view that is not registered (OMCG0015), registering nothing of it', () => {
    const server = new McpServer({ name: 'p', version: '1' });
    expect(() => server.add(new Widgets())).toThrow(
      new DefinitionError('Widgets', [
        {
          code: 'OMCG0015',
          where: 'Widgets.show',
          message: "uiResource 'ui://widgets/view' names no registered view.",
          fix: "register it first: server.addUiResource('ui://widgets/view', { html }) before adding the class.",
        },
        {
          code: 'OMCG0015',
          where: 'Widgets.board',
          message: "uiResource 'ui://widgets/view' names no registered view.",
          fix: "register it first: server.addUiResource('ui://widgets/view', { html }) before adding the class.",
        },
      ]),
    );
    expect(server.listTools()).toEqual([]);
  });

  it.each([
    [
      'http://not-ui',
      { html: 'x' },
      "server.addUiResource() needs a ui:// URI, for example server.addUiResource('ui://weather/view', { html }).",
    ],
    ['ui://', { html: 'x' }, "server.addUiResource() needs a ui:// URI, for example server.addUiResource('ui://weather/view', { html })."],
    ['ui://ok', undefined, "server.addUiResource('ui://ok'): the options must be an object such as { html } or { file }."],
    ['ui://ok', {}, "server.addUiResource('ui://ok'): give exactly one of html, file or read (got none)."],
    ['ui://ok', { html: 'x', file: 'v.html' }, "server.addUiResource('ui://ok'): give exactly one of html, file or read (got html, file)."],
    ['ui://ok', { html: 1 }, "server.addUiResource('ui://ok'): html must be a string."],
    ['ui://ok', { read: 'x' }, "server.addUiResource('ui://ok'): read must be a function returning the HTML."],
    ['ui://ok', { html: 'x', title: '' }, "server.addUiResource('ui://ok'): title must be a non-empty string."],
    [
      'ui://ok',
      { html: 'x', csp: { connectDomains: 'https://a' } },
      "server.addUiResource('ui://ok'): csp.connectDomains must be an array of origins such as 'https://api.example.com'.",
    ],
    [
      'ui://ok',
      { html: 'x', csp: { connect: [] }, permissions: { camera: true, usb: {} }, prefersBorder: 'yes', style: 1 },
      "server.addUiResource('ui://ok'): unknown option 'style'; prefersBorder must be a boolean; csp has the unknown key 'connect' (use connectDomains, resourceDomains, frameDomains, baseUriDomains); permissions.camera must be {}; permissions has the unknown key 'usb' (use camera, microphone, geolocation, clipboardWrite).",
    ],
  ])('refuses addUiResource(%s, %j)', (uri, view, message) => {
    expect(() => new McpServer({ name: 'p', version: '1' }).addUiResource(uri, view as never)).toThrow(new TypeError(message));
  });

  it('refuses a second view at the same URI', () => {
    const server = new McpServer({ name: 'p', version: '1' }).addUiResource('ui://p/view', { html: 'x' });
    expect(() => server.addUiResource('ui://p/view', { html: 'y' })).toThrow(
      "server.addUiResource(): 'ui://p/view' is already registered.",
    );
  });

  it('keeps its own copy of the security metadata', async () => {
    const csp = { connectDomains: ['https://api.example.com'] };
    const server = new McpServer({ name: 'p', version: '1' }).addUiResource('ui://p/view', { html: 'x', csp });
    csp.connectDomains.push('https://evil.example.com');
    const { client } = await connected(server, 'legacy');
    expect((await client.readResource({ uri: 'ui://p/view' })).contents[0]._meta).toEqual({
      ui: { csp: { connectDomains: ['https://api.example.com'] } },
    });
  });
});

const asking = () => new McpServer({ name: 'asking', version: '1' }).add(new Asking());

describe('sampling and elicitation in the 2025 era', () => {
  it('sends sampling/createMessage to a client that declared sampling', async () => {
    const { client } = await connected(asking(), 'legacy', { sampling: {} });
    client.setRequestHandler('sampling/createMessage', async () => ({
      role: 'assistant',
      content: { type: 'text', text: 'hello' },
      model: 'm',
    }));
    expect((await client.callTool({ name: 'sample', arguments: {} })).content).toEqual([{ type: 'text', text: 'model said hello' }]);
  });

  it('sends elicitation/create to a client that declared elicitation', async () => {
    const { client } = await connected(asking(), 'legacy', { elicitation: { form: {} } });
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { name: 'Ada' } }));
    expect((await client.callTool({ name: 'ask', arguments: {} })).content).toEqual([{ type: 'text', text: 'hello Ada' }]);
  });

  it('fails the tool (masked) when the client did not declare sampling', async () => {
    const { client } = await connected(asking(), 'legacy');
    expect(await client.callTool({ name: 'sample', arguments: {} })).toEqual({
      content: [{ type: 'text', text: 'The tool failed.' }],
      isError: true,
    });
  });
});

describe('RequestContext without sampling', () => {
  it('rejects createMessage on 2026-07-28 with a message that names requireInput', async () => {
    await expect(
      new RequestContext({
        unavailable: 'protocol revision 2026-07-28 has no server-to-client requests; use ctx.requireInput().',
      }).createMessage({ messages: [], maxTokens: 1 }),
    ).rejects.toThrow(
      'Sampling is not available for this request: protocol revision 2026-07-28 has no server-to-client requests; use ctx.requireInput().',
    );
  });
});

describe.each(ERAS)('multi-round input at %s', (_version, mode) => {
  it('asks with requireInput and completes with the answer and the signed state', async () => {
    const { client } = await connected(asking(), mode, { elicitation: { form: {} } });
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { ok: true } }));
    expect((await client.callTool({ name: 'confirm', arguments: {} })).content).toEqual([
      { type: 'text', text: 'confirmed true with state {"asked":1}' },
    ]);
  });
});

describe('logging', () => {
  it('sends notifications/message at or above the level the client set (2025 era)', async () => {
    const { client, received } = await connected(asking(), 'legacy');
    await client.setLoggingLevel('warning');
    await client.callTool({ name: 'log', arguments: {} });
    expect(received.filter((m) => m.method === 'notifications/message').map((m) => m.params)).toEqual([
      { level: 'warning', logger: 'storage', data: { disk: 'low' } },
    ]);
  });

  it('sends nothing on 2026-07-28 unless the request carries a log level', async () => {
    const { client, received } = await connected(asking(), 'auto');
    await client.callTool({ name: 'log', arguments: {} });
    expect(received.filter((m) => m.method === 'notifications/message')).toEqual([]);
    await client.callTool({ name: 'log', arguments: {}, _meta: { 'io.modelcontextprotocol/logLevel': 'debug' } });
    expect(received.filter((m) => m.method === 'notifications/message').map((m) => m.params)).toEqual([
      { level: 'warning', logger: 'storage', data: { disk: 'low' } },
    ]);
  });
});

describe('requestTimeoutMs on the wire', () => {
  it('aborts the signal and answers an error result', async () => {
    const server = new McpServer({ name: 't', version: '1' }, { requestTimeoutMs: 20 }).add(new Asking());
    const { client } = await connected(server, 'legacy');
    expect(await client.callTool({ name: 'slow', arguments: {} })).toEqual({
      content: [{ type: 'text', text: 'The tool did not finish within 20 ms.' }],
      isError: true,
    });
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
    expect(server.listTools().map((t) => t.name)).toEqual(['show', 'board', 'refresh', 'plain', 'later']);
    expect(before.map((t) => t.name)).toEqual(['show', 'board', 'refresh', 'plain']);
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
