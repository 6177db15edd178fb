import { StoreError, UsageTypeError } from '../index';
import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import type { TaskChange, TaskRecord, TaskStore } from '../index';
import { deliverAll, loggerOf, type RedisLogger } from './connect';

/** Options of {@link RedisTaskStore}. */
export interface RedisTaskStoreOptions {
  /** Runs commands. */
  readonly client: Redis;
  /** Hears the other instances' task changes; a connection of its own (it may be the event bus's subscriber). */
  readonly subscriber: Redis;
  /** Prefix of every key and channel. Default `onemodelcontext:`. */
  readonly prefix?: string;
  /** How long a task without a `ttl` of its own is kept after it was created. Default 24 hours. */
  readonly maxTtlMs?: number;
  /**
   * How long a task this instance runs stays `working` after the instance stops renewing its lease (it was killed
   * or crashed, or could not reach Redis for that long): the next read of the task, from any instance, records it
   * `failed`. Leases are renewed every third of it. Default 30 seconds.
   */
  readonly runnerLeaseMs?: number;
  /** Default: one line per event on stderr; `false` silences. */
  readonly logger?: RedisLogger | false;
}

interface Envelope {
  readonly origin: string;
  readonly task: TaskRecord;
}

/** What a message is trusted for: which task changed. The task itself is read from its key. */
interface Notice {
  readonly origin: string;
  readonly taskId: string;
}

const FINAL = new Set(['completed', 'failed', 'cancelled']);

/** Replaces the value only if it is still the one read (optimistic concurrency), keeping its TTL. */
const COMPARE_AND_SET = `if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL') return 1 else return 0 end`;

/** Why a task whose runner's lease lapsed failed. */
export const RUNNER_GONE = 'The server running the task stopped before the task ended.';

/** How many times an update is retried when another process changed the task between read and write. */
const MAX_ATTEMPTS = 20;

/**
 * A `TaskStore` over Redis, for several instances serving one catalog: a task started through one instance is
 * polled, fetched and cancelled through any other, and the cancellation reaches the instance running the tool
 * (through a pub/sub channel its `watch` listens to). Each task is one key expiring with the task's `ttl`; each
 * owner's list is a sorted set expiring with its newest task and pruned of expired entries on each create, so
 * nothing outlives its tasks. Updates are
 * compare-and-set, so two instances changing one task never lose a change, and a final status is never left.
 * @example
 * const tasks = new RedisTaskStore({ client: redis, subscriber: redis.duplicate() });
 * await tasks.start();
 * const server = new McpServer({ name: 'jobs', version: '1.0.0' }, { taskStore: tasks });
 */
export class RedisTaskStore implements TaskStore {
  private readonly listeners = new Set<(task: TaskRecord) => void>();
  private readonly origin = randomUUID();
  private readonly prefix: string;
  private readonly channel: string;
  private readonly maxTtlMs: number;
  private readonly log: RedisLogger;
  private readonly runnerLeaseMs: number;
  /** The tasks this instance runs, with how many runs hold each. */
  private readonly held = new Map<string, number>();
  private renewal: NodeJS.Timeout | undefined;
  private renewalFailing = false;
  /** A renewal whose answer is awaited: the next tick skips rather than queue another behind it. */
  private renewing = false;
  private readonly onMessage = (channel: string, text: string) => {
    if (channel !== this.channel) return;
    const notice = parseNotice(text);
    if (!notice) return this.log.warn(`tasks: ignored a message on ${this.channel} that is not a task of this library.`);
    if (notice.origin !== this.origin) this.reread(notice.taskId);
  };

  constructor(private readonly options: RedisTaskStoreOptions) {
    this.prefix = options.prefix ?? 'onemodelcontext:';
    this.channel = `${this.prefix}tasks`;
    const maxTtlMs = options.maxTtlMs ?? 24 * 60 * 60_000;
    if (!Number.isSafeInteger(maxTtlMs) || maxTtlMs < 1) {
      throw new UsageTypeError(
        `RedisTaskStore needs maxTtlMs as a whole number of milliseconds from 1, for example { maxTtlMs: 3_600_000 }; got ${String(maxTtlMs)}.`,
      );
    }
    this.maxTtlMs = maxTtlMs;
    const runnerLeaseMs = options.runnerLeaseMs ?? 30_000;
    if (!Number.isSafeInteger(runnerLeaseMs) || runnerLeaseMs < 300) {
      throw new UsageTypeError(
        `RedisTaskStore needs runnerLeaseMs as a whole number of milliseconds from 300, for example { runnerLeaseMs: 30_000 }; got ${String(runnerLeaseMs)}.`,
      );
    }
    this.runnerLeaseMs = runnerLeaseMs;
    this.log = loggerOf(options.logger);
  }

  /** Listens to the other instances' task changes; resolves once Redis confirmed the subscription. */
  async start(): Promise<void> {
    this.options.subscriber.on('message', this.onMessage);
    await this.options.subscriber.subscribe(this.channel);
  }

  /** Stops listening (the connections stay yours to close). */
  async stop(): Promise<void> {
    this.listeners.clear();
    this.held.clear();
    this.stopRenewal();
    this.options.subscriber.off('message', this.onMessage);
    if (this.options.subscriber.status === 'ready') await this.options.subscriber.unsubscribe(this.channel);
  }

  async create(task: TaskRecord): Promise<void> {
    const ttl = this.ttlOf(task);
    const index = this.indexOf(task.owner);
    await this.options.client
      .multi()
      .set(this.keyOf(task.taskId), JSON.stringify(task), 'PX', ttl)
      .zadd(index, Date.parse(task.createdAt), task.taskId)
      // Entries older than the longest ttl are of expired tasks: pruned on every create, so an owner that never
      // lists (2026-07-28 has no tasks/list) keeps an index no longer than its live tasks.
      .zremrangebyscore(index, '-inf', `(${Date.now() - this.maxTtlMs}`)
      .pexpire(index, ttl, 'GT')
      .pexpire(index, ttl, 'NX')
      .exec()
      .then(failed);
    this.share(task);
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const [text, lease] = await this.options.client.mget(this.keyOf(taskId), this.leaseOf(taskId));
    if (text === null) return undefined;
    const task = JSON.parse(text) as TaskRecord;
    return this.runnerGone(task, lease) ? this.failGone(task) : task;
  }

  /**
   * Keeps a lease on the task while this instance runs it: written now and renewed every third of
   * `runnerLeaseMs` (one pipeline for all held tasks) until released as many times as it was held.
   */
  hold(taskId: string): () => void {
    this.held.set(taskId, (this.held.get(taskId) ?? 0) + 1);
    this.renew([taskId]);
    if (this.renewal === undefined) {
      this.renewal = setInterval(() => this.renew([...this.held.keys()]), Math.floor(this.runnerLeaseMs / 3));
      this.renewal.unref();
    }
    return () => {
      const count = (this.held.get(taskId) ?? 0) - 1;
      if (count > 0) return void this.held.set(taskId, count);
      this.held.delete(taskId);
      if (this.held.size === 0) this.stopRenewal();
    };
  }

  async update(taskId: string, change: TaskChange): Promise<TaskRecord | undefined> {
    return (await this.written(taskId, change))?.task;
  }

  /** {@link update}, telling whether this call wrote the change (not another instance, nor nobody). */
  private async written(taskId: string, change: TaskChange): Promise<{ task: TaskRecord; wrote: boolean } | undefined> {
    const key = this.keyOf(taskId);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const before = await this.options.client.get(key);
      if (before === null) return undefined;
      const task = JSON.parse(before) as TaskRecord;
      if (FINAL.has(task.status)) return { task, wrote: false };
      // Worked out again from what was read on every attempt: the compare-and-set below writes it only if the
      // task is still what it was worked out from, so two instances never both act on one state.
      const worked = typeof change === 'function' ? change(task) : change;
      if (worked === undefined) return { task, wrote: false };
      const updated: TaskRecord = { ...task, ...worked, lastUpdatedAt: new Date().toISOString() };
      const text = JSON.stringify(updated);
      if ((await this.options.client.eval(COMPARE_AND_SET, 1, key, before, text)) === 1) {
        this.share(updated);
        return { task: updated, wrote: true };
      }
    }
    throw new StoreError(`tasks: task ${taskId} changed ${MAX_ATTEMPTS} times while it was being updated; the update was not applied.`);
  }

  async list(owner: string): Promise<readonly TaskRecord[]> {
    const index = this.indexOf(owner);
    const ids = await this.options.client.zrange(index, 0, -1);
    if (ids.length === 0) return [];
    const texts = await this.options.client.mget(ids.map((id) => this.keyOf(id)));
    const gone = ids.filter((_, i) => texts[i] === null);
    if (gone.length > 0) await this.options.client.zrem(index, ...gone);
    const tasks = texts.filter((t): t is string => t !== null).map((t) => JSON.parse(t) as TaskRecord);
    const working = tasks.filter((task) => task.status === 'working');
    if (working.length === 0) return tasks;
    const leases = await this.options.client.mget(working.map((task) => this.leaseOf(task.taskId)));
    const lapsed = new Set(working.filter((task, i) => this.runnerGone(task, leases[i])));
    if (lapsed.size === 0) return tasks;
    return Promise.all(tasks.map(async (task) => (lapsed.has(task) ? ((await this.failGone(task)) ?? task) : task)));
  }

  watch(listener: (task: TaskRecord) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /**
   * Whether a task reads `working` although no instance runs it any more: its lease lapsed, and it has not changed
   * for a whole lease (a task made `working` again a moment ago, resumed with a client's answers, is given the
   * time its runner needs to take the lease).
   */
  private runnerGone(task: TaskRecord, lease: string | null): boolean {
    return task.status === 'working' && lease === null && Date.now() - Date.parse(task.lastUpdatedAt) > this.runnerLeaseMs;
  }

  /** Records a task whose runner is gone as failed, unless it changed meanwhile; the task as stored afterwards. */
  private async failGone(task: TaskRecord): Promise<TaskRecord | undefined> {
    const failed = await this.written(task.taskId, (current) =>
      current.status === 'working' && current.lastUpdatedAt === task.lastUpdatedAt
        ? { status: 'failed', statusMessage: RUNNER_GONE, error: { code: -32603, message: RUNNER_GONE } }
        : undefined,
    );
    // Said by the one reader that wrote it: another that found it failed already (an instance reading the same
    // task at the same time, a read after it) says nothing.
    if (failed?.wrote === true)
      this.log.warn(`tasks: task ${task.taskId} was recorded failed: the instance running it stopped renewing its lease.`);
    return failed?.task;
  }

  /** Writes the leases of the given tasks; a failure is logged once until a renewal succeeds again. */
  private renew(taskIds: readonly string[]): void {
    if (taskIds.length === 0 || this.renewing) return;
    this.renewing = true;
    const pipeline = this.options.client.pipeline();
    for (const taskId of taskIds) pipeline.set(this.leaseOf(taskId), this.origin, 'PX', this.runnerLeaseMs);
    pipeline
      .exec()
      .then(failed)
      .then(
        () => {
          if (this.renewalFailing) this.log.warn(`tasks: the leases of the tasks this instance runs are renewed again.`);
          this.renewalFailing = false;
        },
        (error: Error) => {
          if (!this.renewalFailing)
            this.log.error(
              `tasks: could not renew the leases of the tasks this instance runs (${error.message}); past ${this.runnerLeaseMs} ms they read as failed.`,
            );
          this.renewalFailing = true;
        },
      )
      .finally(() => (this.renewing = false));
  }

  private stopRenewal(): void {
    clearInterval(this.renewal);
    this.renewal = undefined;
  }

  /** Local listeners hear a change at once, the other instances through the channel. */
  private share(task: TaskRecord): void {
    this.deliver(task);
    this.options.client
      .publish(this.channel, JSON.stringify({ origin: this.origin, task } satisfies Envelope))
      .catch((error: Error) =>
        this.log.error(`tasks: could not tell the other instances that task ${task.taskId} is ${task.status} (${error.message}).`),
      );
  }

  /**
   * A message says a task changed; the task delivered is the one stored under its key, never the message's copy:
   * whoever can publish on the channel can at most make the instances read a task again, not cancel one, nor
   * tell a client a status it does not have.
   */
  private reread(taskId: string): void {
    this.get(taskId).then(
      (task) => task && this.deliver(task),
      (error: Error) => this.log.error(`tasks: could not read task ${taskId} after another instance changed it (${error.message}).`),
    );
  }

  private deliver(task: TaskRecord): void {
    deliverAll(this.listeners, task, (error) =>
      this.log.error(`tasks: a listener failed on task ${task.taskId}: ${error instanceof Error ? error.message : String(error)}`),
    );
  }

  /** Milliseconds the task is kept from now: its own `ttl` from its creation, or `maxTtlMs`. */
  private ttlOf(task: TaskRecord): number {
    const until = Date.parse(task.createdAt) + (task.ttl ?? this.maxTtlMs);
    return Math.max(1, Math.min(until - Date.now(), this.maxTtlMs));
  }

  private keyOf(taskId: string): string {
    return `${this.prefix}task:${taskId}`;
  }

  private leaseOf(taskId: string): string {
    return `${this.prefix}task-runner:${taskId}`;
  }

  private indexOf(owner: string): string {
    return `${this.prefix}tasks-of:${owner}`;
  }
}

const TASK_ID = /^[A-Za-z0-9_.:-]{1,200}$/;

function parseNotice(text: string): Notice | undefined {
  try {
    const envelope = JSON.parse(text) as Envelope;
    const taskId = envelope?.task?.taskId;
    if (typeof envelope?.origin !== 'string' || typeof taskId !== 'string' || !TASK_ID.test(taskId)) return undefined;
    return { origin: envelope.origin, taskId };
  } catch {
    return undefined;
  }
}

/** Throws the first error of a transaction's replies. */
function failed(results: [Error | null, unknown][] | null): void {
  if (results === null) throw new StoreError('tasks: the Redis transaction was discarded.');
  const error = results.find(([e]) => e !== null)?.[0];
  if (error) throw error;
}
