import { UsageTypeError } from '../../errors';
import { sdk } from '../sdk/lazy';

/**
 * What one caller, and all callers together, may keep and run as tasks in this process (issue 29: before, each
 * task kept its full arguments for an hour and ran with no limit, so 40 calls of 1 MiB grew the heap by 44 MiB
 * for the hour). A task counts from its creation until its `ttl` passes; its stored bytes are its record's JSON
 * (arguments, caller) and, once it ended, its result's; it runs from each start until it ends, is cancelled or
 * waits for input. A new task past a limit is refused with a JSON-RPC error saying which limit and how to get
 * under it. With a shared store each process counts what it created and runs. A caller is the token's owner, else the
 * client's address (`trustedProxies`), whatever the session: one client cannot multiply its share by opening
 * sessions, and callers without a token are told apart by address.
 */

/**
 * Limits on tasks (`McpServerOptions.tasks.perCaller`, `.total`); a limit left out keeps its default.
 * @example
 * new McpServer({ name: 'jobs', version: '1.0.0' }, { tasks: { perCaller: { tasks: 20, running: 2 } } });
 */
export interface TaskLimits {
  /** Tasks kept (running, waiting or ended, until their ttl passes). */
  readonly tasks?: number;
  /** Bytes kept: each task's arguments and caller, and its result once it ended (as JSON). */
  readonly storedBytes?: number;
  /** Tasks running at once. */
  readonly running?: number;
}

type Limits = Required<TaskLimits>;

const MiB = 1024 * 1024;
export const DEFAULT_PER_CALLER: Limits = Object.freeze({ tasks: 100, storedBytes: 16 * MiB, running: 10 });
export const DEFAULT_TOTAL: Limits = Object.freeze({ tasks: 10_000, storedBytes: 256 * MiB, running: 100 });

/** The JSON-RPC error code of a refused task: an implementation-defined server error. */
export const TASK_LIMIT = -32000;

function limitsOf(given: TaskLimits | undefined, defaults: Limits, name: string): Limits {
  const limits = { ...defaults, ...given };
  for (const key of ['tasks', 'storedBytes', 'running'] as const) {
    const value = limits[key];
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new UsageTypeError(
        `tasks.${name}.${key} takes a whole number from 1, for example { ${name}: { ${key}: ${defaults[key]} } }; got ${String(value)}.`,
      );
    }
  }
  return limits;
}

interface Usage {
  tasks: number;
  storedBytes: number;
  running: number;
}

interface Entry {
  readonly owner: string;
  bytes: number;
  readonly expiresAt: number;
  running: boolean;
}

const empty = (): Usage => ({ tasks: 0, storedBytes: 0, running: 0 });

export class TaskQuota {
  private readonly perCaller: Limits;
  private readonly total: Limits;
  private readonly entries = new Map<string, Entry>();
  private readonly owners = new Map<string, Usage>();
  private readonly all: Usage = empty();
  private lastSweep = Number.NEGATIVE_INFINITY;

  constructor(perCaller: TaskLimits | undefined, total: TaskLimits | undefined) {
    this.perCaller = limitsOf(perCaller, DEFAULT_PER_CALLER, 'perCaller');
    this.total = limitsOf(total, DEFAULT_TOTAL, 'total');
    // One caller's share must leave room for the others: a share that reaches the total lets one caller block everybody.
    for (const key of ['tasks', 'storedBytes', 'running'] as const) {
      if (perCaller?.[key] === undefined || this.perCaller[key] < this.total[key]) continue;
      throw new UsageTypeError(
        `tasks.perCaller.${key} (${this.perCaller[key]}) must be below tasks.total.${key} (${this.total[key]}): one caller could hold everything and block every other caller. Lower perCaller.${key} or raise total.${key}.`,
      );
    }
  }

  /** Throws the refusal when `owner` may not keep one more task of `bytes` and start it now. */
  admit(owner: string, bytes: number): void {
    this.sweep(false);
    let refusal = this.refusal(owner, bytes);
    if (refusal !== undefined) {
      // Expired tasks may still be counted between sweeps: count afresh before refusing.
      this.sweep(true);
      refusal = this.refusal(owner, bytes);
    }
    if (refusal !== undefined) throw new (sdk().ProtocolError)(TASK_LIMIT, refusal.message, { limit: refusal.limit });
  }

  /** Counts a stored task, running. */
  add(taskId: string, owner: string, bytes: number, expiresAt: number): void {
    const entry: Entry = { owner, bytes, expiresAt, running: false };
    this.entries.set(taskId, entry);
    this.apply(entry, { tasks: 1, storedBytes: bytes, running: 0 });
    this.started(taskId);
  }

  /** Adds what the task's record grew by (its result). */
  grew(taskId: string, bytes: number): void {
    const entry = this.entries.get(taskId);
    if (!entry) return;
    entry.bytes += bytes;
    this.apply(entry, { tasks: 0, storedBytes: bytes, running: 0 });
  }

  started(taskId: string): void {
    const entry = this.entries.get(taskId);
    if (!entry || entry.running) return;
    entry.running = true;
    this.apply(entry, { tasks: 0, storedBytes: 0, running: 1 });
  }

  stopped(taskId: string): void {
    const entry = this.entries.get(taskId);
    if (!entry?.running) return;
    entry.running = false;
    this.apply(entry, { tasks: 0, storedBytes: 0, running: -1 });
  }

  /** Forgets a task that was never stored. */
  remove(taskId: string): void {
    const entry = this.entries.get(taskId);
    if (!entry) return;
    this.entries.delete(taskId);
    this.apply(entry, { tasks: -1, storedBytes: -entry.bytes, running: entry.running ? -1 : 0 });
  }

  /** What `owner` (or, without one, everybody) holds now. */
  usage(owner?: string): Readonly<Usage> {
    this.sweep(true);
    return { ...(owner === undefined ? this.all : (this.owners.get(owner) ?? empty())) };
  }

  private refusal(owner: string, bytes: number): { message: string; limit: string } | undefined {
    const mine = this.owners.get(owner) ?? empty();
    const checks: [Usage, Limits, string, string][] = [
      [mine, this.perCaller, 'perCaller', 'this caller'],
      [this.all, this.total, 'total', 'the server'],
    ];
    for (const [usage, limits, name, who] of checks) {
      if (usage.tasks + 1 > limits.tasks) {
        return {
          limit: `${name}.tasks`,
          message: `Too many tasks: ${who} keeps ${usage.tasks}, the most allowed; a task is kept until its ttl passes. Try again later.`,
        };
      }
      if (usage.storedBytes + bytes > limits.storedBytes) {
        return {
          limit: `${name}.storedBytes`,
          message: `Too much task data: ${who} keeps ${usage.storedBytes} bytes of tasks and this one needs ${bytes}, past the ${limits.storedBytes} allowed. Try again later.`,
        };
      }
      if (usage.running + 1 > limits.running) {
        return {
          limit: `${name}.running`,
          message: `Too many tasks running: ${who} runs ${usage.running}, the most allowed at once. Try again when one ends.`,
        };
      }
    }
    return undefined;
  }

  private apply(entry: Entry, delta: Usage): void {
    let mine = this.owners.get(entry.owner);
    if (!mine) this.owners.set(entry.owner, (mine = empty()));
    for (const usage of [mine, this.all]) {
      usage.tasks += delta.tasks;
      usage.storedBytes += delta.storedBytes;
      usage.running += delta.running;
    }
    if (mine.tasks === 0) this.owners.delete(entry.owner);
  }

  /** Forgets expired tasks: at most once a second, unless `always`. */
  private sweep(always: boolean): void {
    const now = Date.now();
    if (!always && now - this.lastSweep < 1000) return;
    this.lastSweep = now;
    for (const [id, entry] of this.entries) if (entry.expiresAt <= now) this.remove(id);
  }
}
