import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ArrayOf,
  DictionaryOf,
  Field,
  Int64,
  Json,
  McpServer,
  Nullable,
  Tool,
  TOOL_FAILED_CHANNEL,
  type CallToolResult,
  type LogDetails,
  type McpLogger,
} from '../../../src';

/**
 * Issue 25: a bigint result is written as a JSON number only where that number is exact (within
 * ±(2^53 − 1)); any other is refused with its path and a log line, or written as digits where the declared
 * type is a string. Never rounded.
 */

const SAFE = 2n ** 53n - 1n;
const FIRST_UNSAFE = 2n ** 53n;

class Ledger {
  @Field() total!: bigint;
  @Field(Int64) count!: number;
  @Field() label!: string;
  @Field(ArrayOf(BigInt)) parts!: bigint[];
}

function ledger(total: bigint, parts: bigint[] = [1n]): Ledger {
  return Object.assign(new Ledger(), { total, count: 3n as unknown as number, label: 9007199254740993n as unknown as string, parts });
}

class Tools {
  value: unknown = 0n;
  @Tool() big(): bigint {
    return this.value as bigint;
  }
  @Tool({ returns: Int64 }) int64(): number {
    return this.value as number;
  }
  @Tool() real(): number {
    return this.value as number;
  }
  @Tool() digits(): string {
    return this.value as unknown as string;
  }
  @Tool({ returns: Nullable(BigInt) }) maybe(): bigint | null {
    return this.value as bigint | null;
  }
  @Tool({ returns: Ledger }) ledger(): Ledger {
    return this.value as Ledger;
  }
  @Tool({ returns: DictionaryOf(BigInt) }) counts(): Map<string, bigint> {
    return this.value as Map<string, bigint>;
  }
  @Tool({ returns: Json }) json(): unknown {
    return this.value;
  }
  @Tool() async loose(): Promise<unknown> {
    return this.value;
  }
}

function capture() {
  const entries: { level: string; message: string; details: LogDetails }[] = [];
  const at = (level: string) => (message: string, details?: LogDetails) => void entries.push({ level, message, details: details! });
  const logger: McpLogger = { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
  return { logger, entries };
}

const refusal = (path?: string) =>
  JSON.stringify({
    content: [
      {
        type: 'text',
        text: `${path === undefined ? 'The result' : `The result at '${path}'`} is a whole number beyond ±9007199254740991, which a JSON number cannot carry exactly; it was not sent.`,
      },
    ],
    isError: true,
  });

describe('bigint results', () => {
  const tools = new Tools();
  const { logger, entries } = capture();
  const server = new McpServer({ name: 'big', version: '1' }, { logger }).add(tools);
  // `loose` is undeclared on purpose; its warning at add() is not what these tests count.
  entries.length = 0;
  const call = async (name: string, value: unknown): Promise<string> => {
    tools.value = value;
    return JSON.stringify((await server.callTool(name, {})) as CallToolResult);
  };
  beforeEach(() => (entries.length = 0));

  it.each([
    ['big', SAFE, '{"content":[{"type":"text","text":"9007199254740991"}]}'],
    ['big', -SAFE, '{"content":[{"type":"text","text":"-9007199254740991"}]}'],
    ['int64', 42n, '{"content":[{"type":"text","text":"42"}]}'],
    ['real', -7n, '{"content":[{"type":"text","text":"-7"}]}'],
    ['maybe', null, '{"content":[{"type":"text","text":"null"}]}'],
    ['maybe', 5n, '{"content":[{"type":"text","text":"5"}]}'],
    ['digits', 2n ** 64n, '{"content":[{"type":"text","text":"18446744073709551616"}]}'],
    [
      'loose',
      { a: [SAFE, -1n], m: new Map([['k', 2n]]) },
      '{"content":[{"type":"text","text":"{\\"a\\":[9007199254740991,-1],\\"m\\":{\\"k\\":2}}"}]}',
    ],
    [
      'json',
      { a: [SAFE, { b: 1n }], c: 'x' },
      '{"content":[{"type":"text","text":"{\\"a\\":[9007199254740991,{\\"b\\":1}],\\"c\\":\\"x\\"}"}]}',
    ],
  ])('%s: %p within the safe range is written as its exact number (digits where declared a string)', async (name, value, expected) => {
    expect(await call(name, value)).toBe(expected);
    expect(entries).toEqual([]);
  });

  it('a record holding safe bigints: structuredContent with exact numbers, a bigint declared a string as its digits', async () => {
    const json = '{"total":9007199254740991,"count":3,"label":"9007199254740993","parts":[-9007199254740991,0]}';
    expect(await call('ledger', ledger(SAFE, [-SAFE, 0n]))).toBe(
      `{"content":[{"type":"text","text":${JSON.stringify(json)}}],"structuredContent":${json}}`,
    );
  });

  it.each([
    ['big', FIRST_UNSAFE, undefined],
    ['big', -FIRST_UNSAFE, undefined],
    ['int64', 2n ** 63n, undefined],
    ['real', FIRST_UNSAFE + 1n, undefined],
    ['maybe', -(2n ** 70n), undefined],
    ['ledger', ledger(FIRST_UNSAFE + 1n), 'total'],
    ['ledger', ledger(1n, [1n, 2n, -FIRST_UNSAFE]), 'parts[2]'],
    [
      'counts',
      new Map([
        ['ok', 1n],
        ['grams per tonne', FIRST_UNSAFE],
      ]),
      'grams per tonne',
    ],
    ['json', { rows: [{ id: 1n }, { id: 2n ** 60n }] }, 'rows[1].id'],
    ['loose', { totals: new Map([['x', new Set([1n, FIRST_UNSAFE])]]) }, 'totals.x[1]'],
    ['loose', 2n ** 60n, undefined],
  ])('%s: %p beyond the safe range is refused at its path and logged, never rounded', async (name, value, path) => {
    const answer = await call(name, value);
    expect(answer).toBe(refusal(path));
    expect(entries.map((e) => [e.level, e.details.event, e.details.tool, e.details.path])).toEqual([
      ['error', 'result.inexact', name, path ?? '(result)'],
    ]);
    expect(entries[0].message).toContain(
      `holds a bigint at '${path ?? '(result)'}' beyond ±9007199254740991, which no JSON number carries exactly: declare that value a string`,
    );
  });

  it('the refusal is published on the failure channel like any other tool failure', async () => {
    const published: { tool: string; error: Error }[] = [];
    const listener = (message: unknown) => published.push(message as { tool: string; error: Error });
    subscribe(TOOL_FAILED_CHANNEL, listener);
    try {
      await call('big', FIRST_UNSAFE);
    } finally {
      unsubscribe(TOOL_FAILED_CHANNEL, listener);
    }
    expect(published.map((p) => [p.tool, p.error.name, (p.error as Error & { code: string }).code])).toEqual([
      ['big', 'InexactIntegerError', 'RESULT_INEXACT'],
    ]);
  });

  it('a cycle in a loose result is still the masked failure, not a stack overflow', async () => {
    const cyclic: Record<string, unknown> = { n: 1n };
    cyclic.self = cyclic;
    expect(await call('loose', cyclic)).toBe('{"content":[{"type":"text","text":"The tool failed."}],"isError":true}');
    expect(entries.map((e) => [e.details.event, String(e.details.error)])).toEqual([
      ['tool.failed', expect.stringContaining('TypeError: Converting circular structure to JSON')],
    ]);
  });
});

describe('bigint results through a real client over Streamable HTTP', () => {
  it('a client reads the exact number within the safe range and an isError refusal beyond it', async () => {
    const tools = new Tools();
    const { logger, entries } = capture();
    const server = new McpServer({ name: 'big', version: '1' }, { logger }).add(tools);
    const { url } = await server.serveHttp({ port: 0 });
    const client = new V1Client({ name: 'v1', version: '1' });
    const transport = new V1Http(new URL(url));
    try {
      await client.connect(transport);
      tools.value = ledger(SAFE, [-SAFE]);
      const exact = await client.callTool({ name: 'ledger', arguments: {} });
      expect(JSON.stringify(exact.structuredContent)).toBe(
        '{"total":9007199254740991,"count":3,"label":"9007199254740993","parts":[-9007199254740991]}',
      );
      expect(exact.isError).toBeUndefined();

      tools.value = ledger(SAFE, [1n, SAFE + 2n]);
      const refused = await client.callTool({ name: 'ledger', arguments: {} });
      expect(JSON.stringify(refused)).toBe(refusal('parts[1]'));
      const failures = entries.filter((e) => e.level === 'error');
      expect(failures.map((e) => [e.details.event, e.details.path, e.details.sessionId])).toEqual([
        ['result.inexact', 'parts[1]', transport.sessionId],
      ]);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
