import { randomUUID } from 'node:crypto';
import type { Task, TaskStatus } from '@modelcontextprotocol/server';

/**
 * Long-running tool calls as tasks (protocol revision 2025-11-25): a `tools/call` carrying `task` answers at
 * once with the task, the tool runs on, and the client polls `tasks/get`, waits on `tasks/result`, lists its
 * tasks or cancels one. Task records live in a {@link TaskStore}; the running calls (their abort controllers)
 * live in the process that started them.
 */

/** One task as stored: the wire `Task` plus what only the server needs. */
export interface TaskRecord {
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  /** ISO 8601. */
  readonly createdAt: string;
  /** ISO 8601. */
  readonly lastUpdatedAt: string;
  /** How long the task is kept after it was created, in milliseconds; `null` for as long as the store keeps it. */
  readonly ttl: number | null;
  readonly pollInterval?: number;
  /** The connection or session that created the task: only it can see the task. */
  readonly owner: string;
  /** The tool's result once the task completed or failed (a `CallToolResult`). */
  readonly result?: unknown;
}

/**
 * Where tasks are kept (`McpServerOptions.taskStore`). The default is an {@link InMemoryTaskStore}; implement this
 * over a shared store (Redis, a database) so any process of a deployment can answer `tasks/get` for a task
 * another started. Expired tasks (past their `ttl` from `createdAt`) must no longer be returned.
 * @example
 * class MapTaskStore implements TaskStore {
 *   private readonly tasks = new Map<string, TaskRecord>();
 *   async create(task: TaskRecord) { this.tasks.set(task.taskId, task); }
 *   async get(taskId: string) { return this.tasks.get(taskId); }
 *   async update(taskId: string, change: TaskUpdate) { ... }
 *   async list(owner: string) { return [...this.tasks.values()].filter((t) => t.owner === owner); }
 * }
 */
export interface TaskStore {
  create(task: TaskRecord): Promise<void>;
  /** The task, or `undefined` when unknown or expired. */
  get(taskId: string): Promise<TaskRecord | undefined>;
  /** Applies a change unless the task already ended (a terminal status never changes); returns the task as stored. */
  update(taskId: string, change: TaskUpdate): Promise<TaskRecord | undefined>;
  /** The owner's live tasks, oldest first. */
  list(owner: string): Promise<readonly TaskRecord[]>;
}

/** A change of status (and the result, when the task ends). */
export interface TaskUpdate {
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  readonly result?: unknown;
}

/** The statuses a task never leaves. */
export const TERMINAL: ReadonlySet<TaskStatus> = new Set<TaskStatus>(['completed', 'failed', 'cancelled']);

/**
 * The default {@link TaskStore}: this process's memory. A task is dropped once its `ttl` has passed.
 * @example
 * const server = new McpServer({ name: 'jobs', version: '1.0.0' }, { taskStore: new InMemoryTaskStore() });
 */
export class InMemoryTaskStore implements TaskStore {
  private readonly tasks = new Map<string, TaskRecord>();

  constructor(private readonly now: () => number = Date.now) {}

  async create(task: TaskRecord): Promise<void> {
    this.tasks.set(task.taskId, task);
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    this.expire();
    return this.tasks.get(taskId);
  }

  async update(taskId: string, change: TaskUpdate): Promise<TaskRecord | undefined> {
    const task = await this.get(taskId);
    if (!task || TERMINAL.has(task.status)) return task;
    const updated: TaskRecord = { ...task, ...change, lastUpdatedAt: new Date(this.now()).toISOString() };
    this.tasks.set(taskId, updated);
    return updated;
  }

  async list(owner: string): Promise<readonly TaskRecord[]> {
    this.expire();
    return [...this.tasks.values()].filter((t) => t.owner === owner);
  }

  private expire(): void {
    const now = this.now();
    for (const [id, task] of this.tasks) if (task.ttl !== null && Date.parse(task.createdAt) + task.ttl <= now) this.tasks.delete(id);
  }
}

/** The wire `Task` of a record (`tasks/get`, `tasks/list`, `tasks/cancel`, status notifications). */
export function wireTask(task: TaskRecord): Task {
  const wire: Task = { taskId: task.taskId, status: task.status, ttl: task.ttl, createdAt: task.createdAt, lastUpdatedAt: task.lastUpdatedAt };
  if (task.pollInterval !== undefined) wire.pollInterval = task.pollInterval;
  if (task.statusMessage !== undefined) wire.statusMessage = task.statusMessage;
  return wire;
}

/** Settings of task handling (`McpServerOptions.tasks`). */
export interface TaskOptions {
  /** How long a task is kept when the client asks for no `ttl`, and the most it may ask for; default one hour. */
  readonly maxTtlMs?: number;
  /** The `pollInterval` suggested to clients, in milliseconds; default 500. */
  readonly pollIntervalMs?: number;
}

/** A call run as a task: started by `run`, told of its end through the store. */
export type TaskWork = (signal: AbortSignal) => Promise<unknown>;

/**
 * Runs tasks in this process: creates the record, runs the work with its own `AbortSignal` (the request that
 * created the task has long been answered), records the end, and cancels on request. `onStatus` hears every
 * change (for `notifications/tasks/status`).
 */
export class TaskRunner {
  private readonly running = new Map<string, AbortController>();
  private readonly waiters = new Map<string, (() => void)[]>();
  readonly maxTtlMs: number;
  readonly pollIntervalMs: number;

  constructor(
    readonly store: TaskStore,
    options: TaskOptions = {},
  ) {
    this.maxTtlMs = options.maxTtlMs ?? 3_600_000;
    this.pollIntervalMs = options.pollIntervalMs ?? 500;
  }

  /** Creates a task for `owner` and starts the work; resolves with the task once it is stored. */
  async start(owner: string, ttl: unknown, work: TaskWork, onStatus: (task: TaskRecord) => void): Promise<TaskRecord> {
    const now = new Date().toISOString();
    const asked = typeof ttl === 'number' && Number.isFinite(ttl) && ttl > 0 ? Math.floor(ttl) : this.maxTtlMs;
    const task: TaskRecord = {
      taskId: randomUUID(),
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttl: Math.min(asked, this.maxTtlMs),
      pollInterval: this.pollIntervalMs,
      owner,
    };
    await this.store.create(task);
    const controller = new AbortController();
    this.running.set(task.taskId, controller);
    void this.run(task.taskId, work, controller.signal, onStatus);
    return task;
  }

  private async run(taskId: string, work: TaskWork, signal: AbortSignal, onStatus: (task: TaskRecord) => void): Promise<void> {
    let change: TaskUpdate;
    try {
      const result = await work(signal);
      const failed = (result as { isError?: unknown } | undefined)?.isError === true;
      change = signal.aborted ? { status: 'cancelled' } : { status: failed ? 'failed' : 'completed', result };
    } catch {
      // Nothing internal reaches the client: the tool call answers its own errors as results, so this is the
      // rare failure outside it.
      change = signal.aborted ? { status: 'cancelled' } : { status: 'failed', statusMessage: 'The task failed.' };
    }
    this.running.delete(taskId);
    const ended = await this.store.update(taskId, change);
    if (ended && ended.status === change.status) onStatus(ended);
    this.wake(taskId);
  }

  /** Cancels a task of `owner`: aborts its signal when it runs here and records it cancelled. */
  async cancel(owner: string, taskId: string, onStatus: (task: TaskRecord) => void): Promise<TaskRecord | 'unknown' | 'ended'> {
    const task = await this.store.get(taskId);
    if (!task || task.owner !== owner) return 'unknown';
    if (TERMINAL.has(task.status)) return 'ended';
    const cancelled = await this.store.update(taskId, { status: 'cancelled', statusMessage: 'Cancelled by the client.' });
    this.running.get(taskId)?.abort(new Error('The task was cancelled.'));
    this.running.delete(taskId);
    if (cancelled) onStatus(cancelled);
    this.wake(taskId);
    return cancelled ?? 'unknown';
  }

  /** The owner's task once it ended (waits while it runs); `undefined` when unknown or expired. */
  async settled(owner: string, taskId: string, signal: AbortSignal): Promise<TaskRecord | undefined> {
    for (;;) {
      const task = await this.store.get(taskId);
      if (!task || task.owner !== owner) return undefined;
      if (TERMINAL.has(task.status)) return task;
      if (signal.aborted) throw signal.reason;
      // Woken by the end when it happens in this process; polling covers a task run by another process.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, this.pollIntervalMs);
        function done(): void {
          clearTimeout(timer);
          resolve();
        }
        const list = this.waiters.get(taskId) ?? [];
        list.push(done);
        this.waiters.set(taskId, list);
        signal.addEventListener('abort', done, { once: true });
      });
    }
  }

  /** Aborts every task running here (the server is closing); their records say cancelled. */
  async closeAll(): Promise<void> {
    const ids = [...this.running.keys()];
    for (const id of ids) this.running.get(id)?.abort(new Error('The server closed.'));
    await Promise.all(ids.map((id) => this.store.update(id, { status: 'cancelled', statusMessage: 'The server closed.' })));
    this.running.clear();
  }

  private wake(taskId: string): void {
    for (const done of this.waiters.get(taskId) ?? []) done();
    this.waiters.delete(taskId);
  }
}
