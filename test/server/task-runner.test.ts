import { InMemoryTaskStore, type TaskChange, type TaskRecord } from '../../src';
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
