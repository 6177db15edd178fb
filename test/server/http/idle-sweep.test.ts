import { Server } from '@modelcontextprotocol/server';
import { InMemoryEventStore } from '../../../src';
import { SessionTable, type Session } from '../../../src/server/http/legacy/sessions';

/**
 * Issue 37: the idle sweep closes abandoned sessions in slices. Closing thousands of sessions in one go held the
 * event loop; now a slice stops after a few milliseconds and the rest wait for the next turn, so requests in between
 * are served. Real sessions (the SDK's transport and `Server`), the table's own sweep.
 */

interface Sweeping {
  sweep(): void;
  added(id: string, session: Session): void;
}

it('closes 2,000 idle sessions over several turns of the event loop, every one of them in the end', async () => {
  const store = new InMemoryEventStore();
  const table = new SessionTable(() => new Server({ name: 's', version: '1' }, { capabilities: {} }), {
    maxSessions: 5000,
    maxSessionsPerCaller: 5000,
    maxRequestBodySize: 1 << 20,
    eventStore: store,
    retryMs: 1000,
    idleTimeoutMs: 60_000,
  });
  const inside = table as unknown as Sweeping;
  const sessions = await Promise.all(Array.from({ length: 2000 }, (_, i) => table.open(undefined, `caller-${i % 10}`)));
  sessions.forEach((session, i) => {
    session.lastSeen = 0;
    inside.added(`s${i}`, session);
  });
  expect(table.size).toBe(2000);
  inside.sweep();
  // The sweep's first slice returned before the last session closed: the rest is left to later turns.
  const afterFirstSlice = table.size;
  expect(afterFirstSlice).toBeGreaterThan(0);
  expect(afterFirstSlice).toBeLessThan(2000);
  let turns = 0;
  while (table.size > 0) {
    await new Promise((resolve) => setImmediate(resolve));
    turns++;
  }
  expect(turns).toBeGreaterThan(0);
  // A second sweep while nothing is due closes nothing and starts no slices.
  inside.sweep();
  expect(table.size).toBe(0);
  await table.closeAll();
});
