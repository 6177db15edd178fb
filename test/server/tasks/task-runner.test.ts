import { InMemoryTaskStore, StoreUnavailableError, type TaskChange, type TaskRecord } from '../../../src';
import { getEventListeners } from 'node:events';
import { Log } from '../../../src/log';
import { InputRequired } from '../../../src/invoke/request/request-context';
import { TaskRunner, type TaskWork } from '../../../src/server/tasks/tasks';

/**
 * The task runner on its own (issue 29): two `tasks/update` answers that both complete a task's input, given in
 * the same tick (the race the HTTP test can only sometimes hit), run the final round once; the limits count
 * tasks until their ttl passes and running tasks until they end; bad limits are refused with the option's name.
 */

const CALLER = { protocolVersion: '2026-07-28', clientCapabilities: { elicitation: {} } };
const OK = { ok: { action: 'accept', content: {} } };

/** A tool that asks for `ok` once, then counts its final rounds. */
function asking(): { work: TaskWork; finalRounds: () => number } {
  let finalRounds = 0;
  const work: TaskWork = async (run) => {
    if (run.inputResponses?.ok === undefined) {
      throw new InputRequired(
        { ok: { method: 'elicitation/create', params: { message: 'Sure?', requestedSchema: { type: 'object', properties: {} } } } },
        { step: 1 },
      );
    }
    finalRounds++;
    return { content: [{ type: 'text', text: 'done' }] };
  };
  return { work, finalRounds: () => finalRounds };
}

async function until(store: InMemoryTaskStore, taskId: string, status: string): Promise<TaskRecord> {
  for (let i = 0; i < 500; i++) {
    const task = await store.get(taskId);
    if (task?.status === status) return task;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`task ${taskId} never reached ${status}`);
}

describe('TaskRunner.answer', () => {
  it('runs the final round once when two answers complete the input in the same tick', async () => {
    const store = new InMemoryTaskStore();
    const runner = new TaskRunner(store);
    const tool = asking();
    const task = await runner.start({ owner: 'o', call: { name: 'confirm' }, caller: CALLER }, tool.work);
    await until(store, task.taskId, 'input_required');
    const both = await Promise.all([
      runner.answer('o', task.taskId, OK, () => tool.work),
      runner.answer('o', task.taskId, OK, () => tool.work),
    ]);
    expect(both.map((t) => t?.status)).toEqual(['working', 'working']);
    await until(store, task.taskId, 'completed');
    expect(tool.finalRounds()).toBe(1);
    await runner.closeAll();
  });

  it("keeps both of two partial answers given in the same tick (neither overwrites the other's key)", async () => {
    const store = new InMemoryTaskStore();
    const runner = new TaskRunner(store);
    let finalRounds = 0;
    const work: TaskWork = async (run) => {
      if (run.inputResponses === undefined) {
        const ask = {
          method: 'elicitation/create' as const,
          params: { message: '?', requestedSchema: { type: 'object' as const, properties: {} } },
        };
        throw new InputRequired({ a: ask, b: ask });
      }
      finalRounds++;
      return { content: [{ type: 'text', text: JSON.stringify(run.inputResponses) }] };
    };
    const task = await runner.start({ owner: 'o', call: { name: 'two' }, caller: CALLER }, work);
    await until(store, task.taskId, 'input_required');
    await Promise.all([runner.answer('o', task.taskId, { a: 1 }, () => work), runner.answer('o', task.taskId, { b: 2 }, () => work)]);
    const done = await until(store, task.taskId, 'completed');
    expect(done.result).toEqual({ content: [{ type: 'text', text: '{"a":1,"b":2}' }] });
    expect(finalRounds).toBe(1);
    await runner.closeAll();
  });
});

describe('a task store written for the older update()', () => {
  it('is reported when it does not work a change out of a function: the answers are not silently lost', async () => {
    /** Takes only plain changes, as a store written before TaskChange did. */
    class OlderStore extends InMemoryTaskStore {
      override update(taskId: string, change: TaskChange): Promise<TaskRecord | undefined> {
        return typeof change === 'function' ? this.get(taskId) : super.update(taskId, change);
      }
    }
    const errors: string[] = [];
    const log = Log.of({ error: (m: string) => void errors.push(m), warn: () => undefined, info: () => undefined, debug: () => undefined });
    const store = new OlderStore();
    const runner = new TaskRunner(store, {}, log);
    const tool = asking();
    const task = await runner.start({ owner: 'o', call: { name: 'confirm' }, caller: CALLER }, tool.work);
    await until(store, task.taskId, 'input_required');
    await runner.answer('o', task.taskId, OK, () => tool.work);
    expect(errors).toEqual([
      `The task store's update() did not work out the change of task ${task.taskId} from the stored task: a change may be a function (TaskChange); the client's answers were not applied.`,
    ]);
    await runner.closeAll();
  });
});

describe('task limits', () => {
  const held = (): { work: TaskWork; release: () => void } => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    return { work: async () => (await gate, { content: [] }), release };
  };

  it('counts a task until its ttl passes, and refuses past the total with the limit named', async () => {
    const runner = new TaskRunner(new InMemoryTaskStore(), { total: { tasks: 2 } });
    const done = async () => ({ content: [] });
    await runner.start({ owner: 'a', call: { name: 't' }, caller: CALLER, ttl: 60_000 }, done);
    await runner.start({ owner: 'b', call: { name: 't' }, caller: CALLER, ttl: 30 }, done);
    await expect(runner.start({ owner: 'c', call: { name: 't' }, caller: CALLER }, done)).rejects.toMatchObject({
      code: -32000,
      message: 'Too many tasks: the server keeps 2, the most allowed; a task is kept until its ttl passes. Try again later.',
      data: { limit: 'total.tasks' },
    });
    await new Promise((r) => setTimeout(r, 60));
    // b's task expired: c gets its place.
    expect((await runner.start({ owner: 'c', call: { name: 't' }, caller: CALLER }, done)).status).toBe('working');
    expect(runner.usage()).toMatchObject({ tasks: 2 });
    await runner.closeAll();
  });

  it('counts a running task until it ends', async () => {
    const store = new InMemoryTaskStore();
    const runner = new TaskRunner(store, { perCaller: { running: 1 } });
    const first = held();
    const task = await runner.start({ owner: 'a', call: { name: 't' }, caller: CALLER }, first.work);
    expect(runner.usage('a')).toMatchObject({ tasks: 1, running: 1 });
    await expect(runner.start({ owner: 'a', call: { name: 't' }, caller: CALLER }, held().work)).rejects.toMatchObject({
      data: { limit: 'perCaller.running' },
    });
    first.release();
    await until(store, task.taskId, 'completed');
    expect(runner.usage('a')).toMatchObject({ tasks: 1, running: 0 });
    expect((await runner.start({ owner: 'a', call: { name: 't' }, caller: CALLER }, async () => ({ content: [] }))).status).toBe('working');
    await runner.closeAll();
  });

  it('refuses a limit that is not a whole number from 1, naming the option', () => {
    expect(() => new TaskRunner(new InMemoryTaskStore(), { perCaller: { running: 0 } })).toThrow(
      new TypeError('tasks.perCaller.running takes a whole number from 1, for example { perCaller: { running: 10 } }; got 0.'),
    );
    expect(() => new TaskRunner(new InMemoryTaskStore(), { total: { storedBytes: 1.5 } })).toThrow(
      new TypeError('tasks.total.storedBytes takes a whole number from 1, for example { total: { storedBytes: 268435456 } }; got 1.5.'),
    );
  });
});

describe('a task whose outcome cannot be written at once (issue 37)', () => {
  /** Refuses every update while `down`, as the degraded wrapper does during a Redis outage. */
  class FlakyStore extends InMemoryTaskStore {
    down = false;
    refused = 0;
    override update(taskId: string, change: TaskChange): Promise<TaskRecord | undefined> {
      if (this.down) {
        this.refused++;
        return Promise.reject(new StoreUnavailableError('task store', 'no answer within 1000 ms'));
      }
      return super.update(taskId, change);
    }
  }
  const SECRET_ARGUMENT = 'argument-that-must-not-be-logged';
  const SECRET_RESULT = 'result-that-must-not-be-logged';

  function recording(): { log: Log; lines: string[] } {
    const lines: string[] = [];
    const keep = (level: string) => (m: string) => void lines.push(`${level} ${m}`);
    return { log: Log.of({ error: keep('error'), warn: keep('warn'), info: keep('info'), debug: keep('debug') }), lines };
  }

  it('reads as working while the store does not answer, then completes with its result kept, and logs neither arguments nor result', async () => {
    const store = new FlakyStore();
    const { log, lines } = recording();
    const runner = new TaskRunner(store, {}, log);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const result = { content: [{ type: 'text', text: SECRET_RESULT }] };
    const task = await runner.start(
      { owner: 'o', call: { name: 'slow', arguments: { secret: SECRET_ARGUMENT } }, caller: CALLER },
      async () => (await gate, result),
    );
    store.down = true;
    release();
    while (store.refused < 3) await new Promise((r) => setTimeout(r, 10));
    expect((await store.get(task.taskId))?.status).toBe('working');
    expect(runner.usage('o')).toMatchObject({ tasks: 1, running: 0 });
    store.down = false;
    const done = await until(store, task.taskId, 'completed');
    expect(done.result).toEqual(result);
    expect(lines[0]).toBe(
      `warn The outcome of task ${task.taskId} ('slow') could not be stored (The server is temporarily unable to use its task store (no answer within 1000 ms); try again shortly.); trying again until the store answers or the task's ttl passes.`,
    );
    expect(lines[lines.length - 1]).toMatch(
      new RegExp(`^info The outcome of task ${task.taskId} \\('slow'\\) was stored after [4-9] tries\\.$`),
    );
    expect(lines.join('\n')).not.toContain(SECRET_ARGUMENT);
    expect(lines.join('\n')).not.toContain(SECRET_RESULT);
    await runner.closeAll();
  });

  it('gives up once the ttl passes, with one error line, and rejects nothing', async () => {
    const store = new FlakyStore();
    const { log, lines } = recording();
    const runner = new TaskRunner(store, {}, log);
    const task = await runner.start({ owner: 'o', call: { name: 'brief' }, caller: CALLER, ttl: 250 }, async () => {
      store.down = true;
      return { content: [] };
    });
    while (!lines.some((l) => l.startsWith('error'))) await new Promise((r) => setTimeout(r, 10));
    expect(lines.filter((l) => l.startsWith('error'))).toEqual([
      `error The outcome of task ${task.taskId} ('brief') could not be stored before its ttl passed: The server is temporarily unable to use its task store (no answer within 1000 ms); try again shortly.`,
    ]);
    store.down = false;
    await runner.closeAll();
  });

  it('writes the outcome, not "cancelled", when the server closes while it is pending', async () => {
    const store = new FlakyStore();
    const runner = new TaskRunner(store);
    const task = await runner.start({ owner: 'o', call: { name: 't' }, caller: CALLER }, async () => {
      store.down = true;
      return { content: [{ type: 'text', text: 'kept' }] };
    });
    while (store.refused < 1) await new Promise((r) => setTimeout(r, 5));
    store.down = false;
    await runner.closeAll();
    expect(await store.get(task.taskId)).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'kept' }] } });
  });

  it('logs, and does not reject, when the store refuses the records of a closing server', async () => {
    const store = new FlakyStore();
    const { log, lines } = recording();
    const runner = new TaskRunner(store, {}, log);
    const task = await runner.start({ owner: 'o', call: { name: 't' }, caller: CALLER }, () => new Promise(() => undefined));
    store.down = true;
    await runner.closeAll();
    expect(lines).toEqual([
      `error Task ${task.taskId} could not be recorded as ended while the server closed: The server is temporarily unable to use its task store (no answer within 1000 ms); try again shortly.`,
    ]);
  });
});

describe('TaskRunner and a store that keeps runner leases (TaskStore.hold)', () => {
  /** The in-memory store with `hold`, recording holds, releases and the statuses stored, in order. */
  function leasing() {
    const events: string[] = [];
    const store = new InMemoryTaskStore();
    // Heard before the runner hears it (listeners are called in the order they came), as the change is stored.
    store.watch((task) => void events.push(`stored ${task.status}`));
    Object.assign(store, {
      hold(taskId: string) {
        events.push(`hold ${taskId}`);
        return () => void events.push(`release ${taskId}`);
      },
    });
    return { store, events };
  }

  it('holds the task while its tool runs and releases it once, after its outcome is written', async () => {
    const { store, events } = leasing();
    const runner = new TaskRunner(store);
    let finish!: () => void;
    const task = await runner.start(
      { owner: 'o', call: { name: 'slow' }, caller: CALLER },
      () => new Promise((resolve) => (finish = () => resolve({ content: [] }))),
    );
    expect(events).toEqual(['stored working', `hold ${task.taskId}`]);
    finish();
    await until(store, task.taskId, 'completed');
    await new Promise((r) => setImmediate(r));
    expect(events).toEqual(['stored working', `hold ${task.taskId}`, 'stored completed', `release ${task.taskId}`]);
    await runner.closeAll();
  });

  it('releases a cancelled task at once, whether or not its tool ever returns, and a parked one per run', async () => {
    const { store, events } = leasing();
    const runner = new TaskRunner(store);
    const never = await runner.start({ owner: 'o', call: { name: 'stuck' }, caller: CALLER }, () => new Promise(() => undefined));
    await runner.cancel('o', never.taskId);
    expect(events).toEqual(['stored working', `hold ${never.taskId}`, 'stored cancelled', `release ${never.taskId}`]);

    events.length = 0;
    const tool = asking();
    const parked = await runner.start({ owner: 'o', call: { name: 'confirm' }, caller: CALLER }, tool.work);
    await until(store, parked.taskId, 'input_required');
    await runner.answer('o', parked.taskId, OK, () => tool.work);
    await until(store, parked.taskId, 'completed');
    await new Promise((r) => setImmediate(r));
    const id = parked.taskId;
    expect(events).toEqual([
      'stored working',
      `hold ${id}`,
      'stored input_required',
      `release ${id}`,
      'stored working',
      `hold ${id}`,
      'stored completed',
      `release ${id}`,
    ]);
    await runner.closeAll();
  });
});

/** A log that keeps every entry: its level, message and details. */
function capturing(): { log: Log; entries: [string, string, unknown][] } {
  const entries: [string, string, unknown][] = [];
  const keep = (level: string) => (message: string, details?: unknown) => void entries.push([level, message, details]);
  return { log: Log.of({ error: keep('error'), warn: keep('warn'), info: keep('info'), debug: keep('debug') }), entries };
}

/** A tool that runs until released, keeping the signal of its run. */
function gated(): { work: TaskWork; release: () => void; signal: () => AbortSignal } {
  let release!: () => void;
  let signal: AbortSignal | undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const work: TaskWork = async (run) => {
    signal = run.signal;
    await gate;
    return { content: [] };
  };
  return { work, release, signal: () => signal! };
}

/** Every microtask queued so far, and those they queue, has run (the in-memory store sets no timers). */
const drained = () => new Promise((resolve) => setImmediate(resolve));

const STORE_DOWN = 'The server is temporarily unable to use its task store (no answer within 1000 ms); try again shortly.';

describe('TaskRunner, how a run ends', () => {
  it('fails a task whose tool threw (not to ask for input) with -32603, and logs nothing', async () => {
    const store = new InMemoryTaskStore();
    const { log, entries } = capturing();
    const runner = new TaskRunner(store, {}, log);
    const task = await runner.start({ owner: 'o', call: { name: 'broken' }, caller: CALLER }, async () => {
      throw new Error('secret detail');
    });
    const failed = await until(store, task.taskId, 'failed');
    expect({ statusMessage: failed.statusMessage, error: failed.error }).toEqual({
      statusMessage: 'The task failed.',
      error: { code: -32603, message: 'The task failed.' },
    });
    expect(entries).toEqual([]);
    await runner.closeAll();
  });

  it('logs nothing when the outcome is stored at the first try', async () => {
    const store = new InMemoryTaskStore();
    const { log, entries } = capturing();
    const runner = new TaskRunner(store, {}, log);
    const task = await runner.start({ owner: 'o', call: { name: 'fine' }, caller: CALLER }, async () => ({ content: [] }));
    await until(store, task.taskId, 'completed');
    await drained();
    expect(entries).toEqual([]);
    await runner.closeAll();
  });

  it('aborts the signal of a cancelled task with "The task was cancelled.", and writes no outcome once its tool returns', async () => {
    const updates: string[] = [];
    class Recording extends InMemoryTaskStore {
      override update(taskId: string, change: TaskChange): Promise<TaskRecord | undefined> {
        if (typeof change !== 'function') updates.push(change.status);
        return super.update(taskId, change);
      }
    }
    const store = new Recording();
    const runner = new TaskRunner(store);
    const tool = gated();
    const task = await runner.start({ owner: 'o', call: { name: 't' }, caller: CALLER }, tool.work);
    await runner.cancel('o', task.taskId);
    expect(tool.signal().aborted).toBe(true);
    expect((tool.signal().reason as Error).message).toBe('The task was cancelled.');
    tool.release(); // the tool ignores its signal and returns anyway
    await drained();
    expect(updates).toEqual(['cancelled']);
    expect(runner.usage('o')).toMatchObject({ tasks: 1, running: 0 });
    await runner.closeAll();
  });

  it('keeps running a task whose store reports its creation only after the run started', async () => {
    /** Reports every change a turn late, as a shared store's messages arrive. */
    class LateWatch extends InMemoryTaskStore {
      override watch(listener: (task: TaskRecord) => void): () => void {
        return super.watch((task) => void setImmediate(() => listener(task)));
      }
    }
    const store = new LateWatch();
    const runner = new TaskRunner(store);
    const heard: string[] = [];
    runner.watch((t) => void heard.push(t.status));
    const tool = gated();
    const task = await runner.start({ owner: 'o', call: { name: 't' }, caller: CALLER }, tool.work);
    while (!heard.includes('working')) await drained();
    expect(tool.signal().aborted).toBe(false);
    expect(runner.usage('o')).toMatchObject({ running: 1 });
    await runner.cancel('o', task.taskId);
    while (!heard.includes('cancelled')) await drained();
    expect((tool.signal().reason as Error).message).toBe('The task was cancelled.');
    tool.release();
    await runner.closeAll();
  });

  it('cancels the run resumed with the answers even when the parked run finishes after it started', async () => {
    let ack!: () => void;
    const acked = new Promise<void>((resolve) => (ack = resolve));
    /** Acknowledges the write that parks the task only when told, after every process could read it. */
    class LateAck extends InMemoryTaskStore {
      override async update(taskId: string, change: TaskChange): Promise<TaskRecord | undefined> {
        const stored = await super.update(taskId, change);
        if (typeof change !== 'function' && change.status === 'input_required') await acked;
        return stored;
      }
    }
    const store = new LateAck();
    const runner = new TaskRunner(store);
    const signals: AbortSignal[] = [];
    const work: TaskWork = async (run) => {
      signals.push(run.signal);
      if (run.inputResponses === undefined)
        throw new InputRequired({
          ok: { method: 'elicitation/create', params: { message: 'Sure?', requestedSchema: { type: 'object', properties: {} } } },
        });
      return new Promise(() => undefined);
    };
    const task = await runner.start({ owner: 'o', call: { name: 'confirm' }, caller: CALLER }, work);
    await until(store, task.taskId, 'input_required');
    await runner.answer('o', task.taskId, OK, () => work);
    expect(signals).toHaveLength(2);
    ack(); // the first run ends now, while the second runs
    await drained();
    await runner.cancel('o', task.taskId);
    expect(signals[1]!.aborted).toBe(true);
    await runner.closeAll();
  });
});

describe('TaskRunner.settled', () => {
  it('is woken by the change of the task, not by the poll timer', async () => {
    const store = new InMemoryTaskStore();
    const runner = new TaskRunner(store, { pollIntervalMs: 60_000 });
    const tool = gated();
    const task = await runner.start({ owner: 'o', call: { name: 't' }, caller: CALLER }, tool.work);
    const settled = runner.settled('o', task.taskId, new AbortController().signal);
    await drained();
    tool.release();
    // Resolves within the test's timeout only when woken by the store's change.
    expect(await settled).toMatchObject({ status: 'completed' });
    await runner.closeAll();
  });
});

describe('TaskRunner.closeAll', () => {
  it('records a running task cancelled because the server closed, logs nothing, and stops hearing the store', async () => {
    const store = new InMemoryTaskStore();
    const { log, entries } = capturing();
    const runner = new TaskRunner(store, {}, log);
    const tool = gated();
    const task = await runner.start({ owner: 'o', call: { name: 't' }, caller: CALLER }, tool.work);
    const heard: string[] = [];
    runner.watch((t) => void heard.push(`${t.taskId} ${t.status}`));
    await runner.closeAll();
    expect(await store.get(task.taskId)).toMatchObject({ status: 'cancelled', statusMessage: 'The server closed.' });
    // The store reports the cancelled record at once; the tool still hears why: the server closed.
    expect((tool.signal().reason as Error).message).toBe('The server closed.');
    expect(runner.usage('o')).toMatchObject({ running: 0 });
    expect(entries).toEqual([]);
    expect(heard).toEqual([`${task.taskId} cancelled`]);
    await store.create({ ...task, taskId: 'made-elsewhere' });
    expect(heard).toEqual([`${task.taskId} cancelled`]);
    // Closing again (close, then shutdown) is fine.
    await expect(runner.closeAll()).resolves.toBeUndefined();
    tool.release();
  });

  it('when the store refuses the records, logs each as a task.failed error, and aborts the tools with "The server closed."', async () => {
    class Down extends InMemoryTaskStore {
      down = false;
      override update(taskId: string, change: TaskChange): Promise<TaskRecord | undefined> {
        return this.down
          ? Promise.reject(new StoreUnavailableError('task store', 'no answer within 1000 ms'))
          : super.update(taskId, change);
      }
    }
    const store = new Down();
    const { log, entries } = capturing();
    const runner = new TaskRunner(store, {}, log);
    const tool = gated();
    const task = await runner.start({ owner: 'o', call: { name: 't' }, caller: CALLER }, tool.work);
    store.down = true;
    await runner.closeAll();
    expect(entries).toEqual([
      ['error', `Task ${task.taskId} could not be recorded as ended while the server closed: ${STORE_DOWN}`, { event: 'task.failed' }],
    ]);
    expect(tool.signal().aborted).toBe(true);
    expect((tool.signal().reason as Error).message).toBe('The server closed.');
    expect(runner.usage('o')).toMatchObject({ running: 0 });
    tool.release();
  });

  it('leaves a task waiting for input as it is: it runs nowhere', async () => {
    const store = new InMemoryTaskStore();
    const runner = new TaskRunner(store);
    const tool = asking();
    const task = await runner.start({ owner: 'o', call: { name: 'confirm' }, caller: CALLER }, tool.work);
    await until(store, task.taskId, 'input_required');
    await drained();
    await runner.closeAll();
    expect((await store.get(task.taskId))?.status).toBe('input_required');
  });

  it('wakes settled() waiters, which then read the record it wrote, when the store does not report changes', async () => {
    /** Reports no change: as a shared store whose messages are late, or lost. */
    class Silent extends InMemoryTaskStore {
      override watch(): () => void {
        return () => undefined;
      }
    }
    const store = new Silent();
    const runner = new TaskRunner(store, { pollIntervalMs: 60_000 });
    const tool = gated();
    const task = await runner.start({ owner: 'o', call: { name: 't' }, caller: CALLER }, tool.work);
    const settled = runner.settled('o', task.taskId, new AbortController().signal);
    await drained();
    await runner.closeAll();
    // Resolves within the test's timeout only when closeAll woke it.
    expect(await settled).toMatchObject({ status: 'cancelled', statusMessage: 'The server closed.' });
    tool.release();
  });
});

describe('TaskRunner, writing an outcome the store refuses (on a fake clock)', () => {
  beforeEach(() => void jest.useFakeTimers({ now: 1_000_000, doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] }));
  afterEach(() => void jest.useRealTimers());

  /** Refuses the writes of outcomes (not the cancellation) while `down`, at once or when `refuse` is called; notes when each try came. */
  class Refusing extends InMemoryTaskStore {
    down = false;
    pending: (() => void) | undefined;
    held = false;
    readonly tries: number[] = [];
    override update(taskId: string, change: TaskChange): Promise<TaskRecord | undefined> {
      if (typeof change === 'function' || change.status === 'cancelled' || !this.down) return super.update(taskId, change);
      this.tries.push(Date.now());
      const refusal = new StoreUnavailableError('task store', 'no answer within 1000 ms');
      if (!this.held) return Promise.reject(refusal);
      return new Promise((_, reject) => (this.pending = () => reject(refusal)));
    }
  }

  /** Starts a task whose tool returns at once, its outcome refused; resolves with the task and its run's signal. */
  async function refused(store: Refusing, runner: TaskRunner, ttl?: number): Promise<{ task: TaskRecord; signal: AbortSignal }> {
    let signal!: AbortSignal;
    const task = await runner.start({ owner: 'o', call: { name: 'slow' }, caller: CALLER, ttl }, async (run) => {
      signal = run.signal;
      store.down = true;
      return { content: [] };
    });
    await drained();
    return { task, signal };
  }

  it('tries again after 100 ms, doubling up to 5 s, warns once, and says how many tries it took', async () => {
    const store = new Refusing();
    const { log, entries } = capturing();
    const runner = new TaskRunner(store, {}, log);
    const { task, signal } = await refused(store, runner);
    const start = store.tries[0]!;
    await jest.advanceTimersByTimeAsync(17_000);
    expect(store.tries.map((t) => t - start)).toEqual([0, 100, 300, 700, 1500, 3100, 6300, 11_300, 16_300]);
    // One listener for the run's lease and one for the pause: none left behind by each try (Node warns past 10).
    expect(getEventListeners(signal, 'abort').length).toBeLessThanOrEqual(2);
    store.down = false;
    await jest.advanceTimersByTimeAsync(5000);
    expect((await store.get(task.taskId))?.status).toBe('completed');
    expect(entries).toEqual([
      [
        'warn',
        `The outcome of task ${task.taskId} ('slow') could not be stored (${STORE_DOWN}); trying again until the store answers or the task's ttl passes.`,
        { event: 'task.failed', tool: 'slow' },
      ],
      ['info', `The outcome of task ${task.taskId} ('slow') was stored after 10 tries.`, { event: 'task.failed', tool: 'slow' }],
    ]);
    await runner.closeAll();
  });

  it('gives up, with one error line and no warning, when the next try would come when the ttl passes', async () => {
    const store = new Refusing();
    const { log, entries } = capturing();
    const runner = new TaskRunner(store, {}, log);
    // Refused on creation's millisecond: the next try would be 100 ms later, the ttl's end.
    const { task } = await refused(store, runner, 100);
    await jest.advanceTimersByTimeAsync(1000);
    expect(store.tries).toHaveLength(1);
    expect(entries).toEqual([
      [
        'error',
        `The outcome of task ${task.taskId} ('slow') could not be stored before its ttl passed: ${STORE_DOWN}`,
        { event: 'task.failed', tool: 'slow' },
      ],
    ]);
    await runner.closeAll();
  });

  it('stops trying once the task is cancelled while it waits to try again', async () => {
    const store = new Refusing();
    const runner = new TaskRunner(store);
    const { task } = await refused(store, runner);
    expect(store.tries).toHaveLength(1);
    await runner.cancel('o', task.taskId);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(store.tries).toHaveLength(1);
    expect((await store.get(task.taskId))?.status).toBe('cancelled');
    await runner.closeAll();
  });

  it('stops trying once the task is cancelled while a try is in flight', async () => {
    const store = new Refusing();
    store.held = true;
    const runner = new TaskRunner(store);
    const { task } = await refused(store, runner);
    expect(store.tries).toHaveLength(1);
    await runner.cancel('o', task.taskId);
    store.pending!();
    await drained();
    await jest.advanceTimersByTimeAsync(60_000);
    expect(store.tries).toHaveLength(1);
    await runner.closeAll();
  });
});
