import { mkdirSync, rmSync, statSync } from 'node:fs';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A lock older than this was left by a run that was killed while holding it, and is taken over. */
const STALE_LOCK_MS = 120_000;

/**
 * Does `work` once among the Jest workers of a run, which are separate processes: the first to create the
 * lock folder (mkdir either creates it or fails, atomically) does it; the others wait until `done()` says it
 * is done, then return (`what` names the work in the error of a worker that gave up waiting). `done()` is asked again under the lock, for a worker that waited on another's work.
 */
export async function onceAcrossWorkers(
  what: string,
  lock: string,
  done: () => boolean,
  work: () => Promise<void>,
  waitMs: number,
): Promise<void> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    if (done()) return;
    try {
      mkdirSync(lock);
      break;
    } catch {
      const held = statSync(lock, { throwIfNoEntry: false });
      if (held && Date.now() - held.mtimeMs > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`Gave up waiting ${waitMs / 1000} s for ${what} (lock ${lock}).`);
      await sleep(200);
    }
  }
  try {
    if (!done()) await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
