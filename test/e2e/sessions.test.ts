import { fixtureServer } from './fixture/src/fixture';

/**
 * Hostile use of 2025-era HTTP sessions: a client opening session after session without closing them
 * meets a cap (503), and sessions nobody uses any more are closed (later requests get 404).
 */
jest.setTimeout(60_000);

const server = fixtureServer();
let url: string;

beforeAll(async () => {
  url = (await server.serveHttp({ port: 0, maxSessions: 2, sessionIdleTimeoutMs: 1000 })).url;
});

afterAll(() => server.close());

const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

async function open(): Promise<{ status: number; headers: Headers; body: string }> {
  const response = await fetch(url, { method: 'POST', headers, body: initialize });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

function ping(sessionId: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { ...headers, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function close(sessionId: string): Promise<Response> {
  return fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' } });
}

describe('legacy HTTP sessions', () => {
  it('refuses a session beyond maxSessions with 503 until one is closed', async () => {
    const first = await open();
    const second = await open();
    expect([first.status, second.status]).toEqual([200, 200]);
    const third = await open();
    expect(third.status).toBe(503);
    expect(third.headers.get('retry-after')).toBe('60');
    expect(JSON.parse(third.body).error.code).toBe(-32000);
    expect((await close(first.headers.get('mcp-session-id')!)).status).toBe(200);
    const fourth = await open();
    expect(fourth.status).toBe(200);
    await close(second.headers.get('mcp-session-id')!);
    await close(fourth.headers.get('mcp-session-id')!);
  });

  it('closes a session nobody uses any more and keeps one in use', async () => {
    const used = (await open()).headers.get('mcp-session-id')!;
    const abandoned = (await open()).headers.get('mcp-session-id')!;
    // Well past the 1 s idle timeout for the abandoned session, with the other one pinged every 100 ms.
    for (let i = 0; i < 25; i++) {
      await sleep(100);
      expect((await ping(used)).status).toBe(200);
    }
    expect((await ping(abandoned)).status).toBe(404);
    expect((await ping(used)).status).toBe(200);
    await close(used);
  });
});
