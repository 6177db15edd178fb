import { ProtocolError, ProtocolErrorCode, RELATED_TASK_META_KEY, type Server, type ServerContext, type StandardSchemaV1 } from '@modelcontextprotocol/server';
import type { Pager } from './pages';
import { TERMINAL, wireTask, type TaskRecord, type TaskRunner } from './tasks';

/**
 * The 2025-11-25 task methods on a connection's `Server`: `tasks/get`, `tasks/result`, `tasks/list` and
 * `tasks/cancel`, each seeing only the tasks of the connection (or HTTP session) that created them. The SDK
 * keeps the task vocabulary on the wire without a runtime, so these are registered with their own schemas.
 */

/** A params schema in the Standard Schema shape the SDK's custom-method registration takes. */
function paramsSchema<T>(check: (params: Readonly<Record<string, unknown>>) => T | string): StandardSchemaV1<unknown, T> {
  return {
    '~standard': {
      version: 1,
      vendor: 'onemodelcontext',
      validate(value: unknown) {
        const params = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
        const checked = check(params);
        return typeof checked === 'string' ? { issues: [{ message: checked }] } : { value: checked };
      },
    },
  };
}

const TASK_ID = paramsSchema((p) => (typeof p.taskId === 'string' && p.taskId.length > 0 ? { taskId: p.taskId } : 'taskId must be a non-empty string.'));
const LIST = paramsSchema((p) => (p.cursor === undefined || typeof p.cursor === 'string' ? { cursor: p.cursor } : 'cursor must be a string.'));

function unknownTask(): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid params: no such task (unknown, expired, or not yours).');
}

/** Who a request's tasks belong to: its HTTP session, else its connection. */
export type OwnerOf = (ctx: ServerContext) => string;

/** Sends `notifications/tasks/status` for a task on the connection that created it. */
export function statusNotifier(server: Server): (task: TaskRecord) => void {
  return (task) => {
    server
      .notification({ method: 'notifications/tasks/status', params: wireTask(task) } as never)
      .catch((error: unknown) => server.onerror?.(error instanceof Error ? error : new Error(String(error))));
  };
}

/** The result `tasks/result` answers for an ended task: the tool's result, tied to its task. */
function payloadOf(task: TaskRecord): Record<string, unknown> {
  if (task.status === 'cancelled') throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid params: the task was cancelled; it has no result.');
  if (task.result === undefined) throw new ProtocolError(ProtocolErrorCode.InternalError, 'The task failed.');
  const result = task.result as Record<string, unknown>;
  const meta = (result._meta as Record<string, unknown> | undefined) ?? {};
  return { ...result, _meta: { ...meta, [RELATED_TASK_META_KEY]: { taskId: task.taskId } } };
}

export function installTaskHandlers(server: Server, runner: TaskRunner, pager: Pager, ownerOf: OwnerOf): void {
  const notify = statusNotifier(server);
  server.setRequestHandler('tasks/get', { params: TASK_ID }, async ({ taskId }, ctx) => {
    const task = await runner.store.get(taskId);
    if (!task || task.owner !== ownerOf(ctx)) throw unknownTask();
    return wireTask(task) as never;
  });
  server.setRequestHandler('tasks/result', { params: TASK_ID }, async ({ taskId }, ctx) => {
    const task = await runner.settled(ownerOf(ctx), taskId, ctx.mcpReq.signal);
    if (!task) throw unknownTask();
    return payloadOf(task) as never;
  });
  server.setRequestHandler('tasks/list', { params: LIST }, async ({ cursor }, ctx) => {
    const tasks = (await runner.store.list(ownerOf(ctx))).map(wireTask);
    const page = pager.page('tasks', tasks, (t) => t.taskId, cursor);
    return (page.nextCursor === undefined ? { tasks: page.items } : { tasks: page.items, nextCursor: page.nextCursor }) as never;
  });
  server.setRequestHandler('tasks/cancel', { params: TASK_ID }, async ({ taskId }, ctx) => {
    const outcome = await runner.cancel(ownerOf(ctx), taskId, notify);
    if (outcome === 'unknown') throw unknownTask();
    if (outcome === 'ended') throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid params: the task already ended; it cannot be cancelled.');
    return wireTask(outcome) as never;
  });
}

/** Whether a status is final. */
export function isTerminal(task: TaskRecord): boolean {
  return TERMINAL.has(task.status);
}
