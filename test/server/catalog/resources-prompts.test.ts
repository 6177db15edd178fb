import { DateOnly, Description, Int32, McpServer, Nullable, Param, Prompt, RequestContext, Resource, ToolError, Uuid } from '../../../src';
import { diagnosticLinesOf } from '../../support/diagnostics';
import { connected, ERAS } from '../support';

enum Size {
  Small = 'small',
  Medium = 'medium',
  Large = 'large',
}

class Catalogue {
  @Resource('shop://about', { description: 'About the shop' })
  about(): string {
    return 'We sell things.';
  }

  @Resource('shop://logo', { mimeType: 'image/png' })
  logo(): Uint8Array {
    return new Uint8Array([1, 2, 3]);
  }

  @Resource('shop://items/{id}/{size}', { title: 'Item', mimeType: 'application/json' })
  item(@Param({ type: Int32 }) id: number, @Param({ type: Size }) size: Size): object | undefined {
    return id === 404 ? undefined : { id, size };
  }

  @Resource('shop://days/{day}')
  day(@Param({ type: DateOnly }) day: string): object {
    return { contents: [{ uri: `shop://days/${day}`, text: `day ${day}` }] };
  }

  @Resource('shop://files/{+path}')
  file(path: string): string {
    if (path === 'secret') throw new Error('disk says /etc/passwd');
    if (path === 'gone') throw new ToolError('That file was removed.');
    return `file ${path}`;
  }

  @Prompt({ description: 'Describe an item' })
  describeItem(
    @Description('Item number') @Param({ type: Int32 }) id: number,
    @Param({ type: Size }) size: Size = Size.Medium,
    @Param({ type: Nullable(String) }) note: string | null,
  ): string {
    return `Describe item ${id} in size ${size}${note === null ? '' : ` (${note})`}.`;
  }

  @Prompt('two_messages')
  twoMessages(flag: boolean, ctx: RequestContext): object[] {
    return [
      { role: 'user', content: { type: 'text', text: `flag=${flag}` } },
      { role: 'assistant', content: { type: 'text', text: `version=${ctx.protocolVersion}` } },
    ];
  }
}

const server = () => new McpServer({ name: 'shop', version: '1' }).add(new Catalogue());

describe.each(ERAS)('resources and prompts at %s', (_version, mode) => {
  it('lists static resources and templates', async () => {
    const { client, received } = await connected(server(), mode);
    await client.listResources();
    await client.listResourceTemplates();
    const results = received.filter((m) => m.result).map((m) => m.result as Record<string, unknown>);
    expect(JSON.stringify(results.map((r) => r.resources ?? r.resourceTemplates))).toBe(
      JSON.stringify([
        [
          { uri: 'shop://about', name: 'about', description: 'About the shop' },
          { uri: 'shop://logo', name: 'logo', mimeType: 'image/png' },
        ],
        [
          { uriTemplate: 'shop://items/{id}/{size}', name: 'item', title: 'Item', mimeType: 'application/json' },
          { uriTemplate: 'shop://days/{day}', name: 'day' },
          { uriTemplate: 'shop://files/{+path}', name: 'file' },
        ],
      ]),
    );
  });

  it('reads text, bytes, JSON values and contents', async () => {
    const { client } = await connected(server(), mode);
    expect((await client.readResource({ uri: 'shop://about' })).contents).toEqual([
      { uri: 'shop://about', mimeType: 'text/plain', text: 'We sell things.' },
    ]);
    expect((await client.readResource({ uri: 'shop://logo' })).contents).toEqual([
      { uri: 'shop://logo', mimeType: 'image/png', blob: 'AQID' },
    ]);
    expect((await client.readResource({ uri: 'shop://items/7/large' })).contents).toEqual([
      { uri: 'shop://items/7/large', mimeType: 'application/json', text: '{"id":7,"size":"large"}' },
    ]);
    expect((await client.readResource({ uri: 'shop://days/2026-07-28' })).contents).toEqual([
      { uri: 'shop://days/2026-07-28', text: 'day 2026-07-28' },
    ]);
    expect((await client.readResource({ uri: 'shop://files/a/b%20c' })).contents).toEqual([
      { uri: 'shop://files/a/b%20c', mimeType: 'text/plain', text: 'file a/b%20c' },
    ]);
  });

  it.each([
    ['shop://items/seven/large', "Argument 'id' is not valid. Expected a whole number from -2147483648 to 2147483647, such as 0."],
    ['shop://items/7/Huge', 'Argument \'size\' is not valid. Expected one of: "small", "medium", "large".'],
    ['shop://days/2026-13-01', 'Argument \'day\' is not valid. Expected an RFC 3339 date, such as "2026-12-02".'],
  ])('refuses %s with -32602', async (uri, message) => {
    const { client } = await connected(server(), mode);
    await expect(client.readResource({ uri })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining(message) });
  });

  it('answers a method that returns nothing as not found, with the code of the era', async () => {
    const { client, received } = await connected(server(), mode);
    await expect(client.readResource({ uri: 'shop://items/404/small' })).rejects.toThrow('Resource not found: shop://items/404/small');
    const error = received.filter((m) => m.error).pop()!.error;
    expect(error).toMatchObject({ code: mode === 'auto' ? -32602 : -32002, data: { uri: 'shop://items/404/small' } });
  });

  it('masks a failing resource and passes a ToolError message', async () => {
    const { client } = await connected(server(), mode);
    await expect(client.readResource({ uri: 'shop://files/secret' })).rejects.toMatchObject({
      code: -32603,
      message: expect.not.stringContaining('passwd'),
    });
    await expect(client.readResource({ uri: 'shop://files/gone' })).rejects.toMatchObject({
      code: -32603,
      message: expect.stringContaining('That file was removed.'),
    });
  });

  it('lists prompt arguments with required', async () => {
    const { client, received } = await connected(server(), mode);
    await client.listPrompts();
    expect(JSON.stringify((received.find((m) => m.result)!.result as { prompts: unknown }).prompts)).toBe(
      JSON.stringify([
        {
          name: 'describe_item',
          description: 'Describe an item',
          arguments: [
            { name: 'id', description: 'Item number', required: true },
            { name: 'size', required: false },
            { name: 'note', required: false },
          ],
        },
        { name: 'two_messages', arguments: [{ name: 'flag', required: true }] },
      ]),
    );
  });

  it('gets prompts with typed arguments, defaults and null for a missing nullable', async () => {
    const { client } = await connected(server(), mode);
    expect(await client.getPrompt({ name: 'describe_item', arguments: { id: '3' } })).toMatchObject({
      description: 'Describe an item',
      messages: [{ role: 'user', content: { type: 'text', text: 'Describe item 3 in size medium.' } }],
    });
    expect((await client.getPrompt({ name: 'two_messages', arguments: { flag: 'true' } })).messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'flag=true' } },
      { role: 'assistant', content: { type: 'text', text: `version=${_version}` } },
    ]);
  });

  it.each([
    [{ name: 'describe_item', arguments: { id: '3.5' } }],
    [{ name: 'describe_item', arguments: {} }],
    [{ name: 'describe_item', arguments: { id: '1', size: 'Tiny' } }],
    [{ name: 'two_messages', arguments: { flag: 'yes' } }],
    [{ name: 'no_such_prompt', arguments: {} }],
  ])('refuses %j with -32602', async (params) => {
    const { client } = await connected(server(), mode);
    await expect(client.getPrompt(params)).rejects.toMatchObject({ code: -32602 });
  });

  it('completes enum template variables and prompt arguments by prefix', async () => {
    const { client } = await connected(server(), mode);
    const complete = (ref: Record<string, string>, name: string, value: string) =>
      client.complete({ ref: ref as never, argument: { name, value } });
    expect((await complete({ type: 'ref/resource', uri: 'shop://items/{id}/{size}' }, 'size', 'm')).completion).toEqual({
      values: ['medium'],
      total: 1,
      hasMore: false,
    });
    expect((await complete({ type: 'ref/prompt', name: 'describe_item' }, 'size', '')).completion.values).toEqual([
      'small',
      'medium',
      'large',
    ]);
    expect((await complete({ type: 'ref/prompt', name: 'describe_item' }, 'id', '1')).completion.values).toEqual([]);
  });
});

describe('an unknown resource over HTTP, 2025-11-25', () => {
  const read = { jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri: 'shop://items/404/small' } };
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-11-25',
  };

  /** The JSON-RPC answer of a POST, whether it came as JSON or as one SSE event. */
  async function answerOf(response: Response): Promise<{ error?: { code: number; data?: unknown } }> {
    const text = await response.text();
    return JSON.parse(
      text.startsWith('{')
        ? text
        : text
            .split('\n')
            .find((line) => line.startsWith('data: {'))!
            .slice(6),
    );
  }

  it("is -32002 when served statelessly (legacy: 'stateless'), as on a session", async () => {
    const shop = server();
    const { url } = await shop.serveHttp({ port: 0, legacy: 'stateless' });
    const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(read) });
    await shop.shutdown({ deadlineMs: 1000 });
    expect(response.status).toBe(200);
    expect((await answerOf(response)).error).toEqual({
      code: -32002,
      message: 'Resource not found: shop://items/404/small',
      data: { uri: 'shop://items/404/small' },
    });
  });
});

describe('resource and prompt definitions', () => {
  it('OMCG0002: a resource or prompt parameter that does not parse from text', () => {
    class T {
      @Resource('x://{ids}') r(@Param({ type: [Int32] }) ids: number[]): string {
        return '';
      }
      @Prompt() p(@Param({ type: Uuid }) id: string, data: Uint8Array): string {
        return '';
      }
    }
    expect(diagnosticLinesOf(new T())).toEqual([
      "OMCG0002 T.r, parameter 'ids': Resource parameters are read from text, and a array does not parse from text.",
      "OMCG0002 T.p, parameter 'data': Prompt parameters are read from text, and a bytes does not parse from text.",
    ]);
  });

  it('OMCG0008: template variables and parameters that do not match, and templates that cannot be read', () => {
    class T {
      @Resource('x://{a}/{b}') r(a: string, c: string): string {
        return '';
      }
      @Resource('x://{a}{b}') adjacent(a: string, b: string): string {
        return '';
      }
      @Resource('x://{?q}') query(q: string): string {
        return '';
      }
    }
    expect(diagnosticLinesOf(new T()).map((p) => p.split(':')[0])).toEqual([
      'OMCG0008 T.r',
      "OMCG0008 T.r, parameter 'c'",
      'OMCG0008 T.adjacent',
      'OMCG0008 T.query',
    ]);
  });

  it('OMCG0007: two resources with one URI, two prompts with one name', () => {
    class A {
      @Resource('x://same') one(): string {
        return '';
      }
      @Prompt('p') p1(): string {
        return '';
      }
    }
    class B {
      @Resource('x://same') two(): string {
        return '';
      }
      @Prompt('p') p2(): string {
        return '';
      }
    }
    const server = new McpServer({ name: 't', version: '1' }).add(new A());
    expect(() => server.add(new B())).toThrow(
      /OMCG0007 B\.two: the resource URI 'x:\/\/same' is already used by A\.one\.[\s\S]*OMCG0007 B\.p2: the prompt name 'p' is already used by A\.p1\./,
    );
  });

  it('OMCG0001: a static resource method', () => {
    class T {
      @Resource('x://s') static s(): string {
        return '';
      }
    }
    expect(diagnosticLinesOf(new T())).toEqual(['OMCG0001 T.s: @Resource is on a static method; only instance methods can be resources.']);
  });
});
