import type { TaskStatus } from '@modelcontextprotocol/server';
import type { InputRequest, RequestContextInit } from '../../invoke/request/request-context';

/**
 * What a task is as stored: plain JSON records in a {@link TaskStore} any process sharing it can answer from, and
 * the store of this process's memory. The runner that starts, settles and cancels them is `tasks.ts`.
 */

/**
 * The caller of the `tools/call` that created a task, as the tool's `RequestContext` sees it on every run.
 * @example
 * const caller: TaskCaller = { protocolVersion: '2026-07-28', clientInfo: { name: 'inspector', version: '1.0.0' } };
 */
export interface TaskCaller {
  readonly protocolVersion?: string;
  readonly sessionId?: string;
  readonly clientInfo?: RequestContextInit['clientInfo'];
  readonly clientCapabilities?: Readonly<Record<string, unknown>>;
  readonly auth?: RequestContextInit['auth'];
}

/**
 * A JSON-RPC error a task failed with (status `failed`).
 * @example
 * const error: TaskError = { code: -32603, message: 'The task failed.' };
 */
export interface TaskError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/**
 * One task as stored: plain JSON, so a shared store can keep it as text.
 * @example
 * const row = JSON.stringify(await store.get(taskId)); // what a shared store keeps
 */
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
  /** The polling interval suggested to the client, in milliseconds. */
  readonly pollInterval?: number;
  /** Who may see the task: the 2025-era session or connection, or the 2026-07-28 caller. */
  readonly owner: string;
  /** The call the task runs: run again with the client's answers when it asked for input. */
  readonly call: { readonly name: string; readonly arguments?: unknown };
  readonly caller: TaskCaller;
  /** The tool's result (a `CallToolResult`) once the task completed. */
  readonly result?: unknown;
  /** Why the task failed, when it failed for a reason other than its tool's own error result. */
  readonly error?: TaskError;
  /** The requests the client has yet to answer (status `input_required`), by key. */
  readonly inputRequests?: Readonly<Record<string, InputRequest>>;
  /** The answers the client gave so far in this round, by key. */
  readonly inputResponses?: Readonly<Record<string, unknown>>;
  /** The state the tool passed to `requireInput`, handed back with the answers. Never sent to a client. */
  readonly requestState?: unknown;
}

/**
 * A change to a task: its new status and whatever goes with it. Fields not named keep their value.
 * @example
 * await store.update(taskId, { status: 'cancelled', statusMessage: 'Cancelled by the client.' });
 */
export type TaskUpdate = Pick<TaskRecord, 'status'> &
  Partial<Pick<TaskRecord, 'statusMessage' | 'result' | 'error' | 'inputRequests' | 'inputResponses' | 'requestState'>>;

/**
 * A change worked out from the task as stored at that moment (read, change and write as one step), or
 * `undefined` to leave it as it is. A store may call it more than once (when another process changed the task
 * between its read and its write); only the change of its last call is applied.
 * @example
 * await store.update(taskId, (task) => (task.status === 'input_required' ? { status: 'working' } : undefined));
 */
export type TaskChange = TaskUpdate | ((task: TaskRecord) => TaskUpdate | undefined);

/**
 * Where tasks are kept (`McpServerOptions.taskStore`). The default is an {@link InMemoryTaskStore}; implement this
 * over a shared store (Redis, a database) so every process of a deployment answers for every task. Records are
 * plain JSON. A task past its `ttl` (counted from `createdAt`) must no longer be returned, and a task in a final
 * status (`completed`, `failed`, `cancelled`) never changes again.
 * @example
 * import { InMemoryTaskStore, McpServer, type TaskStore } from 'onemodelcontext';
 *
 * const store: TaskStore = new InMemoryTaskStore();
 * const server = new McpServer({ name: 'jobs', version: '1.0.0' }, { taskStore: store });
 */
export interface TaskStore {
  /** Stores a new task; resolves once a `get` of it (from any process) finds it. */
  create(task: TaskRecord): Promise<void>;
  /** The task, or `undefined` when unknown or expired. */
  get(taskId: string): Promise<TaskRecord | undefined>;
  /**
   * Applies a change and stamps `lastUpdatedAt`, unless the task is unknown, expired or already in a final
   * status; resolves with the task as stored afterwards (`undefined` when unknown or expired). A change given as
   * a function is worked out from the task as stored and written atomically with respect to other updates: two
   * concurrent updates never both act on the same state.
   */
  update(taskId: string, change: TaskChange): Promise<TaskRecord | undefined>;
  /** The owner's live tasks, oldest first. */
  list(owner: string): Promise<readonly TaskRecord[]>;
  /**
   * Calls `listener` with every task created or changed, by this process or any other sharing the store (a
   * cancellation made elsewhere reaches the process running the task this way). Returns the function that stops it.
   */
  watch(listener: (task: TaskRecord) => void): () => void;
  /**
   * Optional, for a store shared by several processes: the task runs in this process from now on, until the
   * returned function is called (calls are counted: a task held twice is released twice). A store that
   * implements it keeps a lease for each held task, renewed while the process lives, and fails a `working` task
   * whose lease lapsed when it is read, so a task whose process died (killed, crashed) ends as `failed` within
   * the lease instead of reading `working` until its ttl passes. Never throws: a lease it cannot write is logged.
   */
  hold?(taskId: string): () => void;
}

/** The statuses a task never leaves. */
const FINAL: ReadonlySet<TaskStatus> = new Set<TaskStatus>(['completed', 'failed', 'cancelled']);

/** Whether a task ended (`completed`, `failed` or `cancelled`). */
export function isFinal(task: TaskRecord): boolean {
  return FINAL.has(task.status);
}

/**
 * The default {@link TaskStore}: this process's memory. A task is dropped once its `ttl` has passed.
 * @example
 * import { InMemoryTaskStore, McpServer } from 'onemodelcontext';
 *
 * const server = new McpServer({ name: 'jobs', version: '1.0.0' }, { taskStore: new InMemoryTaskStore() });
 */
export class InMemoryTaskStore implements TaskStore {
  private readonly tasks = new Map<string, TaskRecord>();
  private readonly listeners = new Set<(task: TaskRecord) => void>();
  private lastSweep = Number.NEGATIVE_INFINITY;

  /** `now` is the clock expiry reads (milliseconds since the epoch). */
  constructor(private readonly now: () => number = Date.now) {}

  async create(task: TaskRecord): Promise<void> {
    this.sweep();
    this.tasks.set(task.taskId, task);
    this.emit(task);
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    return this.current(taskId);
  }

  async update(taskId: string, change: TaskChange): Promise<TaskRecord | undefined> {
    // Read, work out and write with no await in between: nothing else runs in the middle.
    const task = this.current(taskId);
    if (!task || isFinal(task)) return task;
    const worked = typeof change === 'function' ? change(task) : change;
    if (worked === undefined) return task;
    const updated: TaskRecord = { ...task, ...worked, lastUpdatedAt: new Date(this.now()).toISOString() };
    this.tasks.set(taskId, updated);
    this.emit(updated);
    return updated;
  }

  async list(owner: string): Promise<readonly TaskRecord[]> {
    this.sweep(true);
    return [...this.tasks.values()].filter((t) => t.owner === owner);
  }

  watch(listener: (task: TaskRecord) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  private current(taskId: string): TaskRecord | undefined {
    const task = this.tasks.get(taskId);
    if (task === undefined || !this.expired(task, this.now())) return task;
    this.tasks.delete(taskId);
    return undefined;
  }

  private emit(task: TaskRecord): void {
    for (const listener of this.listeners) listener(task);
  }

  private expired(task: TaskRecord, now: number): boolean {
    return task.ttl !== null && Date.parse(task.createdAt) + task.ttl <= now;
  }

  /**
   * Drops expired tasks. A full pass costs one look at every task, so `create` makes it at most once a second
   * (of the store's clock); `get` checks the one task it reads, and `list`, which reads them all anyway, always.
   */
  private sweep(always = false): void {
    const now = this.now();
    if (!always && now - this.lastSweep < 1000) return;
    this.lastSweep = now;
    for (const [id, task] of this.tasks) if (this.expired(task, now)) this.tasks.delete(id);
  }
}
