import { InMemoryTaskStore, StoreUnavailableError, type TaskChange, type TaskRecord } from '../../src';
import { Log } from '../../src/log';
import { InputRequired } from '../../src/request-context';
import { TaskRunner, type TaskWork } from '../../src/server/tasks/tasks';

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
      throw new InputRequired({ ok: { method: 'elicitation/create', params: { message: 'Sure?', requestedSchema: { type: 'object', properties: {} } } } }, { step: 1 });
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
    const both = await Promise.all([runner.answer('o', task.taskId, OK, () => tool.work), runner.answer('o', task.taskId, OK, () => tool.work)]);
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
        const ask = { method: 'elicitation/create' as const, params: { message: '?', requestedSchema: { type: 'object' as const, properties: {} } } };
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
    await expect(runner.start({ owner: 'a', call: { name: 't' }, caller: CALLER }, held().work)).rejects.toMatchObject({ data: { limit: 'perCaller.running' } });
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
    const task = await runner.start({ owner: 'o', call: { name: 'slow', arguments: { secret: SECRET_ARGUMENT } }, caller: CALLER }, async () => (await gate, result));
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
    expect(lines[lines.length - 1]).toMatch(new RegExp(`^info The outcome of task ${task.taskId} \\('slow'\\) was stored after [4-9] tries\\.$`));
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
    const task = await runner.start({ owner: 'o', call: { name: 'slow' }, caller: CALLER }, () => new Promise((resolve) => (finish = () => resolve({ content: [] }))));
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
    expect(events).toEqual(['stored working', `hold ${id}`, 'stored input_required', `release ${id}`, 'stored working', `hold ${id}`, 'stored completed', `release ${id}`]);
    await runner.closeAll();
  });
});
