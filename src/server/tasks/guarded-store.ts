import type { Log } from '../../log';
import { StoreHealth } from '../stores/degraded';
import type { TaskStore } from './store';

/**
 * Bounds a shared task store: each operation fails with `StoreUnavailableError` (stores/degraded.ts) past the bound, which the
 * client gets as a "temporarily unable" JSON-RPC error (code -32000, `data.retryAfterSeconds`).
 */
export function guardedTaskStore(store: TaskStore, timeoutMs: number, log: Log): TaskStore {
  const health = new StoreHealth('task store', timeoutMs, log);
  return {
    create: (task) => health.run('create a task', () => store.create(task)),
    get: (taskId) => health.run('read a task', () => store.get(taskId)),
    update: (taskId, change) => health.run('update a task', () => store.update(taskId, change)),
    list: (owner) => health.run('list tasks', () => store.list(owner)),
    watch: (listener) => store.watch(listener),
    // A lease is written by the store's own timer, which bounds and logs its own failures.
    ...(store.hold && { hold: (taskId: string) => store.hold!(taskId) }),
  };
}
