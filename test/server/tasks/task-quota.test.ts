import { TaskQuota } from '../../../src/server/tasks/quota';

/**
 * The task quota on its own (issue 29): what it counts when a task is added, grows, stops and goes, where the
 * storedBytes limit lies, and when it forgets expired tasks. Its clock is `Date.now`, set here by a spy (the
 * quota sets no timers), so expiry is exact; the maps it forgets entries from are private, read by name where
 * forgetting is the point (memory kept for callers and tasks that are gone).
 */

const FAR = 10 ** 12;
let clock = 0;

beforeEach(() => {
  clock = 1_000_000;
  jest.spyOn(Date, 'now').mockImplementation(() => clock);
});

afterEach(() => jest.restoreAllMocks());

/** The quota's private maps: what it still remembers. */
const remembered = (quota: TaskQuota) => quota as unknown as { entries: Map<string, unknown>; owners: Map<string, unknown> };

describe('TaskQuota counts', () => {
  it('a task added as running, its growth, its stop, and nothing once removed', () => {
    const quota = new TaskQuota(undefined, undefined);
    quota.add('t1', 'a', 10, FAR);
    expect(quota.usage('a')).toEqual({ tasks: 1, storedBytes: 10, running: 1 });
    quota.grew('t1', 5);
    expect(quota.usage('a')).toEqual({ tasks: 1, storedBytes: 15, running: 1 });
    quota.remove('t1');
    expect(quota.usage('a')).toEqual({ tasks: 0, storedBytes: 0, running: 0 });
    expect(quota.usage()).toEqual({ tasks: 0, storedBytes: 0, running: 0 });
  });

  it('removes a stopped task with its grown bytes', () => {
    const quota = new TaskQuota(undefined, undefined);
    quota.add('t1', 'a', 10, FAR);
    quota.stopped('t1');
    quota.grew('t1', 7);
    expect(quota.usage()).toEqual({ tasks: 1, storedBytes: 17, running: 0 });
    quota.remove('t1');
    expect(quota.usage()).toEqual({ tasks: 0, storedBytes: 0, running: 0 });
  });

  it('ignores growth and removal of a task it does not know', () => {
    const quota = new TaskQuota(undefined, undefined);
    quota.add('t1', 'a', 10, FAR);
    expect(() => quota.grew('unknown', 5)).not.toThrow();
    expect(() => quota.remove('unknown')).not.toThrow();
    expect(quota.usage()).toEqual({ tasks: 1, storedBytes: 10, running: 1 });
  });

  it("tells one owner's usage from everybody's", () => {
    const quota = new TaskQuota(undefined, undefined);
    quota.add('t1', 'a', 10, FAR);
    quota.add('t2', 'b', 20, FAR);
    expect(quota.usage('a')).toEqual({ tasks: 1, storedBytes: 10, running: 1 });
    expect(quota.usage('b')).toEqual({ tasks: 1, storedBytes: 20, running: 1 });
    expect(quota.usage()).toEqual({ tasks: 2, storedBytes: 30, running: 2 });
    expect(quota.usage('nobody')).toEqual({ tasks: 0, storedBytes: 0, running: 0 });
  });

  it('forgets an owner once all its tasks went', () => {
    const quota = new TaskQuota(undefined, undefined);
    quota.add('t1', 'a', 10, FAR);
    quota.add('t2', 'a', 10, FAR);
    quota.add('t3', 'b', 10, FAR);
    quota.remove('t1');
    expect([...remembered(quota).owners.keys()]).toEqual(['a', 'b']);
    quota.remove('t2');
    expect(quota.usage('a')).toEqual({ tasks: 0, storedBytes: 0, running: 0 });
    expect([...remembered(quota).owners.keys()]).toEqual(['b']);
  });
});

describe('TaskQuota storedBytes limit', () => {
  it('admits a task that brings the bytes kept exactly to the limit, and refuses one byte more', () => {
    const quota = new TaskQuota({ storedBytes: 100 }, undefined);
    expect(() => quota.admit('a', 100)).not.toThrow();
    expect(() => quota.admit('a', 101)).toThrow(
      expect.objectContaining({
        code: -32000,
        message: 'Too much task data: this caller keeps 0 bytes of tasks and this one needs 101, past the 100 allowed. Try again later.',
        data: { limit: 'perCaller.storedBytes' },
      }),
    );
    quota.add('t1', 'a', 60, FAR);
    expect(() => quota.admit('a', 40)).not.toThrow();
    expect(() => quota.admit('a', 41)).toThrow(expect.objectContaining({ data: { limit: 'perCaller.storedBytes' } }));
  });
});

describe('TaskQuota expiry', () => {
  it('forgets a task whose expiry is now, whenever usage is read', () => {
    const quota = new TaskQuota(undefined, undefined);
    quota.add('t1', 'a', 10, clock + 100);
    expect(quota.usage('a')).toMatchObject({ tasks: 1 });
    clock += 99;
    expect(quota.usage('a')).toMatchObject({ tasks: 1 });
    clock += 1;
    // Within a second of the last sweep: usage sweeps anyway.
    expect(quota.usage('a')).toEqual({ tasks: 0, storedBytes: 0, running: 0 });
    expect(remembered(quota).entries.size).toBe(0);
  });

  it('on admit, forgets expired tasks at most once a second, and always before refusing', () => {
    const quota = new TaskQuota({ tasks: 2 }, undefined);
    const { entries } = remembered(quota);
    quota.admit('a', 1); // the first sweep
    quota.add('t1', 'a', 10, clock + 10);
    clock += 500;
    quota.admit('b', 1); // t1 expired, but the last sweep was 500 ms ago
    expect(entries.has('t1')).toBe(true);
    clock += 500;
    quota.admit('b', 1); // a second since the last sweep
    expect(entries.has('t1')).toBe(false);

    quota.add('t2', 'a', 10, clock + 10);
    quota.add('t3', 'a', 10, FAR);
    clock += 20;
    // Two kept, the most allowed, but t2 expired: counted afresh, a is admitted.
    expect(() => quota.admit('a', 1)).not.toThrow();
    expect(entries.has('t2')).toBe(false);
  });
});
