import { InMemoryEventStore, McpServer } from '../../../src';
import { LEGACY_HEADERS as HEADERS, open, openSession, readAll, until } from '../../support/raw-http';

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
  const server = new McpServer({ name: 'sse', version: '1' })
    .tool('ping', {}, () => 'pong')
    .tool('tick', {}, async (_args, ctx) => {
      await ctx.reportProgress(1, 1);
      return 'ticked';
    });
  /** A call that reports progress: its answer is an SSE stream (a lone reply would come as JSON). */
  const tick = (id: number) =>
    JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'tick', _meta: { progressToken: id } } });
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
    const first = await open(port, 'GET', {
      accept: 'text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      'mcp-session-id': sessionId,
    });
    server.tool(`seen_${tag}`, {}, () => 'seen'); // heard on the open stream
    await until(() => first.text().includes('list_changed'));
    const seenId = /^id: (\S+)$/m.exec(first.text())![1];
    first.close();
    await new Promise((r) => setTimeout(r, 50));

    server.tool(`missed_${tag}`, {}, () => 'missed'); // sent while no stream is open: stored only
    server.remove('tool', `missed_${tag}`);
    const resumed = await open(port, 'GET', {
      accept: 'text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      'mcp-session-id': sessionId,
      'last-event-id': seenId,
    });
    await until(() => resumed.text().split('list_changed').length > 2);
    resumed.close();
    expect(resumed.response.statusCode).toBe(200);
    const events = resumed
      .text()
      .split('\n\n')
      .filter((e) => e.includes('data: {'));
    expect(events.length).toBe(2);
    for (const event of events)
      expect(event).toMatch(/^event: message\nid: \S+\ndata: \{"jsonrpc":"2.0","method":"notifications\/tools\/list_changed"\}$/);
    expect(events.some((e) => e.includes(`id: ${seenId}\n`))).toBe(false);
  });

  it("refuses to resume another session's stream", async () => {
    const owner = await openSession(port);
    const stream = await open(port, 'POST', { ...HEADERS, 'mcp-session-id': owner }, tick(3));
    const ownerEventId = /^id: (\S+)$/m.exec(await readAll(stream))![1];
    const intruder = await openSession(port);
    const reply = await open(port, 'GET', {
      accept: 'text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      'mcp-session-id': intruder,
      'last-event-id': ownerEventId,
    });
    const text = await readAll(reply);
    expect(reply.response.statusCode).toBe(400);
    expect(text).not.toContain('ticked');
  });

  it('answers an unknown Last-Event-ID without replaying anything', async () => {
    const sessionId = await openSession(port);
    const reply = await open(port, 'GET', {
      accept: 'text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      'mcp-session-id': sessionId,
      'last-event-id': 'nope_1',
    });
    const text = await readAll(reply);
    expect(reply.response.statusCode).toBe(400);
    expect(text).toContain('Events lost: the events after this Last-Event-ID are no longer kept');
  });
});

describe('event store options', () => {
  it('refuses maxEvents below 1', () => {
    expect(() => new InMemoryEventStore({ maxEvents: 0 })).toThrow(
      'InMemoryEventStore needs maxEvents of at least 1, for example { maxEvents: 10000 }; got 0.',
    );
  });

  it('keeps only the latest maxEvents', async () => {
    const store = new InMemoryEventStore({ maxEvents: 2 });
    const first = await store.storeEvent('s', { jsonrpc: '2.0', method: 'a' });
    const second = await store.storeEvent('s', { jsonrpc: '2.0', method: 'b' });
    await store.storeEvent('s', { jsonrpc: '2.0', method: 'c' });
    expect(await store.getStreamIdForEventId(first)).toBeUndefined();
    const replayed: string[] = [];
    expect(await store.replayEventsAfter(second, { send: async (_id, m) => void replayed.push((m as { method: string }).method) })).toBe(
      's',
    );
    expect(replayed).toEqual(['c']);
  });
});

describe('event store bounds and deleted sessions (issue 37)', () => {
  it('keeps at most maxBytes of events, counted as their JSON text, and refuses a maxBytes below 1', async () => {
    expect(() => new InMemoryEventStore({ maxBytes: 0.5 })).toThrow(
      'InMemoryEventStore needs maxBytes of at least 1, for example { maxBytes: 67108864 }; got 0.5.',
    );
    const message = { jsonrpc: '2.0' as const, method: 'x', params: { text: 'y'.repeat(100) } };
    const bytes = JSON.stringify(message).length;
    const store = new InMemoryEventStore({ maxBytes: 3 * bytes });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await store.storeEvent(`s${i % 2}`, message));
    expect(store.size).toEqual({ events: 3, bytes: 3 * bytes });
    expect(await store.getStreamIdForEventId(ids[1]!)).toBeUndefined();
    expect(await store.getStreamIdForEventId(ids[2]!)).toBe('s0');
  });

  it('forgets the streams under a prefix, and only those', async () => {
    const store = new InMemoryEventStore();
    await store.storeEvent('a/1', { jsonrpc: '2.0', method: 'x' });
    await store.storeEvent('a/2', { jsonrpc: '2.0', method: 'x' });
    const kept = await store.storeEvent('b/1', { jsonrpc: '2.0', method: 'x' });
    store.forgetStreams('a/');
    expect(store.size).toEqual({ events: 1, bytes: JSON.stringify({ jsonrpc: '2.0', method: 'x' }).length });
    expect(await store.getStreamIdForEventId(kept)).toBe('b/1');
  });

  it("drops a session's events when the client deletes it: 50 large SSE answers leave nothing behind", async () => {
    const store = new InMemoryEventStore();
    const big = 'z'.repeat(256 * 1024);
    const server = new McpServer({ name: 'sse', version: '1' }, { logger: false }).tool('large', {}, async (_args, ctx) => {
      await ctx.reportProgress(1, 1);
      return big;
    });
    const { port } = await server.serveHttp({ port: 0, eventStore: store });
    try {
      for (let i = 0; i < 5; i++) {
        const sessionId = await openSession(port);
        for (let id = 2; id < 12; id++) {
          const body = JSON.stringify({
            jsonrpc: '2.0',
            id,
            method: 'tools/call',
            params: { name: 'large', _meta: { progressToken: id } },
          });
          expect(await readAll(await open(port, 'POST', { ...HEADERS, 'mcp-session-id': sessionId }, body))).toContain(big);
        }
        expect(store.size.bytes).toBeGreaterThan(10 * big.length);
        const deleted = await fetch(`http://127.0.0.1:${port}/mcp`, {
          method: 'DELETE',
          headers: { 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': sessionId },
        });
        expect(deleted.status).toBe(200);
        await until(() => store.size.events === 0);
        expect(store.size).toEqual({ events: 0, bytes: 0 });
      }
    } finally {
      await server.close();
    }
  });
});
