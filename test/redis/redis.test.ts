import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import Redis from 'ioredis';
import type { ServerEvent } from '@modelcontextprotocol/server';
import { StoreError, type TaskRecord } from '../../src';
import { InputRequired } from '../../src/invoke/request/request-context';
import { TaskRunner, type TaskWork } from '../../src/server/tasks/tasks';
import { connectRedis, RedisEventBus, RedisEventStore, RedisTaskStore, RedisUnavailableError, type RedisStores } from '../../src/redis';
import { startRedis, type Redis as RedisServer } from '../e2e/support/cluster';

/**
 * The Redis adapter against a real redis-server (started on an ephemeral port, stopped after): events cross
 * instances, SSE events are kept with a TTL and a cap, and an unreachable Redis is refused at start-up and
 * reported (readiness, logs) when it goes away later.
 */
jest.setTimeout(30_000);

let redis: RedisServer;
const clients: Redis[] = [];
const stores: RedisStores[] = [];

beforeAll(async () => {
  redis = await startRedis();
});

afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
  for (const client of clients) client.disconnect();
  await redis?.stop();
});

function client(port = redis.port): Redis {
  const created = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 1 });
  clients.push(created);
  return created;
}

function recorder() {
  const lines: string[] = [];
  return { lines, logger: { error: (m: string) => void lines.push(`error: ${m}`), warn: (m: string) => void lines.push(`warn: ${m}`) } };
}

async function instance(prefix: string): Promise<RedisStores> {
  const stores_ = await connectRedis({ client: client(), prefix, logger: false });
  stores.push(stores_);
  return stores_;
}

/**
 * Waits until `check` holds. No time budget of its own: how long Redis takes to deliver depends on the load of
 * the machine, so only the test's timeout (which names `what` in its stack) ends the wait.
 */
const until = async (check: () => boolean, what: string) => {
  while (!check()) await new Promise((r) => setTimeout(r, 10, what));
};

describe('RedisEventBus', () => {
  it('delivers an event published on one instance to the listeners of every instance, once each', async () => {
    const [a, b, c] = await Promise.all([instance('bus1:'), instance('bus1:'), instance('bus1:')]);
    const heard: Record<string, ServerEvent[]> = { a: [], b: [], c: [] };
    a.eventBus.subscribe((e) => heard.a.push(e));
    b.eventBus.subscribe((e) => heard.b.push(e));
    c.eventBus.subscribe((e) => heard.c.push(e));
    a.eventBus.publish({ kind: 'tools_list_changed' });
    b.eventBus.publish({ kind: 'resource_updated', uri: 'notes://1' });
    await until(() => heard.a.length === 2 && heard.b.length === 2 && heard.c.length === 2, 'both events everywhere');
    // An instance hears its own event at once and the other one through Redis: the order differs per instance.
    const byKind = (events: ServerEvent[]) => [...events].sort((x, y) => x.kind.localeCompare(y.kind));
    const expected = [{ kind: 'resource_updated', uri: 'notes://1' }, { kind: 'tools_list_changed' }];
    expect({ a: byKind(heard.a), b: byKind(heard.b), c: byKind(heard.c) }).toEqual({ a: expected, b: expected, c: expected });
  });

  it('keeps deployments with different prefixes apart', async () => {
    const [a, other] = await Promise.all([instance('bus2:'), instance('bus3:')]);
    const heard: ServerEvent[] = [];
    other.eventBus.subscribe((e) => heard.push(e));
    const own: ServerEvent[] = [];
    a.eventBus.subscribe((e) => own.push(e));
    a.eventBus.publish({ kind: 'prompts_list_changed' });
    // A marker on the other deployment's own channel, published after, arrives after anything from a.
    other.eventBus.publish({ kind: 'resources_list_changed' });
    await until(() => heard.length === 1, 'the marker');
    expect([heard, own]).toEqual([[{ kind: 'resources_list_changed' }], [{ kind: 'prompts_list_changed' }]]);
  });

  it('passes on only the fields of an event it checked', async () => {
    const a = await instance('bus3:');
    const heard: ServerEvent[] = [];
    a.eventBus.subscribe((e) => heard.push(e));
    const raw = client();
    await raw.connect();
    await raw.publish(
      'bus3:events',
      JSON.stringify({ origin: 'other', event: { kind: 'resource_updated', uri: 'notes://1', injected: { html: '<script>' } } }),
    );
    await until(() => heard.length > 0, 'the event');
    expect(JSON.stringify(heard)).toBe('[{"kind":"resource_updated","uri":"notes://1"}]');
  });

  it('ignores, with a warning, a message on its channel that is not an event', async () => {
    const { lines, logger } = recorder();
    const subscriber = client();
    const bus = new RedisEventBus({ publisher: client(), subscriber, channel: 'bus4:events', logger });
    await subscriber.connect();
    await bus.start();
    const heard: ServerEvent[] = [];
    bus.subscribe((e) => heard.push(e));
    const raw = client();
    await raw.publish('bus4:events', '{"origin":"x","event":{"kind":"drop_tables"}}');
    await until(() => lines.length === 1, 'the warning');
    expect([heard, lines]).toEqual([[], ['warn: events: ignored a message on bus4:events that is not an event of this library.']]);
    await bus.stop();
  });
});

describe('RedisEventStore', () => {
  const send = () => {
    const sent: [string, unknown][] = [];
    return { sent, send: async (id: string, message: unknown) => void sent.push([id, message]) };
  };

  it('replays the events of a stream after the last one a client saw, without the priming event', async () => {
    const store = new RedisEventStore({ client: client(), prefix: 'es1:' });
    const priming = await store.storeEvent('s/1', {} as never);
    const first = await store.storeEvent('s/1', {
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 1, progress: 1 },
    });
    await store.storeEvent('s/2', { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'other stream' } });
    const second = await store.storeEvent('s/1', { jsonrpc: '2.0', id: 7, result: { content: [] } });
    const { sent, send: sender } = send();
    expect(await store.replayEventsAfter(priming, { send: sender })).toBe('s/1');
    expect(sent).toEqual([
      [first, { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } }],
      [second, { jsonrpc: '2.0', id: 7, result: { content: [] } }],
    ]);
    expect(await store.getStreamIdForEventId(first)).toBe('s/1');
  });

  it.each([['nonsense'], ['s/1|999-0'], ['s/9|0-1']])('answers an unknown or forged Last-Event-ID %s as unknown', async (eventId) => {
    const store = new RedisEventStore({ client: client(), prefix: 'es2:' });
    await store.storeEvent('s/1', {} as never);
    expect(await store.getStreamIdForEventId(eventId)).toBeUndefined();
    await expect(store.replayEventsAfter(eventId, send())).rejects.toThrow('Unknown or expired Last-Event-ID.');
    await expect(store.replayEventsAfter(eventId, send())).rejects.toBeInstanceOf(StoreError);
  });

  it('puts a TTL on every stream and keeps at most about maxEventsPerStream events', async () => {
    const raw = client();
    const store = new RedisEventStore({ client: raw, prefix: 'es3:', ttlMs: 60_000, maxEventsPerStream: 10 });
    for (let i = 0; i < 500; i++)
      await store.storeEvent('s/1', { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: i } });
    const ttl = await raw.pttl('es3:sse:s/1');
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
    // Redis trims whole radix-tree nodes (`~`), so a stream holds somewhat more than the cap, never all.
    expect(await raw.xlen('es3:sse:s/1')).toBeLessThan(200);
  });

  it('refuses a cap or TTL that is not a positive integer', () => {
    expect(() => new RedisEventStore({ client: client(), ttlMs: 0 })).toThrow(
      new TypeError('RedisEventStore needs ttlMs as a positive integer; got 0.'),
    );
  });
});

describe('Redis unavailable', () => {
  it('refuses to start with an error that names Redis and the consequence', async () => {
    // A port this test holds, where every connection is closed at once: the same answer however loaded the
    // machine is (a port merely found free could be taken by another process before the client connects, and
    // a connection left unanswered would depend on connectTimeoutMs).
    const refusing = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    const { port } = refusing.address() as AddressInfo;
    const error = await connectRedis({ client: client(port), connectTimeoutMs: 600_000, logger: false }).catch((e: unknown) => e);
    await new Promise((resolve) => refusing.close(resolve));
    expect(error).toBeInstanceOf(RedisUnavailableError);
    expect((error as Error).message).toMatch(
      new RegExp(
        `^Redis at 127\\.0\\.0\\.1:${port} is unavailable \\(.+\\)\\. onemodelcontext/redis refuses to start without it: this instance would not share events, stream resumption or tasks with the others\\. Start Redis or fix the connection options\\.$`,
      ),
    );
  });

  it('turns readiness false and logs what it could not share when Redis goes away', async () => {
    const own = await startRedis();
    const { lines, logger } = recorder();
    const c = new Redis({ port: own.port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => 50 });
    clients.push(c);
    const shared = await connectRedis({ client: c, prefix: 'down:', logger });
    stores.push(shared);
    expect(shared.ready()).toBe(true);
    // Events, not a time budget: the connection's close (after which its status is no longer 'ready') and the
    // first failed reconnection (on which the store logs the loss; its listener was added first).
    const closed = once(c, 'close');
    const failed = once(c, 'error');
    await own.stop();
    await closed;
    expect(shared.ready()).toBe(false);
    shared.eventBus.publish({ kind: 'tools_list_changed' });
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^error: events: could not share tools_list_changed with the other instances \(Redis connection is \w+\); their clients miss it\.$/,
      ),
    );
    await failed;
    expect(lines).toContainEqual(
      expect.stringMatching(new RegExp(`^error: commands: lost the connection to Redis at 127\\.0\\.0\\.1:${own.port} \\(`)),
    );
  });
});

describe('RedisTaskStore', () => {
  const task = (taskId: string, owner: string, ttl: number | null): TaskRecord => ({
    taskId,
    status: 'working',
    createdAt: new Date().toISOString(),
    lastUpdatedAt: new Date().toISOString(),
    ttl,
    owner,
    call: { name: 'vigil', arguments: { name: taskId } },
    caller: {} as TaskRecord['caller'],
  });

  it('shares tasks between instances: one creates, another reads, lists and cancels, and the first hears it', async () => {
    const [a, b] = [await instance('tasks-a:'), await instance('tasks-a:')];
    const heardOnA: string[] = [];
    a.taskStore.watch((t) => void heardOnA.push(`${t.taskId} ${t.status}`));
    await a.taskStore.create(task('t1', 'alice', 60_000));
    await a.taskStore.create(task('t2', 'bob', 60_000));
    expect((await b.taskStore.get('t1'))?.call).toEqual({ name: 'vigil', arguments: { name: 't1' } });
    expect((await b.taskStore.list('alice')).map((t) => t.taskId)).toEqual(['t1']);
    expect((await b.taskStore.update('t1', { status: 'cancelled' }))?.status).toBe('cancelled');
    await until(() => heardOnA.includes('t1 cancelled'), 'the cancellation on the first instance');
    // A final status is never left, whoever tries.
    expect((await a.taskStore.update('t1', { status: 'completed' }))?.status).toBe('cancelled');
    expect(await b.taskStore.get('nope')).toBeUndefined();
    expect(await b.taskStore.update('nope', { status: 'cancelled' })).toBeUndefined();
  });

  it("expires a task with its ttl, from the key and from its owner's list, and caps tasks without one", async () => {
    const stores_ = await instance('tasks-b:');
    await stores_.taskStore.create(task('short', 'carol', 150));
    await stores_.taskStore.create(task('forever', 'carol', null));
    const raw = client();
    await raw.connect();
    expect(await raw.pttl('tasks-b:task:short')).toBeLessThanOrEqual(150);
    expect(await raw.pttl('tasks-b:task:forever')).toBeGreaterThan(23 * 60 * 60_000);
    expect(await raw.pttl('tasks-b:tasks-of:carol')).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 300));
    expect(await stores_.taskStore.get('short')).toBeUndefined();
    expect((await stores_.taskStore.list('carol')).map((t) => t.taskId)).toEqual(['forever']);
    expect(await raw.zrange('tasks-b:tasks-of:carol', 0, -1)).toEqual(['forever']);
  });

  it("prunes expired entries from an owner's index on every create, so an owner that never lists keeps no more", async () => {
    const stores_ = await instance('tasks-d:');
    const raw = client();
    await raw.connect();
    // An entry older than the longest ttl (24 hours) is of an expired task; it used to stay until a list().
    await raw.zadd('tasks-d:tasks-of:erin', Date.now() - 25 * 60 * 60_000, 'long-gone');
    await stores_.taskStore.create(task('fresh', 'erin', 60_000));
    expect(await raw.zrange('tasks-d:tasks-of:erin', 0, -1)).toEqual(['fresh']);
  });

  it('runs the final round of a task once when two instances take the answers that complete it at the same time', async () => {
    const [a, b] = [await instance('tasks-e:'), await instance('tasks-e:')];
    let finalRounds = 0;
    const work: TaskWork = async (run) => {
      if (run.inputResponses === undefined) {
        throw new InputRequired({
          ok: { method: 'elicitation/create', params: { message: 'Sure?', requestedSchema: { type: 'object', properties: {} } } },
        });
      }
      finalRounds++;
      return { content: [] };
    };
    const [onA, onB] = [new TaskRunner(a.taskStore), new TaskRunner(b.taskStore)];
    const caller = { protocolVersion: '2026-07-28', clientCapabilities: { elicitation: {} } };
    const created = await onA.start({ owner: 'frank', call: { name: 'confirm' }, caller }, work);
    const statusOf = async () => (await b.taskStore.get(created.taskId))?.status;
    for (let i = 0; i < 200 && (await statusOf()) !== 'input_required'; i++) await new Promise((r) => setTimeout(r, 10));
    const ok = { ok: { action: 'accept' } };
    await Promise.all([onA.answer('frank', created.taskId, ok, () => work), onB.answer('frank', created.taskId, ok, () => work)]);
    // Each run that starts counts at once (nothing is awaited before), so both answers having resolved, the count is final.
    expect(finalRounds).toBe(1);
    for (let i = 0; i < 200 && (await statusOf()) !== 'completed'; i++) await new Promise((r) => setTimeout(r, 10));
    expect(await statusOf()).toBe('completed');
    await onA.closeAll();
    await onB.closeAll();
  });

  it('ignores, with a warning, a message on its channel that is not a task', async () => {
    const { lines, logger } = recorder();
    const subscriber = client();
    const store = new RedisTaskStore({ client: client(), subscriber, prefix: 'tasks-c:', logger });
    await store.start();
    const heard: unknown[] = [];
    store.watch((t) => void heard.push(t));
    const raw = client();
    await raw.connect();
    await raw.publish('tasks-c:tasks', '{"origin":"x","task":{"__proto__":{"polluted":true}}}');
    await until(() => lines.length > 0, 'the warning');
    expect(lines).toEqual(['warn: tasks: ignored a message on tasks-c:tasks that is not a task of this library.']);
    expect(heard).toEqual([]);
    await store.stop();
  });

  it("delivers the stored task, not a message's copy: a forged cancellation reaches no listener as cancelled", async () => {
    const store = await instance('tasks-f:');
    await store.taskStore.create(task('real', 'gina', 60_000));
    const heard: string[] = [];
    store.taskStore.watch((t) => void heard.push(`${t.taskId} ${t.status}`));
    const raw = client();
    await raw.connect();
    await raw.publish(
      'tasks-f:tasks',
      JSON.stringify({ origin: 'forger', task: { ...task('real', 'gina', 60_000), status: 'cancelled' } }),
    );
    await until(() => heard.length > 0, 'the re-read task');
    expect(heard).toEqual(['real working']);
    expect((await store.taskStore.get('real'))?.status).toBe('working');
  });

  describe('runner leases', () => {
    /**
     * The lease of the tests that wait on none (their stale tasks are written as last changed two leases ago): the
     * default, which no stall of a loaded machine outlasts. With a lease of 1 s, renewed every third of it, a held
     * task read as failed once (the test process held up for more than the two thirds left).
     */
    const LEASE = 30_000;
    const store = async (prefix: string, logger: ReturnType<typeof recorder>['logger'] | false = false, lease = LEASE) => {
      const made = new RedisTaskStore({ client: client(), subscriber: client(), prefix, runnerLeaseMs: lease, logger });
      await made.start();
      return made;
    };
    /** A working task last changed two leases ago: what a task whose runner died looks like once its lease lapsed. */
    const stale = (taskId: string, owner: string): TaskRecord => ({
      ...task(taskId, owner, 60_000),
      lastUpdatedAt: new Date(Date.now() - 2 * LEASE).toISOString(),
    });

    it('fails a stale working task without a lease when read (get and list), once, and leaves held and fresh ones working', async () => {
      const { lines, logger } = recorder();
      const [runner, reader] = [await store('lease-a:'), await store('lease-a:', logger)];
      await runner.create(stale('orphan', 'hana'));
      await runner.create(stale('held', 'hana'));
      await runner.create(task('fresh', 'hana', 60_000));
      const release = runner.hold('held');
      const raw = client();
      await raw.connect();
      while ((await raw.exists('lease-a:task-runner:held')) === 0) await new Promise((r) => setTimeout(r, 10));

      const listed = await reader.list('hana');
      // Created in the same millisecond, they may come in any order: compared sorted.
      expect(listed.map((t) => `${t.taskId} ${t.status}`).sort()).toEqual(['fresh working', 'held working', 'orphan failed']);
      const gone = 'The server running the task stopped before the task ended.';
      expect(listed.find((t) => t.taskId === 'orphan')).toMatchObject({ statusMessage: gone, error: { code: -32603, message: gone } });
      expect((await reader.get('orphan'))?.status).toBe('failed');
      expect((await reader.get('held'))?.status).toBe('working');
      expect((await reader.get('fresh'))?.status).toBe('working');
      expect(lines).toEqual(['warn: tasks: task orphan was recorded failed: the instance running it stopped renewing its lease.']);

      await runner.create(stale('later', 'ines'));
      expect((await reader.get('later'))?.status).toBe('failed');
      release();
      await Promise.all([runner.stop(), reader.stop()]);
    });

    it('says a stale task failed once when several instances read it at the same time: the one whose write landed', async () => {
      const { lines, logger } = recorder();
      const readers = [await store('lease-c:', logger), await store('lease-c:', logger), await store('lease-c:', logger)];
      await readers[0].create(stale('orphan', 'hana'));
      const read = await Promise.all(readers.flatMap((reader) => [reader.get('orphan'), reader.list('hana').then((all) => all[0])]));
      expect(read.map((task) => task?.status)).toEqual(Array(6).fill('failed'));
      expect(lines).toEqual(['warn: tasks: task orphan was recorded failed: the instance running it stopped renewing its lease.']);
      await Promise.all(readers.map((reader) => reader.stop()));
    });

    it('renews a lease while any run holds the task, and stops once every hold is released', async () => {
      // A short lease: the test waits for its renewal, then for it to run out.
      const runner = await store('lease-b:', false, 1_000);
      await runner.create(task('twice', 'jo', 60_000));
      const raw = client();
      await raw.connect();
      const [first, second] = [runner.hold('twice'), runner.hold('twice')];
      first();
      while ((await raw.exists('lease-b:task-runner:twice')) === 0) await new Promise((r) => setTimeout(r, 10));
      // Still held once: the lease's time to live goes up again (a renewal) rather than running out. A renewal
      // shows as a reading well above the lowest one seen since the lease was first written.
      let lowest = await raw.pttl('lease-b:task-runner:twice');
      for (;;) {
        await new Promise((r) => setTimeout(r, 20));
        const now = await raw.pttl('lease-b:task-runner:twice');
        expect(now).toBeGreaterThan(0);
        if (now > lowest + 50) break;
        lowest = Math.min(lowest, now);
      }
      second();
      // Released everywhere: no renewal, so the lease runs out and the key goes.
      while ((await raw.exists('lease-b:task-runner:twice')) === 1) await new Promise((r) => setTimeout(r, 20));
      await runner.stop();
    });

    it('logs once that it cannot renew leases while Redis is away, and never throws', async () => {
      const spare = await startRedis();
      const { lines, logger } = recorder();
      const made = new RedisTaskStore({
        client: client(spare.port),
        subscriber: client(spare.port),
        prefix: 'lease-c:',
        runnerLeaseMs: 300,
        logger,
      });
      await made.start();
      const release = made.hold('t');
      await spare.stop();
      await until(() => lines.some((l) => l.startsWith('error: tasks: could not renew')), 'the renewal failure');
      await new Promise((r) => setTimeout(r, 400)); // two more renewal ticks, each failing
      expect(lines.filter((l) => l.startsWith('error: tasks: could not renew'))).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^error: tasks: could not renew the leases of the tasks this instance runs \(.+\); past 300 ms they read as failed\.$/,
      );
      release();
      await made.stop();
    });

    it('refuses a runnerLeaseMs that is not a whole number from 300', () => {
      for (const runnerLeaseMs of [299, 1.5, Number.NaN]) {
        expect(() => new RedisTaskStore({ client: client(), subscriber: client(), runnerLeaseMs })).toThrow(
          `RedisTaskStore needs runnerLeaseMs as a whole number of milliseconds from 300, for example { runnerLeaseMs: 30_000 }; got ${runnerLeaseMs}.`,
        );
      }
    });
  });

  it('refuses a maxTtlMs that is not a positive whole number', () => {
    expect(() => new RedisTaskStore({ client: client(), subscriber: client(), maxTtlMs: 0 })).toThrow(
      'RedisTaskStore needs maxTtlMs as a whole number of milliseconds from 1, for example { maxTtlMs: 3_600_000 }; got 0.',
    );
  });
});
