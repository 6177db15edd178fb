import Redis from 'ioredis';
import { ensureBuilt } from './support/build';
import { startCluster, startRedis, type Cluster, type Redis as RedisServer } from './support/cluster';
import { eventsOf, LEGACY_HEADERS, send, type Reply } from '../support/raw-http';
import { modernRequest } from '../support/modern-http';
import { waitUntil } from './support/wait';

/**
 * Three instances behind nginx (the configuration of docs/scaling.md and samples/cluster) sharing a real Redis,
 * under steady mixed load: 2026-07-28 calls that need no store, 2025-era sessions opened, used and deleted (the
 * event store), and 2026-07-28 tasks created and polled (the task store). Redis is restarted, paused for 5 s
 * (SIGSTOP) and held at its maxmemory (noeviction: every write refused), one after the other. Issue 37: each
 * fault ended an instance (exit 1) and nginx answered hundreds of requests 502. Now: no instance exits, the only
 * 5xx is 503 with Retry-After, a JSON-RPC error says the server is temporarily unable (never a dependency's
 * text), and every kind of client is served again after each fault (how soon is printed as a figure).
 */
jest.setTimeout(120_000);

beforeAll(() => ensureBuilt(), 300_000);

const SECRET = 'a shared secret of at least thirty-two bytes';
const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const KINDS = ['stateless', 'session', 'task'] as const;
type Kind = (typeof KINDS)[number];

/** One request of the load and how it was answered. */
interface Outcome {
  readonly kind: Kind;
  readonly step: string;
  readonly startedAt: number;
  readonly status: number | 'network';
  readonly retryAfter?: string;
  /** The JSON-RPC error message, when the answer was one. */
  readonly error?: string;
  /** The step did what it is for (a sum, a session, a task's result). */
  readonly ok: boolean;
}

/** The JSON-RPC message of a reply, whether it came as JSON or as SSE events (the last one). */
function messageOf(reply: Reply): Record<string, unknown> | undefined {
  const body = reply.body.trimStart();
  if (body.startsWith('{')) return JSON.parse(body) as Record<string, unknown>;
  return eventsOf(reply.body).at(-1)?.data;
}

const textOf = (message: Record<string, unknown> | undefined) =>
  ((message?.result as { content?: { text?: string }[] } | undefined)?.content ?? [])[0]?.text;

class Load {
  readonly outcomes: Outcome[] = [];
  private stopped = false;
  private readonly loops: Promise<void>[] = [];

  constructor(private readonly url: string) {}

  start(): void {
    for (const kind of KINDS) {
      for (let i = 0; i < 2; i++) this.loops.push(this.loop(kind));
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.loops);
  }

  /** The first request of `kind` started at or after `from` that did what it is for. */
  firstOk(kind: Kind, from: number): Outcome | undefined {
    return this.outcomes.find((o) => o.kind === kind && o.ok && o.startedAt >= from);
  }

  /**
   * Resolves once every kind was served by a request started at or after `from`, or after a minute (a ceiling for
   * a loaded machine, not a timing assertion: the test then finds the kind that was not served again).
   */
  async servedAgain(from: number): Promise<void> {
    const served = () => KINDS.every((kind) => this.firstOk(kind, from) !== undefined);
    await waitUntil('every kind of client served again', served, { attempts: 1200, every: 50 }).catch(() => undefined);
  }

  private async loop(kind: Kind): Promise<void> {
    while (!this.stopped) {
      if (kind === 'stateless') await this.stateless();
      else if (kind === 'session') await this.session();
      else await this.task();
      await sleep(kind === 'task' ? 100 : 20);
    }
  }

  /** Sends one request and records its outcome; `okOf` says whether the answer did its job. */
  private async record(
    kind: Kind,
    step: string,
    send_: () => Promise<Reply>,
    okOf: (message: Record<string, unknown> | undefined, reply: Reply) => boolean,
  ) {
    const startedAt = Date.now();
    let reply: Reply;
    try {
      reply = await send_();
    } catch {
      this.outcomes.push({ kind, step, startedAt, status: 'network', ok: false });
      return undefined;
    }
    const message = reply.status === 200 ? messageOf(reply) : undefined;
    const error = (message?.error as { message?: string } | undefined)?.message ?? (reply.status >= 400 ? reply.body : undefined);
    const retryAfter = reply.headers['retry-after'] as string | undefined;
    this.outcomes.push({
      kind,
      step,
      startedAt,
      status: reply.status,
      retryAfter,
      error,
      ok: reply.status === 200 && message?.error === undefined && okOf(message, reply),
    });
    return { reply, message };
  }

  private async stateless(): Promise<void> {
    await this.record(
      'stateless',
      'tools/call add',
      () => modernRequest(this.url, 'tools/call', { name: 'add', arguments: { a: 2, b: 3 } }),
      (m) => textOf(m) === '5',
    );
  }

  private async session(): Promise<void> {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'chaos', version: '1' } },
    };
    const opened = await this.record(
      'session',
      'initialize',
      () => send(this.url, 'POST', LEGACY_HEADERS, JSON.stringify(initialize)),
      (_, r) => typeof r.headers['mcp-session-id'] === 'string',
    );
    const sessionId = opened?.reply.headers['mcp-session-id'] as string | undefined;
    if (sessionId === undefined || opened?.message?.error !== undefined) return;
    const headers = { ...LEGACY_HEADERS, 'mcp-session-id': sessionId };
    await send(this.url, 'POST', headers, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })).catch(() => undefined);
    const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'add', arguments: { a: 1, b: 1 } } };
    await this.record(
      'session',
      'tools/call add',
      () => send(this.url, 'POST', headers, JSON.stringify(call)),
      (m) => textOf(m) === '2',
    );
    await send(this.url, 'DELETE', headers).catch(() => undefined);
  }

  private async task(): Promise<void> {
    const made = await this.record(
      'task',
      'tools/call echo',
      () => modernRequest(this.url, 'tools/call', { name: 'echo', arguments: { text: 'hi' } }, { capabilities: TASKS }),
      (m) => (m?.result as { resultType?: string } | undefined)?.resultType === 'task',
    );
    const taskId = (made?.message?.result as { taskId?: string } | undefined)?.taskId;
    if (taskId === undefined) return;
    for (let poll = 0; poll < 100 && !this.stopped; poll++) {
      const got = await this.record(
        'task',
        'tasks/get',
        () => modernRequest(this.url, 'tasks/get', { taskId }, { capabilities: TASKS }),
        (m) =>
          (m?.result as { status?: string } | undefined)?.status === 'completed' &&
          /: hi$/.test(textOf(m?.result as Record<string, unknown>) ?? ''),
      );
      const status = (got?.message?.result as { status?: string } | undefined)?.status;
      if (status !== undefined && status !== 'working') return;
      if (got?.message?.error !== undefined && !/temporarily unable/.test(String((got.message.error as { message?: string }).message)))
        return;
      await sleep(30);
    }
  }
}

let cluster: Cluster;
let restarted: RedisServer | undefined;

beforeAll(async () => {
  // Tasks kept 10 s: the load makes a few per second, which an hour's ttl would soon count past the caller's quota.
  cluster = await startCluster({ size: 3, redis: true, env: { SECRET, TASK_TTL_MS: '10000' } });
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
  await restarted?.stop();
});

it('rides out a Redis restart, a 5 s pause and a full Redis under steady load: no exit, only 503 + Retry-After, every client served again', async () => {
  const load = new Load(cluster.balancer.url);
  load.start();
  // Each fault starts once the load is steady (every kind served), and the next once every kind was served again
  // after it ended; the test waits on those answers rather than for a fixed three seconds after each fault.
  await load.servedAgain(0);
  const faults: { name: string; endedAt: number }[] = [];

  // 1. A restart: the server goes away for a second and comes back empty on the same port.
  await cluster.redis!.stop();
  await sleep(1_000);
  restarted = await startRedis(cluster.redis!.port);
  faults.push({ name: 'restart', endedAt: Date.now() });
  await load.servedAgain(faults.at(-1)!.endedAt);

  // 2. A pause: connections stay open and nothing answers for 5 s.
  process.kill(restarted.pid, 'SIGSTOP');
  await sleep(5_000);
  process.kill(restarted.pid, 'SIGCONT');
  faults.push({ name: 'pause', endedAt: Date.now() });
  await load.servedAgain(faults.at(-1)!.endedAt);

  // 3. Full: maxmemory below what Redis holds, with the default noeviction policy every write is refused.
  const admin = new Redis({ port: restarted.port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 1 });
  await admin.connect();
  expect(await admin.config('GET', 'maxmemory-policy')).toEqual(['maxmemory-policy', 'noeviction']);
  await admin.config('SET', 'maxmemory', '1');
  await sleep(3_000);
  await admin.config('SET', 'maxmemory', '0');
  faults.push({ name: 'maxmemory', endedAt: Date.now() });
  admin.disconnect();
  await load.servedAgain(faults.at(-1)!.endedAt);
  await load.stop();

  const { outcomes } = load;
  // Every kind was served after every fault; how soon, as figures.
  const recovery = faults.flatMap((fault) =>
    KINDS.map((kind) => {
      const first = load.firstOk(kind, fault.endedAt);
      return { fault: fault.name, kind, afterMs: first === undefined ? undefined : first.startedAt - fault.endedAt };
    }),
  );
  process.stderr.write(
    `[figure] chaos: ${outcomes.length} requests, ${outcomes.filter((o) => o.status === 503).length} answered 503; served again after the fault ended: ${recovery.map((r) => `${r.fault}/${r.kind} ${r.afterMs} ms`).join(', ')}\n`,
  );
  expect(recovery.filter((r) => r.afterMs === undefined)).toEqual([]);

  // No instance ended, whatever Redis did.
  expect(cluster.instances.map((i) => [i.name, i.child.exitCode, i.child.signalCode])).toEqual([
    ['a', null, null],
    ['b', null, null],
    ['c', null, null],
  ]);
  // The only 5xx is 503 with Retry-After; no request failed at the connection.
  const badStatus = outcomes.filter((o) => o.status === 'network' || (o.status >= 500 && (o.status !== 503 || o.retryAfter === undefined)));
  expect(badStatus.map((o) => `${o.kind} ${o.step} ${o.status}`)).toEqual([]);
  // A refusal says the server is temporarily unable, never what the dependency said; a task lost with the
  // restarted Redis is unknown (Redis ran without persistence, as docs/scaling.md says it then loses tasks).
  const errors = [...new Set(outcomes.filter((o) => o.error !== undefined).map((o) => `${o.step}: ${o.error}`))];
  const unexpected = errors.filter((e) => !/temporarily unable/.test(e) && !/^tasks\/get: .*(not found|unknown)/i.test(e));
  expect(unexpected).toEqual([]);
});
