import { randomUUID } from '../node-crypto';
import { MODERN_REVISION } from '../revisions';
import { TaskQuota, type TaskLimits } from './quota';
import { isFinal, type TaskCaller, type TaskRecord, type TaskStore, type TaskUpdate } from './store';
import { InputRequired, type AuthInfo } from '../../invoke/request/request-context';
import type { Log } from '../../log';

/**
 * Long-running tool calls as tasks: a `tools/call` answers at once with a task, the tool runs on, and the client
 * polls it. Task records are plain JSON kept in a {@link TaskStore}, so any process sharing the store can answer
 * for a task; the running calls (their abort controllers) live in the process that runs them, which hears of a
 * cancellation through the store's {@link TaskStore.watch}. The wire shapes of both revisions are in
 * `wire.ts`; the methods in `handlers.ts`.
 */

/**
 * Settings of task handling (`McpServerOptions.tasks`).
 * @example
 * new McpServer({ name: 'jobs', version: '1.0.0' }, { tasks: { maxTtlMs: 600_000, pollIntervalMs: 1_000 } });
 */
export interface TaskOptions {
  /** How long a task is kept after it was created when the client asks for no `ttl`, and the most it may ask for; default one hour. */
  readonly maxTtlMs?: number;
  /** The polling interval suggested to clients, in milliseconds; default 500. */
  readonly pollIntervalMs?: number;
  /**
   * What one caller (a 2025-era session, a 2026-07-28 verified caller, or all anonymous 2026-07-28 callers
   * together) may keep and run in this process. Default `{ tasks: 100, storedBytes: 16 MiB, running: 10 }`.
   */
  readonly perCaller?: TaskLimits;
  /** What all callers together may keep and run in this process. Default `{ tasks: 10_000, storedBytes: 256 MiB, running: 100 }`. */
  readonly total?: TaskLimits;
  /**
   * Keep every claim of the caller's token with its tasks (their tools then read them in `ctx.auth.claims`).
   * Default `false`: a task keeps the caller's subject, client, scopes and expiry, and of its claims only
   * `iss`, `sub` and `client_id`, so a shared store holds no more of the token than that.
   */
  readonly keepClaims?: boolean;
}

/** The claims a task keeps of its caller's token unless `keepClaims`. */
const KEPT_CLAIMS = ['iss', 'sub', 'client_id'];

/** The caller's `auth` as a task keeps it. */
function authToKeep(auth: AuthInfo | undefined, keepClaims: boolean): AuthInfo | undefined {
  if (auth === undefined || keepClaims) return auth;
  const claims = Object.fromEntries(KEPT_CLAIMS.filter((k) => auth.claims[k] !== undefined).map((k) => [k, auth.claims[k]]));
  return { subject: auth.subject, clientId: auth.clientId, scopes: auth.scopes, expiresAt: auth.expiresAt, claims };
}

/** One run of a task's tool: its signal, and the client's answers and the tool's state when it asked for input. */
export interface TaskRun {
  readonly signal: AbortSignal;
  readonly inputResponses?: Readonly<Record<string, unknown>>;
  readonly requestState?: unknown;
}

/** Runs the task's tool once; resolves with its `CallToolResult`, rejects with `InputRequired` when it asks for input. */
export type TaskWork = (run: TaskRun) => Promise<unknown>;

/** What a new task is: whose, which call, for whom, how long it is kept. */
export interface NewTask {
  /** Who may see the task (its session, connection or verified caller). */
  readonly owner: string;
  /** Whom the task counts against for `perCaller` limits (the token's owner, else the client's address); default `owner`. */
  readonly countedAs?: string;
  readonly call: TaskRecord['call'];
  readonly caller: TaskCaller;
  /** The `ttl` the client asked for, if any (2025-11-25). */
  readonly ttl?: unknown;
}

/** The first protocol revision with the tasks extension (SEP-2663) in place of the 2025-11-25 task methods. */

/** Whether a caller speaks 2026-07-28 or later (revisions compare as text). */
export function isModernCaller(caller: TaskCaller): boolean {
  return caller.protocolVersion !== undefined && caller.protocolVersion >= MODERN_REVISION;
}

/**
 * Runs tasks in this process: creates the record, runs the tool with its own `AbortSignal` (the request that
 * created the task has long been answered), records how it ended, parks it while it waits for input and runs it
 * again with the answers, and cancels on request. `watch` hears every change of every task in the store.
 */
export class TaskRunner {
  private readonly running = new Map<string, AbortController>();
  private readonly waiters = new Map<string, (() => void)[]>();
  /** Outcomes of runs that ended, while they are being written to the store. */
  private readonly unwritten = new Map<string, TaskUpdate>();
  private readonly watchers = new Set<(task: TaskRecord) => void>();
  /** The tasks `closeAll` is recording as cancelled: their tools hear that the server closed, not the client. */
  private closing: ReadonlySet<string> = new Set();
  private unwatch: (() => void) | undefined;
  readonly maxTtlMs: number;
  readonly pollIntervalMs: number;
  private readonly quota: TaskQuota;
  private readonly keepClaims: boolean;

  constructor(
    readonly store: TaskStore,
    options: TaskOptions = {},
    private readonly log?: Log,
  ) {
    this.maxTtlMs = options.maxTtlMs ?? 3_600_000;
    this.pollIntervalMs = options.pollIntervalMs ?? 500;
    this.quota = new TaskQuota(options.perCaller, options.total);
    this.keepClaims = options.keepClaims === true;
    this.follow();
  }

  /** The caller as a task keeps it: its token's claims trimmed unless `keepClaims`. */
  callerToKeep(caller: TaskCaller): TaskCaller {
    return caller.auth === undefined ? caller : { ...caller, auth: authToKeep(caller.auth, this.keepClaims) };
  }

  /** What `owner` (or everybody) keeps and runs as tasks in this process now. */
  usage(owner?: string): Readonly<{ tasks: number; storedBytes: number; running: number }> {
    return this.quota.usage(owner);
  }

  /** Listens to the store (again, after `closeAll`). */
  private follow(): void {
    this.unwatch ??= this.store.watch((task) => this.changed(task));
  }

  /** Calls `listener` on every change of a task; returns the function that stops it. */
  watch(listener: (task: TaskRecord) => void): () => void {
    this.watchers.add(listener);
    return () => void this.watchers.delete(listener);
  }

  /**
   * Creates a task and starts the work; resolves with the task once it is stored. Throws a JSON-RPC error (-32000)
   * when the owner, or everybody, already keeps or runs as much as the limits allow.
   */
  async start(task: NewTask, work: TaskWork, first: Omit<TaskRun, 'signal'> = {}): Promise<TaskRecord> {
    this.follow();
    const now = new Date().toISOString();
    const asked = typeof task.ttl === 'number' && Number.isFinite(task.ttl) && task.ttl > 0 ? Math.floor(task.ttl) : this.maxTtlMs;
    const record: TaskRecord = {
      taskId: randomUUID(),
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttl: Math.min(asked, this.maxTtlMs),
      pollInterval: this.pollIntervalMs,
      owner: task.owner,
      call: task.call,
      caller: this.callerToKeep(task.caller),
    };
    const bytes = Buffer.byteLength(JSON.stringify(record));
    const counted = task.countedAs ?? task.owner;
    try {
      this.quota.admit(counted, bytes);
    } catch (refusal) {
      this.log?.warn(`A task of '${task.call.name}' was refused: ${(refusal as Error).message}`, {
        event: 'task.refused',
        tool: task.call.name,
      });
      throw refusal;
    }
    this.quota.add(record.taskId, counted, bytes, Date.now() + (record.ttl ?? this.maxTtlMs));
    try {
      await this.store.create(record);
    } catch (error) {
      this.quota.remove(record.taskId);
      throw error;
    }
    this.run(record, work, first);
    return record;
  }

  /** The owner's task, or `undefined` when unknown, expired or another's. */
  async find(owner: string, taskId: string): Promise<TaskRecord | undefined> {
    const task = await this.store.get(taskId);
    return task && task.owner === owner ? task : undefined;
  }

  /** Cancels the owner's task: records it cancelled (the process running it aborts its signal on hearing so). */
  async cancel(owner: string, taskId: string): Promise<TaskRecord | 'unknown' | 'ended'> {
    const task = await this.find(owner, taskId);
    if (!task) return 'unknown';
    if (isFinal(task)) return 'ended';
    const cancelled = await this.store.update(taskId, { status: 'cancelled', statusMessage: 'Cancelled by the client.' });
    return cancelled ?? 'unknown';
  }

  /**
   * Takes the client's answers to a task waiting for input (2026-07-28 `tasks/update`); once every pending
   * request is answered the tool runs again with all of them. Answers to keys not asked for are ignored.
   * `workOf` gives the work of a task (its tool), or `undefined` when the tool is no longer served.
   */
  async answer(
    owner: string,
    taskId: string,
    responses: Readonly<Record<string, unknown>>,
    workOf: (task: TaskRecord) => TaskWork | undefined,
  ): Promise<TaskRecord | undefined> {
    const task = await this.find(owner, taskId);
    if (!task || task.status !== 'input_required' || !task.inputRequests) return task;
    const work = workOf(task);
    // Worked out from the task as stored, atomically: of two concurrent updates that both complete the
    // answers, only the one that finds the task still waiting resumes it, so the final round runs once.
    let resume: Omit<TaskRun, 'signal'> | undefined;
    let worked = false;
    const updated = await this.store.update(taskId, (current) => {
      worked = true;
      resume = undefined;
      if (current.owner !== owner || current.status !== 'input_required' || !current.inputRequests) return undefined;
      const { pending, answered } = withAnswers(current, responses);
      if (Object.keys(pending).length > 0) return { status: 'input_required', inputRequests: pending, inputResponses: answered };
      if (!work) return { status: 'failed', ...failure(-32602, `The tool '${current.call.name}' is no longer served.`) };
      resume = { inputResponses: answered, requestState: current.requestState };
      return { status: 'working', inputRequests: undefined, inputResponses: undefined, requestState: undefined };
    });
    if (resume && work && updated?.status === 'working') this.run(updated, work, resume);
    else if (!worked && updated && !isFinal(updated)) {
      // A store written for an older TaskStore, whose update() takes only a plain change: the answers were lost.
      this.log?.error(
        `The task store's update() did not work out the change of task ${taskId} from the stored task: a change may be a function (TaskChange); the client's answers were not applied.`,
        { event: 'task.failed' },
      );
    }
    return updated;
  }

  /** The owner's task once it ended (waits while it runs); `undefined` when unknown or expired. */
  async settled(owner: string, taskId: string, signal: AbortSignal): Promise<TaskRecord | undefined> {
    for (;;) {
      const task = await this.find(owner, taskId);
      if (!task || isFinal(task)) return task;
      if (signal.aborted) throw signal.reason;
      // Woken by any change the store reports; the timer covers a store that reports late.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, this.pollIntervalMs);
        function done(): void {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
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
    this.closing = new Set(ids);
    // A run that ended but whose outcome is still being written gets one last try with it; the rest say cancelled.
    const closing = await Promise.allSettled(
      ids.map((id) => this.store.update(id, this.unwritten.get(id) ?? { status: 'cancelled', statusMessage: 'The server closed.' })),
    );
    closing.forEach((settled, at) => {
      if (settled.status === 'fulfilled') return;
      const reason = settled.reason instanceof Error ? settled.reason.message : String(settled.reason);
      this.log?.error(`Task ${ids[at]} could not be recorded as ended while the server closed: ${reason}`, { event: 'task.failed' });
    });
    for (const id of ids) {
      // eslint-disable-next-line no-restricted-syntax -- an abort reason a tool reads, not a failure of ours (src/errors.ts)
      this.running.get(id)?.abort(new Error('The server closed.'));
      this.quota.stopped(id);
    }
    this.running.clear();
    this.closing = new Set();
    this.unwatch?.();
    this.unwatch = undefined;
    for (const id of [...this.waiters.keys()]) this.wake(id);
  }

  private run(task: TaskRecord, work: TaskWork, input: Omit<TaskRun, 'signal'>): void {
    const controller = new AbortController();
    this.running.set(task.taskId, controller);
    this.quota.started(task.taskId);
    // The store's lease on the run (a shared store fails the task once it lapses): released when the run's
    // outcome is written, or when it is aborted (cancelled, or the server closing), whichever comes first.
    const release = once(this.store.hold?.(task.taskId));
    controller.signal.addEventListener('abort', release, { once: true });
    void this.settle(task, work, { ...input, signal: controller.signal }).finally(release);
  }

  private async settle(task: TaskRecord, work: TaskWork, run: TaskRun): Promise<void> {
    let change: TaskUpdate;
    try {
      change = outcomeOf(task, await work(run));
    } catch (error) {
      change = error instanceof InputRequired ? parked(task, error) : { status: 'failed', ...failure(-32603, 'The task failed.') };
    }
    this.quota.stopped(task.taskId);
    this.quota.grew(task.taskId, Buffer.byteLength(JSON.stringify(change)));
    // A cancelled task stays cancelled: the store refuses changes after a final status.
    if (!run.signal.aborted) {
      this.unwritten.set(task.taskId, change);
      await this.writeOutcome(task, change, run.signal);
      this.unwritten.delete(task.taskId);
    }
    // Only this run's entry: a task resumed by `tasks/update` runs again under a new controller.
    if (this.running.get(task.taskId)?.signal === run.signal) this.running.delete(task.taskId);
  }

  /**
   * Writes a run's outcome, trying again with backoff while the store does not answer, until it does, the
   * task's ttl passes or the task is cancelled (its signal). Never rejects: this runs outside any request, so
   * a rejection here would end the process. Meanwhile the task reads as `working`, and the outcome is kept here.
   * The log names the task and the store's reason, never the task's arguments or result.
   */
  private async writeOutcome(task: TaskRecord, change: TaskUpdate, signal: AbortSignal): Promise<void> {
    const deadline = Date.parse(task.createdAt) + (task.ttl ?? this.maxTtlMs);
    const name = task.call.name;
    for (let attempt = 0, delay = SETTLE_FIRST_RETRY_MS; ; attempt++, delay = Math.min(delay * 2, SETTLE_LAST_RETRY_MS)) {
      try {
        await this.store.update(task.taskId, change);
        if (attempt > 0)
          this.log?.info(`The outcome of task ${task.taskId} ('${name}') was stored after ${attempt + 1} tries.`, {
            event: 'task.failed',
            tool: name,
          });
        return;
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        if (Date.now() + delay >= deadline) {
          this.log?.error(`The outcome of task ${task.taskId} ('${name}') could not be stored before its ttl passed: ${reason}`, {
            event: 'task.failed',
            tool: name,
          });
          return;
        }
        if (attempt === 0)
          this.log?.warn(
            `The outcome of task ${task.taskId} ('${name}') could not be stored (${reason}); trying again until the store answers or the task's ttl passes.`,
            { event: 'task.failed', tool: name },
          );
      }
      if (!(await pause(delay, signal))) return;
    }
  }

  private changed(task: TaskRecord): void {
    if (isFinal(task)) {
      // eslint-disable-next-line no-restricted-syntax -- an abort reason a tool reads, not a failure of ours (src/errors.ts)
      this.running.get(task.taskId)?.abort(new Error(this.closing.has(task.taskId) ? 'The server closed.' : 'The task was cancelled.'));
      this.running.delete(task.taskId);
      this.quota.stopped(task.taskId);
    }
    for (const listener of this.watchers) listener(task);
    this.wake(task.taskId);
  }

  private wake(taskId: string): void {
    for (const done of this.waiters.get(taskId) ?? []) done();
    this.waiters.delete(taskId);
  }
}

/** The first and the longest wait between two tries of writing a task's outcome to a store that did not answer. */
const SETTLE_FIRST_RETRY_MS = 100;
const SETTLE_LAST_RETRY_MS = 5000;

/** `release`, made safe to call more than once (and a no-op when the store keeps no leases). */
function once(release: (() => void) | undefined): () => void {
  let released = release === undefined;
  return () => {
    if (released) return;
    released = true;
    release!();
  };
}

/** Waits `ms` (without holding the process open); `false` when `signal` aborted first. */
function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', aborted);
      resolve(true);
    }, ms);
    timer.unref();
    function aborted(): void {
      clearTimeout(timer);
      resolve(false);
    }
    signal.addEventListener('abort', aborted, { once: true });
  });
}

/** The requests still pending and the answers so far once `responses` are taken; answers to keys not asked for are ignored. */
function withAnswers(task: TaskRecord, responses: Readonly<Record<string, unknown>>) {
  const pending = { ...task.inputRequests };
  const answered = { ...task.inputResponses };
  for (const key of Object.keys(responses)) {
    if (!Object.prototype.hasOwnProperty.call(pending, key)) continue;
    answered[key] = responses[key];
    delete pending[key];
  }
  return { pending, answered };
}

function failure(code: number, message: string, data?: unknown): Pick<TaskRecord, 'statusMessage' | 'error'> {
  return { statusMessage: message, error: data === undefined ? { code, message } : { code, message, data } };
}

/**
 * How a run that returned ended. On 2026-07-28 a tool's error result is a completed task (`result.isError`);
 * 2025-11-25 reports it as a failed task whose result `tasks/result` still returns.
 */
function outcomeOf(task: TaskRecord, result: unknown): TaskUpdate {
  const isError = (result as { isError?: unknown } | undefined)?.isError === true;
  return { status: isError && !isModernCaller(task.caller) ? 'failed' : 'completed', result };
}

/** What each input request needs the client to have declared. */
const INPUT_CAPABILITIES: Readonly<Record<string, string>> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/**
 * A task whose tool asked for input: `input_required` with the requests, which the client answers with
 * `tasks/update` (2026-07-28). It fails instead when the client cannot answer: on 2025-11-25 (no way to give a
 * task input), for a request that is no input request, or one whose capability the client did not declare.
 */
function parked(task: TaskRecord, signal: InputRequired): TaskUpdate {
  if (!isModernCaller(task.caller)) {
    return { status: 'failed', ...failure(-32603, 'The tool asked for input, which protocol revision 2025-11-25 cannot give a task.') };
  }
  const declared = task.caller.clientCapabilities ?? {};
  for (const [key, request] of Object.entries(signal.inputRequests)) {
    const capability = INPUT_CAPABILITIES[request.method];
    if (capability === undefined)
      return {
        status: 'failed',
        ...failure(-32603, `The tool asked for input '${key}' with '${request.method}', which is no input request.`),
      };
    if (declared[capability] === undefined) {
      return {
        status: 'failed',
        ...failure(-32021, `The tool asked for input '${key}' (${request.method}), but the client did not declare '${capability}'.`, {
          requiredCapabilities: { [capability]: {} },
        }),
      };
    }
  }
  return {
    status: 'input_required',
    statusMessage: 'Waiting for input from the client.',
    inputRequests: signal.inputRequests,
    inputResponses: {},
    requestState: signal.requestState,
  };
}
