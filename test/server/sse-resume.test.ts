import { InMemoryEventStore, McpServer } from '../../src';
import { LEGACY_HEADERS as HEADERS, open, openSession, readAll, until } from '../support/raw-http';

/**
 * SSE on 2025-era HTTP sessions as a raw peer sees it: every stream opens with a priming event (an id and the
 * `retry` field), and a client that lost its stream reconnects with `Last-Event-ID` and receives the events it
 * missed, from the SDK's EventStore interface (the in-memory default, or one given).
 */
jest.setTimeout(60_000);

describe.each([
  ['the in-memory default', undefined],
  ['a given store', new InMemoryEventStore({ maxEvents: 100 })],
])('SSE with %s', (_label, eventStore) => {
  const server = new McpServer({ name: 'sse', version: '1' }).tool('ping', {}, () => 'pong').tool('tick', {}, async (_args, ctx) => {
    await ctx.reportProgress(1, 1);
    return 'ticked';
  });
  /** A call that reports progress: its answer is an SSE stream (a lone reply would come as JSON). */
  const tick = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'tick', _meta: { progressToken: id } } });
  let port: number;

  beforeAll(async () => {
    port = (await server.serveHttp({ port: 0, eventStore, sseRetryMs: 2500 })).port;
  });

  afterAll(() => server.close());

  it('primes a POST response stream with an event id and the retry field', async () => {
    const sessionId = await openSession(port);
    const text = await readAll(await open(port, 'POST', { ...HEADERS, 'mcp-session-id': sessionId }, tick(2)));
    expect(text).toMatch(/^id: \S+\nretry: 2500\ndata: \n\n/);
    expect(text).toContain('"text":"ticked"');
  });

  it('replays the notifications a dropped GET stream missed after Last-Event-ID', async () => {
    const sessionId = await openSession(port);
    const tag = sessionId.slice(0, 8);
    const first = await open(port, 'GET', { accept: 'text/event-stream', 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': sessionId });
    server.tool(`seen_${tag}`, {}, () => 'seen'); // heard on the open stream
    await until(() => first.text().includes('list_changed'));
    const seenId = /^id: (\S+)$/m.exec(first.text())![1];
    first.close();
    await new Promise((r) => setTimeout(r, 50));

    server.tool(`missed_${tag}`, {}, () => 'missed'); // sent while no stream is open: stored only
    server.remove('tool', `missed_${tag}`);
    const resumed = await open(port, 'GET', { accept: 'text/event-stream', 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': sessionId, 'last-event-id': seenId });
    await until(() => resumed.text().split('list_changed').length > 2);
    resumed.close();
    expect(resumed.response.statusCode).toBe(200);
    const events = resumed.text().split('\n\n').filter((e) => e.includes('data: {'));
    expect(events.length).toBe(2);
    for (const event of events) expect(event).toMatch(/^event: message\nid: \S+\ndata: \{"jsonrpc":"2.0","method":"notifications\/tools\/list_changed"\}$/);
    expect(events.some((e) => e.includes(`id: ${seenId}\n`))).toBe(false);
  });

  it("refuses to resume another session's stream", async () => {
    const owner = await openSession(port);
    const stream = await open(port, 'POST', { ...HEADERS, 'mcp-session-id': owner }, tick(3));
    const ownerEventId = /^id: (\S+)$/m.exec(await readAll(stream))![1];
    const intruder = await openSession(port);
    const reply = await open(port, 'GET', { accept: 'text/event-stream', 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': intruder, 'last-event-id': ownerEventId });
    const text = await readAll(reply);
    expect(reply.response.statusCode).toBe(400);
    expect(text).not.toContain('ticked');
  });

  it('answers an unknown Last-Event-ID without replaying anything', async () => {
    const sessionId = await openSession(port);
    const reply = await open(port, 'GET', { accept: 'text/event-stream', 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': sessionId, 'last-event-id': 'nope_1' });
    const text = await readAll(reply);
    expect(reply.response.statusCode).toBe(400);
    expect(text).toContain('Events lost: the events after this Last-Event-ID are no longer kept');
  });
});

describe('event store options', () => {
  it('refuses maxEvents below 1', () => {
    expect(() => new InMemoryEventStore({ maxEvents: 0 })).toThrow('InMemoryEventStore needs maxEvents of at least 1, for example { maxEvents: 10000 }; got 0.');
  });

  it('keeps only the latest maxEvents', async () => {
    const store = new InMemoryEventStore({ maxEvents: 2 });
    const first = await store.storeEvent('s', { jsonrpc: '2.0', method: 'a' });
    const second = await store.storeEvent('s', { jsonrpc: '2.0', method: 'b' });
    await store.storeEvent('s', { jsonrpc: '2.0', method: 'c' });
    expect(await store.getStreamIdForEventId(first)).toBeUndefined();
    const replayed: string[] = [];
    expect(await store.replayEventsAfter(second, { send: async (_id, m) => void replayed.push((m as { method: string }).method) })).toBe('s');
    expect(replayed).toEqual(['c']);
  });
});
