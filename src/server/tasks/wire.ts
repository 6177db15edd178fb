import { RELATED_TASK_META_KEY, type Task } from '@modelcontextprotocol/server';
import type { TaskRecord } from './store';

/**
 * A task on the wire, in each revision. 2025-11-25 sends the SDK's `Task` (`ttl`, `pollInterval`) and the result
 * through `tasks/result`; 2026-07-28 (the tasks extension, SEP-2663) sends a flat task with `ttlMs` and
 * `pollIntervalMs`, and `tasks/get` inlines the result, the error or the pending input requests.
 */

/** The 2025-11-25 `Task` of a record (`tasks/get`, `tasks/list`, `tasks/cancel`, status notifications). */
export function legacyTask(task: TaskRecord): Task {
  const wire: Task = {
    taskId: task.taskId,
    status: task.status,
    ttl: task.ttl,
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
  };
  if (task.pollInterval !== undefined) wire.pollInterval = task.pollInterval;
  if (task.statusMessage !== undefined) wire.statusMessage = task.statusMessage;
  return wire;
}

/** The 2025-11-25 `tasks/result` of an ended task: the tool's result, tied to its task; `undefined` when it has none. */
export function legacyPayload(task: TaskRecord): Record<string, unknown> | undefined {
  if (task.result === undefined) return undefined;
  const result = task.result as Record<string, unknown>;
  const meta = (result._meta as Record<string, unknown> | undefined) ?? {};
  return { ...result, _meta: { ...meta, [RELATED_TASK_META_KEY]: { taskId: task.taskId } } };
}

/** The 2026-07-28 task fields every shape shares. */
function modernTask(task: TaskRecord): Record<string, unknown> {
  const wire: Record<string, unknown> = { taskId: task.taskId, status: task.status };
  if (task.statusMessage !== undefined) wire.statusMessage = task.statusMessage;
  wire.createdAt = task.createdAt;
  wire.lastUpdatedAt = task.lastUpdatedAt;
  wire.ttlMs = task.ttl;
  if (task.pollInterval !== undefined) wire.pollIntervalMs = task.pollInterval;
  return wire;
}

/** The 2026-07-28 answer of a `tools/call` that created a task: the task itself, flat, marked `resultType: 'task'`. */
export function createTaskResult(task: TaskRecord): Record<string, unknown> {
  return { resultType: 'task', ...modernTask(task) };
}

/** The 2026-07-28 `tasks/get` answer: the task with its result, its error or the input it waits for. */
export function detailedTask(task: TaskRecord): Record<string, unknown> {
  const wire = modernTask(task);
  if (task.status === 'completed' && task.result !== undefined) wire.result = task.result;
  if (task.status === 'failed' && task.error !== undefined) wire.error = task.error;
  if (task.status === 'input_required' && task.inputRequests !== undefined) wire.inputRequests = task.inputRequests;
  return wire;
}
