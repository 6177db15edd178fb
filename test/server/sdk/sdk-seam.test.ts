import 'reflect-metadata';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import { Server } from '@modelcontextprotocol/server';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { Int32, McpServer, Prompt, Resource, type HttpAddress, type LogDetails, type McpLogger } from '../../../src';
import { SDK_MEMBERS, memberFound, missingMembers } from '../../../src/server/sdk/members';
import { simulateMissingSdkMembers } from '../../../src/server/sdk/seam';
import { HotDispatch } from '../../../src/server/protocol/hot-path';
import { ModernPool } from '../../../src/server/http/modern/modern';
import { LegacyPosts } from '../../../src/server/http/legacy/legacy-posts';
import { LEGACY_HEADERS, eventsOf, openSession, send, type Reply } from '../../support/raw-http';
import { answerOf, modernRequest } from '../../support/modern-http';

/**
 * Issue 24: server/sdk is the one door to the SDK's private members. The canary names every member the seam uses
 * and finds it on the installed SDK (an SDK bump that moves one fails here, naming it); the fallback serves both
 * eras with the answers of the fast paths when a member is missing, and says so once.
 */
jest.setTimeout(60_000);

/** Every private member the seam uses, as docs/architecture.md lists them. */
const MEMBERS = [
  'Protocol._wrapHandler',
  'Protocol._onclose',
  'Protocol._wireCodec',
  'Server._outboundServerInfo',
  'Server._oninitialize',
  'Server._loggingLevels',
  'Server.LOG_LEVEL_SEVERITY',
  'Protocol._supportedProtocolVersions',
  'Protocol._negotiatedProtocolVersion',
  'NodeStreamableHTTPServerTransport._webStandardTransport',
  'WebStandardStreamableHTTPServerTransport._requestToStreamMapping',
];

const probe = () => ({
  server: new Server({ name: 'canary', version: '1' }),
  transport: new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined }),
});

describe('the canary', () => {
  it('names every member the seam uses', () => {
    expect(SDK_MEMBERS.map((m) => m.name)).toEqual(MEMBERS);
  });

  it.each(MEMBERS)('finds %s on the installed SDK with the shape the seam uses', (name) => {
    const member = SDK_MEMBERS.find((m) => m.name === name)!;
    expect(memberFound(member, probe())).toBe(true);
  });

  it('names a member a real SDK object lacks', () => {
    const objects = probe();
    delete (objects.server as unknown as Record<string, unknown>)._loggingLevels;
    (objects.transport as unknown as Record<string, Record<string, unknown>>)._webStandardTransport._requestToStreamMapping = 'moved';
    expect(missingMembers(objects)).toEqual(['Server._loggingLevels', 'WebStandardStreamableHTTPServerTransport._requestToStreamMapping']);
    expect(missingMembers({ server: objects.server })).toEqual(['Server._loggingLevels']);
  });

  it('is listed in docs/architecture.md, member by member', () => {
    const doc = readFileSync(join(__dirname, '../../../docs/architecture.md'), 'utf8');
    expect(MEMBERS.filter((name) => !doc.includes(`\`${name}\``))).toEqual([]);
  });

  it('is the only door: no other file of src/server reads a private SDK member or reassigns an SDK callback', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        return statSync(path).isDirectory() ? (name === 'sdk' ? [] : files(path)) : path.endsWith('.ts') ? [path] : [];
      });
    const door =
      /\b(_wireCodec|_oninitialize|_loggingLevels|LOG_LEVEL_SEVERITY|_outboundServerInfo|_wrapHandler|_onclose|_negotiatedProtocolVersion|_supportedProtocolVersions|_webStandardTransport|_requestToStreamMapping)\b|\.(onmessage|onclose|send|connect)\s*=[^=]/;
    const root = join(__dirname, '../../../src/server');
    const found = files(root).flatMap((path) =>
      readFileSync(path, 'utf8')
        .split('\n')
        .filter((line) => door.test(line) && !/^\s*(\*|\/\/)/.test(line))
        .map((line) => `${path.slice(root.length + 1)}: ${line.trim()}`),
    );
    expect(found).toEqual([]);
  });
});

class Notes {
  @Resource('notes://{name}', { mimeType: 'text/plain' }) note(name: string): string {
    return `note ${name}`;
  }

  @Prompt() greet(name: string): string {
    return `Greet ${name}`;
  }
}

const warnings: string[] = [];

function definition(name: string): McpServer {
  const logger: McpLogger = {
    error: () => undefined,
    warn: (message: string, details?: LogDetails) => void (details?.event === 'sdk.fallback' && warnings.push(`${name}: ${message}`)),
    info: () => undefined,
    debug: () => undefined,
  };
  return new McpServer({ name: 'seam', version: '1' }, { logger })
    .add(new Notes())
    .tool('add', { params: { a: Int32, b: Int32 } }, ({ a, b }) => a + b);
}

/** The requests both eras send, by name: a listing, a call, an argument error, a read, an unknown resource, a prompt. */
const REQUESTS: readonly [string, string, Record<string, unknown>][] = [
  ['tools/list', 'tools/list', {}],
  ['call', 'tools/call', { name: 'add', arguments: { a: 1, b: 2 } }],
  ['invalid argument', 'tools/call', { name: 'add', arguments: { a: 'one', b: 2 } }],
  ['read', 'resources/read', { uri: 'notes://plan' }],
  ['unknown resource', 'resources/read', { uri: 'nowhere://x' }],
  ['prompt', 'prompts/get', { name: 'greet', arguments: { name: 'Ada' } }],
];

/** A 2025-era connection over an in-memory transport (as stdio is served): each request's answer as JSON. */
async function inMemoryAnswers(server: McpServer): Promise<string[]> {
  const [client, serverEnd] = InMemoryTransport.createLinkedPair();
  const waiting = new Map<number, (message: unknown) => void>();
  client.onmessage = (message) => waiting.get((message as { id: number }).id)?.(message);
  const ask = (id: number, method: string, params: Record<string, unknown>) =>
    new Promise<string>((resolve) => {
      waiting.set(id, (message) => resolve(JSON.stringify(message)));
      void client.send({ jsonrpc: '2.0', id, method, params } as never);
    });
  await client.start();
  await server.connect(serverEnd);
  await ask(0, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } });
  await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  const answers: string[] = [];
  for (const [i, [, method, params]] of REQUESTS.entries()) answers.push(await ask(i + 1, method, params));
  await client.close();
  return answers;
}

/** A 2025-11-25 session over Streamable HTTP: each request's JSON-RPC answer, with the HTTP status. */
async function sessionAnswers(endpoint: HttpAddress): Promise<string[]> {
  const session = await openSession(endpoint.port);
  const answers: string[] = [];
  for (const [i, [, method, params]] of REQUESTS.entries()) {
    const reply = await send(
      endpoint.url,
      'POST',
      { ...LEGACY_HEADERS, 'mcp-session-id': session },
      JSON.stringify({ jsonrpc: '2.0', id: i + 1, method, params }),
    );
    answers.push(`${reply.status} ${messageOf(reply)}`);
  }
  return answers;
}

/** The one JSON-RPC message of a reply, whether it came as JSON or as an SSE stream (after its priming event). */
function messageOf(reply: Reply): string {
  if (!String(reply.headers['content-type']).startsWith('text/event-stream')) return JSON.stringify(JSON.parse(reply.body));
  const events = eventsOf(reply.body);
  expect(events).toHaveLength(1);
  return JSON.stringify(events[0].data);
}

/** 2026-07-28 requests over HTTP: each one's JSON-RPC answer, with the HTTP status. */
async function modernAnswers(endpoint: HttpAddress): Promise<string[]> {
  const answers: string[] = [];
  for (const [i, [, method, params]] of REQUESTS.entries()) {
    const reply = await modernRequest(endpoint.url, method, params, { id: i + 1 });
    answers.push(`${reply.status} ${JSON.stringify(answerOf(reply))}`);
  }
  return answers;
}

/** How often each fast path ran while `run` ran (spies that call through to the real methods). */
async function fastPathUse(run: () => Promise<void>): Promise<{ hot: number; modernPool: number; legacyPosts: number }> {
  const spies = {
    hot: jest.spyOn(HotDispatch.prototype, 'attach'),
    modernPool: jest.spyOn(ModernPool.prototype, 'handle'),
    legacyPosts: jest.spyOn(LegacyPosts.prototype, 'answer'),
  };
  try {
    await run();
    return {
      hot: spies.hot.mock.calls.length,
      modernPool: spies.modernPool.mock.calls.length,
      // The POSTs answered directly (`answer` gives `undefined` for the ones the SDK's transport takes).
      legacyPosts: spies.legacyPosts.mock.results.filter((result) => result.value !== undefined).length,
    };
  } finally {
    for (const spy of Object.values(spies)) spy.mockRestore();
  }
}

describe('the fallback', () => {
  const fast = definition('fast');
  const fallback = definition('fallback');
  let fastEndpoint: HttpAddress;
  let fallbackEndpoint: HttpAddress;

  beforeAll(async () => {
    fastEndpoint = await fast.serveHttp({ port: 0 });
    // As if an SDK release had moved `_oninitialize`: the fallback server finds it missing when it starts.
    simulateMissingSdkMembers(['Server._oninitialize']);
    try {
      fallbackEndpoint = await fallback.serveHttp({ port: 0 });
    } finally {
      simulateMissingSdkMembers([]);
    }
  });

  afterAll(async () => {
    await fast.close();
    await fallback.close();
  });

  it.each([
    ['a 2025-era in-memory connection', inMemoryAnswers, (server: McpServer) => server, 'hot'],
    ['a 2025-11-25 session over Streamable HTTP', sessionAnswers, (_server: McpServer, endpoint: HttpAddress) => endpoint, 'legacyPosts'],
    ['2026-07-28 requests over HTTP', modernAnswers, (_server: McpServer, endpoint: HttpAddress) => endpoint, 'modernPool'],
  ] as const)('serves %s with the answers of the fast paths, through the SDK alone', async (_era, answersOf, target, fastPath) => {
    let fastAnswers: string[] = [];
    let fallbackAnswers: string[] = [];
    const fastUse = await fastPathUse(async () => {
      fastAnswers = await (answersOf as (t: unknown) => Promise<string[]>)(target(fast, fastEndpoint));
    });
    const fallbackUse = await fastPathUse(async () => {
      fallbackAnswers = await (answersOf as (t: unknown) => Promise<string[]>)(target(fallback, fallbackEndpoint));
    });
    expect(fallbackAnswers).toEqual(fastAnswers);
    expect(fastAnswers).toHaveLength(REQUESTS.length);
    // The fast server took its fast path; the fallback none of them.
    expect(fastUse[fastPath]).toBeGreaterThan(0);
    expect(fallbackUse).toEqual({ hot: 0, modernPool: 0, legacyPosts: 0 });
  });

  it('answers what each request asks (the comparison is not between two failures)', async () => {
    const answers = await modernAnswers(fallbackEndpoint);
    expect(answers[1]).toBe(
      '200 {"result":{"content":[{"type":"text","text":"3"}],"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"seam","version":"1"}}},"jsonrpc":"2.0","id":2}',
    );
    expect(answers[2]).toContain('"isError":true');
  });

  it('logs one warning naming the missing member, and none for the fast server', () => {
    expect(warnings).toEqual([
      "fallback: The installed MCP SDK lacks Server._oninitialize, which this version of onemodelcontext was built against; serving through the SDK's public path instead (correct, but slower). Install the SDK version package.json names.",
    ]);
  });
});
