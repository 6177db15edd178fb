import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { Exclude, Expose } from 'class-transformer';
import {
  ArrayOf,
  DictionaryOf,
  Field,
  Int32,
  McpServer,
  Nullable,
  SetOf,
  TimeSpan,
  Tool,
  ToolError,
  TOOL_FAILED_CHANNEL,
  Uuid,
  RequestContext,
  UnknownToolError,
  type CallToolResult,
} from '../../src';
import { textOf } from '../support/probe';

enum Level {
  Low,
  High,
}

class Note {
  @Field() title!: string;
  @Expose({ name: 'created_at' }) @Field() createdAt!: Date;
  @Exclude({ toPlainOnly: true }) @Field() secret!: string;
  @Field(Level) level!: Level;
}

function note(): Note {
  return Object.assign(new Note(), { title: 'T', createdAt: new Date('2024-01-02T03:04:05Z'), secret: 's', level: Level.High });
}

class Results {
  @Tool() nothing(): void {}
  @Tool() async laterNothing(): Promise<void> {}
  @Tool() text(): string {
    return 'hello';
  }
  @Tool() nullText(): string {
    return null as unknown as string;
  }
  @Tool() count(): number {
    return 42;
  }
  @Tool() flag(): boolean {
    return true;
  }
  @Tool() when(): Date {
    return new Date('2024-01-02T03:04:05Z');
  }
  @Tool() where(): URL {
    return new URL('https://example.com/x');
  }
  @Tool({ returns: Uuid }) id(): string {
    return '0f8fad5b-d9cb-469f-a165-70867728950e';
  }
  @Tool({ returns: Level }) level(): Level {
    return Level.High;
  }
  @Tool({ returns: ArrayOf(Int32) }) list(): number[] {
    return [1, 2];
  }
  @Tool({ returns: SetOf(String) }) set(): Set<string> {
    return new Set(['a', 'b']);
  }
  @Tool({ returns: TimeSpan }) span(): number {
    return 3723000;
  }
  @Tool() note(): Note {
    return note();
  }
  @Tool({ returns: Note }) async laterNote(): Promise<Note> {
    return note();
  }
  @Tool({ returns: Nullable(Note) }) async maybe(): Promise<Note | null> {
    return null;
  }
  @Tool({ returns: DictionaryOf(Int32) }) async counts(): Promise<Record<string, number>> {
    return { a: 1 };
  }
  @Tool() async autoText(): Promise<string> {
    return 'late';
  }
  @Tool() async autoJson(): Promise<unknown> {
    return { a: [1, 2] };
  }
  @Tool() async autoBlock(): Promise<unknown> {
    return { type: 'image', data: 'aGk=', mimeType: 'image/png' };
  }
  @Tool() async autoBlocks(): Promise<unknown> {
    return [
      { type: 'text', text: 'a' },
      { type: 'text', text: 'b' },
    ];
  }
  @Tool() async passthrough(): Promise<unknown> {
    return { content: [{ type: 'text', text: 'raw' }], isError: true };
  }
  @Tool() async autoNull(): Promise<unknown> {
    return null;
  }
  @Tool() mismatch(): Note {
    return Object.assign(new Note(), { title: 5 }) as unknown as Note;
  }
  @Tool() refused(): string {
    throw new ToolError('No such docket 7.');
  }
  @Tool() broken(): string {
    throw new Error('password=hunter2');
  }
  @Tool() async laterBroken(): Promise<string> {
    throw new Error('password=hunter2');
  }
}

const server = new McpServer({ name: 't', version: '1' }).add(new Results());
const call = (name: string) => server.callTool(name, {});
const json = (r: CallToolResult) => JSON.stringify(r);
const noteJson = '{"title":"T","created_at":"2024-01-02T03:04:05.000Z","level":"High"}';

describe('results (DESIGN.md section 6)', () => {
  it.each([
    ['nothing', '{"content":[]}'],
    ['later_nothing', '{"content":[]}'],
    ['text', '{"content":[{"type":"text","text":"hello"}]}'],
    ['null_text', '{"content":[{"type":"text","text":"null"}]}'],
    ['count', '{"content":[{"type":"text","text":"42"}]}'],
    ['flag', '{"content":[{"type":"text","text":"true"}]}'],
    ['when', '{"content":[{"type":"text","text":"\\"2024-01-02T03:04:05.000Z\\""}]}'],
    ['where', '{"content":[{"type":"text","text":"\\"https://example.com/x\\""}]}'],
    ['id', '{"content":[{"type":"text","text":"\\"0f8fad5b-d9cb-469f-a165-70867728950e\\""}]}'],
    ['level', '{"content":[{"type":"text","text":"High"}]}'],
    ['list', '{"content":[{"type":"text","text":"[1,2]"}]}'],
    ['set', '{"content":[{"type":"text","text":"[\\"a\\",\\"b\\"]"}]}'],
    ['span', '{"content":[{"type":"text","text":"\\"01:02:03\\""}]}'],
    ['note', `{"content":[{"type":"text","text":${JSON.stringify(noteJson)}}],"structuredContent":${noteJson}}`],
    ['later_note', `{"content":[{"type":"text","text":${JSON.stringify(noteJson)}}],"structuredContent":${noteJson}}`],
    ['maybe', '{"content":[{"type":"text","text":"null"}]}'],
    ['counts', '{"content":[{"type":"text","text":"{\\"a\\":1}"}],"structuredContent":{"a":1}}'],
    ['auto_text', '{"content":[{"type":"text","text":"late"}]}'],
    ['auto_json', '{"content":[{"type":"text","text":"{\\"a\\":[1,2]}"}]}'],
    ['auto_block', '{"content":[{"type":"image","data":"aGk=","mimeType":"image/png"}]}'],
    ['auto_blocks', '{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}'],
    ['passthrough', '{"content":[{"type":"text","text":"raw"}],"isError":true}'],
    ['auto_null', '{"content":[{"type":"text","text":"null"}]}'],
    ['refused', '{"content":[{"type":"text","text":"No such docket 7."}],"isError":true}'],
  ])('%s', async (name, expected) => {
    expect(json(await call(name))).toBe(expected);
  });

  it('lists the outputSchema of a record result as written', () => {
    const listing = server.listTools().find((t) => t.name === 'note')!;
    expect(JSON.stringify(listing.outputSchema)).toBe(
      '{"type":"object","properties":{"title":{"type":"string"},"created_at":{"type":"string","format":"date-time"},' +
        '"level":{"type":"string","enum":["Low","High"]}},"required":["title","created_at","level"],"additionalProperties":false}',
    );
    expect(JSON.stringify(server.listTools().find((t) => t.name === 'maybe')!.outputSchema)).toBe(JSON.stringify(listing.outputSchema));
  });
});

describe('failures are masked and published', () => {
  const published: { tool: string; error: Error }[] = [];
  const listener = (message: unknown) => published.push(message as { tool: string; error: Error });
  beforeAll(() => subscribe(TOOL_FAILED_CHANNEL, listener));
  afterAll(() => unsubscribe(TOOL_FAILED_CHANNEL, listener));
  beforeEach(() => (published.length = 0));

  it.each(['broken', 'later_broken'])('%s: the secret never reaches the result but reaches the channel', async (name) => {
    const result = await call(name);
    expect(json(result)).toBe('{"content":[{"type":"text","text":"The tool failed."}],"isError":true}');
    expect(json(result)).not.toContain('hunter2');
    expect(published).toHaveLength(1);
    expect(published[0].tool).toBe(name);
    expect(published[0].error.message).toBe('password=hunter2');
  });

  it('a record that does not match its own output schema is a masked failure', async () => {
    expect(json(await call('mismatch'))).toBe('{"content":[{"type":"text","text":"The tool failed."}],"isError":true}');
    expect(published[0].error.message).toBe(
      'The result of mismatch does not match its output schema at \'title\': Expected a string, such as "text", got a number.',
    );
  });

  it('a ToolError is sent as it is and not published', async () => {
    await call('refused');
    expect(published).toEqual([]);
  });

  it('an unknown tool rejects with UnknownToolError (-32602 on the wire)', async () => {
    await expect(server.callTool('nope', {})).rejects.toThrow(UnknownToolError);
    await expect(server.callTool('nope', {})).rejects.toMatchObject({
      code: 'UNKNOWN_TOOL',
      jsonRpcCode: -32602,
      message: 'Unknown tool: nope',
    });
  });
});

describe('RequestContext and AbortSignal', () => {
  class Ctx {
    @Tool() async slow(steps: number, ctx: RequestContext, signal: AbortSignal): Promise<string> {
      for (let i = 1; i <= steps; i++) {
        await ctx.reportProgress(i, steps, `step ${i}`);
        if (signal.aborted) return `aborted at ${i}`;
        await new Promise((r) => setTimeout(r, 1));
      }
      return `${ctx.protocolVersion}:${ctx.clientInfo?.name}:${ctx.signal === signal}`;
    }
    @Tool() async hang(signal: AbortSignal): Promise<string> {
      await new Promise((resolve) => signal.addEventListener('abort', resolve));
      return 'stopped';
    }
    @Tool() async sample(ctx: RequestContext): Promise<string> {
      return String(await ctx.createMessage({ messages: [], maxTokens: 1 }));
    }
  }

  it('fills the context and the signal and reports progress', async () => {
    const server = new McpServer({ name: 't', version: '1' }).add(new Ctx());
    const progress: unknown[] = [];
    const result = await server.callTool(
      'slow',
      { steps: 2 },
      {
        onProgress: (p) => progress.push(p),
        context: { protocolVersion: '2025-11-25', clientInfo: { name: 'c', version: '1' } },
      },
    );
    expect(textOf(result)).toBe('2025-11-25:c:true');
    expect(progress).toEqual([
      { progress: 1, total: 2, message: 'step 1' },
      { progress: 2, total: 2, message: 'step 2' },
    ]);
  });

  it('passes the caller signal', async () => {
    const server = new McpServer({ name: 't', version: '1' }).add(new Ctx());
    const controller = new AbortController();
    controller.abort();
    expect(textOf(await server.callTool('slow', { steps: 3 }, { signal: controller.signal }))).toBe('aborted at 1');
  });

  it('aborts the signal and answers an error after requestTimeoutMs', async () => {
    const server = new McpServer({ name: 't', version: '1' }, { requestTimeoutMs: 20 }).add(new Ctx());
    expect(json(await server.callTool('hang', {}))).toBe(
      '{"content":[{"type":"text","text":"The tool did not finish within 20 ms."}],"isError":true}',
    );
  });

  it('masks sampling where the client offers none', async () => {
    const server = new McpServer({ name: 't', version: '1' }).add(new Ctx());
    expect(json(await server.callTool('sample', {}))).toBe('{"content":[{"type":"text","text":"The tool failed."}],"isError":true}');
  });
});

describe('the quick path', () => {
  it('hands the handler one object of read values and the context', async () => {
    const server = new McpServer({ name: 't', version: '1' }).tool(
      'add',
      { params: { a: Int32, b: Int32 } },
      ({ a, b }, ctx) => `${Number(a) + Number(b)} ${ctx instanceof RequestContext}`,
    );
    expect(textOf(await server.callTool('add', { a: 1, b: 2 }))).toBe('3 true');
    expect(textOf(await server.callTool('add', { a: 1, b: 2.5 }))).toBe(
      "Argument 'b' is not valid. Expected a whole number from -2147483648 to 2147483647, such as 0.",
    );
  });
});

describe('a value, a promise of it and a thenable of it are written alike', () => {
  /** A thenable that is no native promise: it must be waited for as `await` waits, not written as it is. */
  const thenable = <T>(settle: (resolve: (value: T) => void, reject: (error: Error) => void) => void) =>
    ({
      then: (resolve: (value: T) => void, reject: (error: Error) => void) => setImmediate(() => settle(resolve, reject)),
    }) as unknown as PromiseLike<T>;

  class Shapes {
    @Tool() plain(): string {
      return 'same';
    }
    @Tool() async promised(): Promise<string> {
      return 'same';
    }
    @Tool({ returns: String }) thenableValue(): PromiseLike<string> {
      return thenable<string>((resolve) => resolve('same'));
    }
    @Tool() note(): Note {
      return note();
    }
    @Tool({ returns: Note }) thenableNote(): PromiseLike<Note> {
      return thenable<Note>((resolve) => resolve(note()));
    }
    @Tool() throws(): string {
      throw new Error('password=hunter2');
    }
    @Tool() async rejects(): Promise<string> {
      throw new Error('password=hunter2');
    }
    @Tool({ returns: String }) thenableRejects(): PromiseLike<string> {
      return thenable<string>((_, reject) => reject(new Error('password=hunter2')));
    }
    @Tool() refusesNow(): string {
      throw new ToolError('No.');
    }
  }

  const same = '{"content":[{"type":"text","text":"same"}]}';
  const noted = `{"content":[{"type":"text","text":${JSON.stringify(noteJson)}}],"structuredContent":${noteJson}}`;
  const failed = '{"content":[{"type":"text","text":"The tool failed."}],"isError":true}';

  // Without a bound the method's value is written at once (a thenable is waited for); with one it runs under the timer.
  describe.each([
    ['without requestTimeoutMs', undefined],
    ['with requestTimeoutMs', 5_000],
  ])('%s', (_, requestTimeoutMs) => {
    const shapes = new McpServer({ name: 't', version: '1' }, { requestTimeoutMs }).add(new Shapes());
    it.each([
      ['plain', same],
      ['promised', same],
      ['thenable_value', same],
      ['note', noted],
      ['thenable_note', noted],
      ['throws', failed],
      ['rejects', failed],
      ['thenable_rejects', failed],
      ['refuses_now', '{"content":[{"type":"text","text":"No."}],"isError":true}'],
    ])('%s', async (name, expected) => {
      expect(json(await shapes.callTool(name, {}))).toBe(expected);
    });
  });
});
