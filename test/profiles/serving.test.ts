import 'reflect-metadata';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { McpServer, Param, Tool } from '../../src';
import { answerOf, modernRequest } from '../support/modern-http';
import { NestApps } from '../support/nest-app';
import { Everything } from './fixture';

/**
 * A listing profile reaches every way of serving: `serveHttp({ listing })` and `createHttpHandler`'s options (both
 * eras), the stdio loop and the SDK's stdio path alike, and `McpModule.forRoot({ listing })` on a real Nest app.
 * Each answer's `inputSchema` is compared, as an exact string, with the profile's listing from `listTools`.
 */

interface Serving {
  serveStreams(stdin: Readable, stdout: Writable, options: object, loop: boolean): Promise<void>;
}

const silent = { logger: false } as const;
const schemaOf = (server: McpServer, listing: 'gemini' | 'openai-strict') => JSON.stringify(server.listTools({ listing })[0].inputSchema);

/** The answers of a stdio connection to `lines`, once `count` arrived. */
async function overStdio(server: McpServer, lines: readonly object[], count: number, loop: boolean): Promise<Record<string, unknown>[]> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const received: Record<string, unknown>[] = [];
  let buffered = '';
  let wake: () => void = () => undefined;
  stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    for (let at = buffered.indexOf('\n'); at !== -1; at = buffered.indexOf('\n')) {
      received.push(JSON.parse(buffered.slice(0, at)) as Record<string, unknown>);
      buffered = buffered.slice(at + 1);
    }
    wake();
  });
  await (server as unknown as Serving).serveStreams(stdin, stdout, {}, loop);
  for (const line of lines) stdin.write(`${JSON.stringify(line)}\n`);
  while (received.length < count) await new Promise<void>((resolve) => (wake = resolve));
  await server.close();
  return received;
}

const OPENING = [
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/list' },
];

const toolsOf = (answer: Record<string, unknown> | undefined) => (answer?.result as { tools: { inputSchema: unknown }[] }).tools;

describe.each([
  ['the stdio loop', true],
  ["the SDK's stdio path", false],
] as const)("a server's listing profile over %s", (_, loop) => {
  it('lists the profile', async () => {
    const make = () => new McpServer({ name: 'p', version: '1' }, { ...silent, listing: 'gemini' }).add(new Everything());
    const answers = await overStdio(make(), OPENING, 2, loop);
    expect(JSON.stringify(toolsOf(answers.find((a) => a.id === 2))[0].inputSchema)).toBe(schemaOf(make(), 'gemini'));
  });
});

class Notes {
  @Tool() note(
    @Param({ type: String, optional: true }) title: string | undefined,
    @Param({ type: String, optional: true }) body?: string,
  ): string {
    return `${title ?? '(untitled)'}: ${body ?? ''}`;
  }
}

describe("serveHttp({ listing: 'openai-strict' })", () => {
  let server: McpServer;
  let url: string;
  beforeAll(async () => {
    server = new McpServer({ name: 'p', version: '1' }, silent).add(new Everything()).add(new Notes());
    const { port } = await server.serveHttp({ port: 0, host: '127.0.0.1', listing: 'openai-strict' });
    url = `http://127.0.0.1:${port}/mcp`;
  });
  afterAll(() => server.close());

  it("lists the profile to a 2026-07-28 client, while the server's own listTools() stays exact", async () => {
    const answer = answerOf(await modernRequest(url, 'tools/list', {}));
    const tools = (answer.result as { tools: { name: string; inputSchema: unknown }[] }).tools;
    expect(JSON.stringify(tools.find((t) => t.name === 'order')!.inputSchema)).toBe(schemaOf(server, 'openai-strict'));
    expect(JSON.stringify(server.listTools()[0].inputSchema)).not.toBe(schemaOf(server, 'openai-strict'));
  });

  it('reads a null for an optional parameter as absent, as the strict listing makes the model send it', async () => {
    const answer = answerOf(await modernRequest(url, 'tools/call', { name: 'note', arguments: { title: null, body: 'hi' } }));
    expect((answer.result as { content: unknown }).content).toEqual([{ type: 'text', text: '(untitled): hi' }]);
  });
});

@Injectable()
class NestNotes {
  @Tool() note(@Param({ type: String, optional: true }) title: string | undefined): string {
    return title ?? '(untitled)';
  }
}

describe("McpModule.forRoot({ listing: 'openai-strict' })", () => {
  const apps = new NestApps('nest-profiles', [NestNotes]);
  afterAll(() => apps.close());

  it('lists the profile over the app and reads its nulls as absent', async () => {
    const url = await apps.serve({ listing: 'openai-strict' });
    const listed = answerOf(await modernRequest(url, 'tools/list', {}));
    expect(JSON.stringify((listed.result as { tools: { inputSchema: unknown }[] }).tools[0].inputSchema)).toBe(
      '{"type":"object","properties":{"title":{"type":["string","null"]}},"required":["title"],"additionalProperties":false}',
    );
    const called = answerOf(await modernRequest(url, 'tools/call', { name: 'note', arguments: { title: null } }));
    expect((called.result as { content: unknown }).content).toEqual([{ type: 'text', text: '(untitled)' }]);
  });
});
