import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  DefinitionError,
  Field,
  Int32,
  McpServer,
  OneModelContextError,
  Param,
  Resource,
  Tool,
  ToolError,
  ToolTimeoutError,
  UnknownToolError,
  type LogDetails,
  type McpLogger,
} from '../../src';
import { connected, ERAS } from './support';

/**
 * A logger that keeps every entry, as a user's pino or winston would receive it; but the definition-time warnings
 * of the tools below (their plain string parameters, said once per process to whichever server comes first),
 * which test/generate/robust.test.ts pins.
 */
function capture() {
  const entries: { level: string; message: string; details: LogDetails }[] = [];
  const at = (level: string) => (message: string, details?: LogDetails) => {
    if (details?.event !== 'definition.warning') entries.push({ level, message, details: details! });
  };
  const logger: McpLogger = { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
  return { logger, entries };
}

class Note {
  @Field() title!: string;
  @Field(Int32) stars!: number;
}

class Tools {
  @Tool()
  broken(@Param('secret') secret: string): string {
    throw new Error('database unreachable', { cause: new Error(`connect ECONNREFUSED (password=${secret})`) });
  }

  @Tool()
  refused(): string {
    throw new ToolError('No such docket.');
  }

  @Tool()
  sloppy(): Note {
    return Object.assign(new Note(), { title: 'Hi', stars: 'many' }) as unknown as Note;
  }

  abortReason: unknown;

  @Tool({ returns: String })
  slow(signal: AbortSignal): Promise<string> {
    return new Promise((resolve) =>
      signal.addEventListener('abort', () => {
        this.abortReason = signal.reason;
        resolve('late');
      }),
    );
  }

  @Resource('notes://{id}')
  note(@Param('id') id: string): string {
    throw new Error(`note store down for ${id}`);
  }
}

const text = (result: { content: unknown }) => (result.content as { text: string }[])[0].text;

describe('failures are logged, never sent', () => {
  it.each(ERAS)(
    'a masked failure at %s reaches the logger with tool, request, error, stack and cause; the client sees only the mask',
    async (_version, mode) => {
      const { logger, entries } = capture();
      const server = new McpServer({ name: 'log', version: '1' }, { logger }).add(new Tools());
      const { client, received } = await connected(server, mode);
      const result = await client.callTool({ name: 'broken', arguments: { secret: 'hunter2' } });
      expect(text(result as never)).toBe('The tool failed.');
      expect(JSON.stringify(received)).not.toContain('hunter2');
      expect(JSON.stringify(received)).not.toContain('ECONNREFUSED');
      expect(entries).toHaveLength(1);
      const [entry] = entries;
      expect(entry.level).toBe('error');
      expect(entry.details.event).toBe('tool.failed');
      expect(entry.details.tool).toBe('broken');
      expect(typeof entry.details.requestId).toBe('number');
      expect(entry.message).toBe(
        `Tool 'broken' failed (request ${entry.details.requestId}): Error: database unreachable <- caused by Error: connect ECONNREFUSED (password=hunter2)`,
      );
      const error = entry.details.error as Error;
      expect(error.stack).toContain('database unreachable');
      expect(error.stack).toContain('logging.test.ts');
      expect((error.cause as Error).message).toBe('connect ECONNREFUSED (password=hunter2)');
      await client.close();
    },
  );

  it('a ToolError is the model-visible answer, not a failure: nothing is logged', async () => {
    const { logger, entries } = capture();
    const server = new McpServer({ name: 'log', version: '1' }, { logger }).add(new Tools());
    expect(text(await server.callTool('refused', {}))).toBe('No such docket.');
    expect(entries).toEqual([]);
  });

  it('an argument error is the model-visible answer: nothing is logged', async () => {
    const { logger, entries } = capture();
    const server = new McpServer({ name: 'log', version: '1' }, { logger }).add(new Tools());
    expect(text(await server.callTool('broken', {}))).toBe('Argument \'secret\' is not valid. It is required: a string, such as "text".');
    expect(entries).toEqual([]);
  });

  it('an output-schema mismatch is logged with its path', async () => {
    const { logger, entries } = capture();
    const server = new McpServer({ name: 'log', version: '1' }, { logger }).add(new Tools());
    expect(text(await server.callTool('sloppy', {}, { context: { requestId: 7 } }))).toBe('The tool failed.');
    expect(entries.map((e) => [e.level, e.details.event, e.details.tool, e.details.path, e.details.requestId])).toEqual([
      ['error', 'result.mismatch', 'sloppy', 'stars', 7],
    ]);
    expect(entries[0].message).toMatch(
      /^The result of tool 'sloppy' does not match its output schema at 'stars' \(request 7\): ResultMismatchError: /,
    );
  });

  it('a timeout is logged as a warning; the tool sees a ToolTimeoutError as its abort reason', async () => {
    const { logger, entries } = capture();
    const tools = new Tools();
    const server = new McpServer({ name: 'log', version: '1' }, { logger, requestTimeoutMs: 20 }).add(tools);
    expect(text(await server.callTool('slow', {}))).toBe('The tool did not finish within 20 ms.');
    expect(tools.abortReason).toBeInstanceOf(ToolTimeoutError);
    expect(entries.map((e) => [e.level, e.details.event, e.details.tool, e.message])).toEqual([
      ['warn', 'tool.timeout', 'slow', "Tool 'slow' did not finish within 20 ms"],
    ]);
  });

  it('a failing resource is logged with the session of an HTTP client; the client gets the masked -32603', async () => {
    const { logger, entries } = capture();
    const server = new McpServer({ name: 'log', version: '1' }, { logger }).add(new Tools());
    const { url } = await server.serveHttp({ port: 0 });
    const transport = new V1Http(new URL(url));
    const client = new V1Client({ name: 'v1', version: '1' });
    await client.connect(transport);
    await expect(client.readResource({ uri: 'notes://42' })).rejects.toThrow('MCP error -32603: The resource failed.');
    expect(entries.map((e) => [e.details.event, e.details.resource, e.details.sessionId])).toEqual([
      ['resource.failed', 'note', transport.sessionId],
    ]);
    expect(entries[0].message).toContain('Error: note store down for 42');
    await client.close();
    await server.close();
  });

  it('an HTTP handler error, answered 500, is logged instead of swallowed', async () => {
    const { logger, entries } = capture();
    const mcp = new McpServer({ name: 'log', version: '1' }, { logger }).createHttpHandler({ validateHost: false });
    // A framework's parsed body whose property throws when read: nothing the endpoint does with it can succeed.
    const hostile = Object.defineProperty({ id: 1, method: 'tools/list' }, 'jsonrpc', {
      enumerable: true,
      get(): never {
        throw new TypeError('the body cannot be read');
      },
    });
    const http = createServer((req, res) => void mcp.handle(req, res, { body: hostile }));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const { port } = http.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}/mcp?token=abc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(500);
    expect(await response.text()).toBe('{"jsonrpc":"2.0","error":{"code":-32603,"message":"Internal error"},"id":null}');
    expect(entries.map((e) => [e.level, e.details.event, (e.details.error as Error).name])).toEqual([
      ['error', 'http.failed', 'TypeError'],
    ]);
    expect(entries[0].message).toMatch(/^HTTP POST \/mcp failed: TypeError: /);
    await mcp.close();
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  });

  it('logger: false logs nothing at all', async () => {
    const written: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((chunk: string) => written.push(String(chunk)) > 0) as typeof write;
    const server = new McpServer({ name: 'log', version: '1' }, { logger: false }).add(new Tools());
    const result = await server.callTool('broken', { secret: 's' }).finally(() => (process.stderr.write = write));
    expect(text(result)).toBe('The tool failed.');
    expect(written).toEqual([]);
  });

  it("escapes a client's control characters (NEXT LINE U+0085, a newline, a line separator) in the line", async () => {
    const messages: string[] = [];
    const logger = { error: (m: string) => void messages.push(m), warn: () => undefined, info: () => undefined, debug: () => undefined };
    const server = new McpServer({ name: 'log', version: '1' }, { logger }).add(new Tools());
    // 0x85 passes Node's header check in a latin1 header such as Mcp-Session-Id; before, it reached the log as it came.
    await server.callTool('broken', { secret: 's' }, { context: { requestId: 'r\u2028-1', sessionId: 'abc\u0085ERROR forged\nline' } });
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain('(request "r\\u2028-1", session "abc\\u0085ERROR forged\\nline")');
    expect([...messages[0]].filter((c) => c < ' ' || (c >= '\u007f' && c <= '\u009f') || c === '\u2028' || c === '\u2029')).toEqual([]);
  });

  it('by default each failure is one line on stderr, stack and causes included', async () => {
    const written: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((chunk: string) => written.push(String(chunk)) > 0) as typeof write;
    const server = new McpServer({ name: 'log', version: '1' }).add(new Tools());
    await server
      .callTool('broken', { secret: 's' }, { context: { requestId: 'r-1', sessionId: 'abc' } })
      .finally(() => (process.stderr.write = write));
    expect(written).toHaveLength(1);
    const line = written[0];
    expect(line.endsWith('\n')).toBe(true);
    expect(line.slice(0, -1)).not.toContain('\n');
    expect(line).toMatch(
      /^\d{4}-\d\d-\d\dT[\d:.]+Z ERROR onemodelcontext tool\.failed: Tool 'broken' failed \(request "r-1", session "abc"\): Error: database unreachable <- caused by Error: connect ECONNREFUSED \(password=s\) stack="/,
    );
    const stack = JSON.parse(line.slice(line.indexOf('stack=') + 'stack='.length)) as string;
    expect(stack).toMatch(/^Error: database unreachable\n {4}at /);
    expect(stack).toContain('\nCaused by: Error: connect ECONNREFUSED (password=s)\n    at ');
  });

  it('a logger without the four methods is refused with the fix', () => {
    expect(() => new McpServer({ name: 'log', version: '1' }, { logger: { error() {}, warn() {} } as never })).toThrow(
      "The logger option needs error, warn, info and debug methods (console, pino, winston ...); 'info' is missing. Pass false to log nothing.",
    );
  });

  it('a logger that throws loses neither the entry nor the answer', async () => {
    const written: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((chunk: string) => written.push(String(chunk)) > 0) as typeof write;
    const thrower = () => {
      throw new Error('log shipper down');
    };
    const server = new McpServer(
      { name: 'log', version: '1' },
      { logger: { error: thrower, warn: thrower, info: thrower, debug: thrower } },
    ).add(new Tools());
    const result = await server.callTool('broken', { secret: 's' }).finally(() => (process.stderr.write = write));
    expect(text(result)).toBe('The tool failed.');
    expect(written).toHaveLength(1);
    expect(written[0]).toContain("The logger threw while logging: Tool 'broken' failed: Error: database unreachable");
    expect(written[0]).toContain('log shipper down');
  });
});

describe('the library errors share one base', () => {
  it.each([
    ['ToolError', 'TOOL_ERROR', new ToolError('x')],
    ['UnknownToolError', 'UNKNOWN_TOOL', new UnknownToolError('x')],
    ['ToolTimeoutError', 'TOOL_TIMEOUT', new ToolTimeoutError(5)],
    ['DefinitionError', 'DEFINITION_INVALID', new DefinitionError('X', [])],
  ] as const)('%s is a OneModelContextError with code %s', (name, code, error) => {
    expect(error).toBeInstanceOf(OneModelContextError);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe(name);
    expect(error.code).toBe(code);
  });
});
