import { asError } from '../../errors';
import { isObject, isObjectLike } from '../../objects';
import {
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type Result,
  type Server,
  type ServerContext,
  type StandardSchemaV1,
} from '@modelcontextprotocol/server';
import type { RequestContextInit } from '../../invoke/request/request-context';
import type { Catalog, RegisteredTool } from '../catalog/catalog';
import type { Pager } from '../catalog/pages';
import { handleRequestWithParams, sendNotification } from '../sdk/server';
import { createTaskResult, detailedTask, legacyPayload, legacyTask } from './wire';
import type { TaskCaller, TaskRecord } from './store';
import type { TaskRunner, TaskWork } from './tasks';

/**
 * The task methods on a connection's or request's `Server`, in both revisions:
 * - 2025-11-25: a `tools/call` carrying `params.task` creates a task; `tasks/get`, `tasks/result`, `tasks/list`
 *   and `tasks/cancel`; `notifications/tasks/status` on every change.
 * - 2026-07-28, the `io.modelcontextprotocol/tasks` extension (SEP-2663): the server creates a task for every call
 *   of a task tool from a client that declared the extension; `tasks/get` (result inlined), `tasks/update` (input
 *   the task waits for) and `tasks/cancel`; a client that did not declare it is refused with -32021.
 * Each caller sees only its own tasks, and of those only the ones whose tool `auth.authorize` lets it use now: a task
 * of a tool the policy refuses is answered as an unknown task by every task method (`tasks/cancel` included, so
 * that the answer does not tell a refused task from a missing one) and left out of `tasks/list`.
 */

export { TASKS_EXTENSION } from './extension';
import { TASKS_EXTENSION } from './extension';

/** What the task methods need to know of a request. */
export interface TaskRequests {
  /** Whether the request is served on 2026-07-28. */
  modern(ctx: ServerContext): boolean;
  /** Whether the request's client declared the tasks extension (2026-07-28). */
  declared(ctx: ServerContext): boolean;
  /** Who the request's tasks belong to. */
  ownerOf(ctx: ServerContext): string;
  /** Whom the request's new task counts against for the quotas: the token's owner, else the client's address. */
  countedAs(ctx: ServerContext): string;
  /** The context of the request for the tool named `item`. */
  contextOf(ctx: ServerContext, item: string): RequestContextInit;
  /** Whether `auth.authorize` lets the request's caller use the tool (a refusal is logged); always, without a policy. */
  allows(ctx: ServerContext, tool: string): boolean | Promise<boolean>;
}

/** Thrown out of the `tools/call` handler with the task it created, past the SDK's `CallToolResult` check. */
export class TaskCreated {
  constructor(readonly result: Result) {}
}

/** A params schema in the Standard Schema shape the SDK's custom-method registration takes. */
function paramsSchema<T>(check: (params: Readonly<Record<string, unknown>>) => T | string): StandardSchemaV1<unknown, T> {
  return {
    '~standard': {
      version: 1,
      vendor: 'onemodelcontext',
      validate(value: unknown) {
        const params = isObjectLike(value) ? (value as Record<string, unknown>) : {};
        const checked = check(params);
        return typeof checked === 'string' ? { issues: [{ message: checked }] } : { value: checked };
      },
    },
  };
}

const TASK_ID = paramsSchema((p) =>
  typeof p.taskId === 'string' && p.taskId.length > 0 ? { taskId: p.taskId } : 'taskId must be a non-empty string.',
);
const LIST = paramsSchema((p) =>
  p.cursor === undefined || typeof p.cursor === 'string' ? { cursor: p.cursor } : 'cursor must be a string.',
);
// The SDK lifts `inputResponses` out of the params into the request context (`ctx.mcpReq.inputResponses`).
const UPDATE = paramsSchema((p) =>
  typeof p.taskId === 'string' && p.taskId.length > 0
    ? { taskId: p.taskId, inputResponses: p.inputResponses }
    : 'taskId must be a non-empty string.',
);

function unknownTask(): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid params: no such task (unknown, expired, or not yours).');
}

function undeclared(what: string): MissingRequiredClientCapabilityError {
  return new MissingRequiredClientCapabilityError(
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    `${what} needs the ${TASKS_EXTENSION} extension, which the client did not declare.`,
  );
}

/** The caller a task keeps, from the context of the request that created it. */
function callerOf(init: RequestContextInit): TaskCaller {
  return {
    protocolVersion: init.protocolVersion,
    sessionId: init.sessionId,
    clientInfo: init.clientInfo,
    clientCapabilities: init.clientCapabilities,
    auth: init.auth,
  };
}

/**
 * The work of a task: the tool called with the caller's context, the run's signal and input. A task outlives its
 * request, so nothing reaches the client through the context (no progress, log, sampling or elicitation).
 */
function workOf(tool: RegisteredTool, args: unknown, caller: TaskCaller): TaskWork {
  return (run) =>
    tool.call(args, {
      ...caller,
      signal: run.signal,
      inputResponses: run.inputResponses,
      requestState: run.requestState,
      unavailable: 'a task has no request to send it through; use ctx.requireInput().',
    });
}

/**
 * Runs a `tools/call` of a task tool as a task when the revision and the client call for it, resolving with what
 * to answer; `undefined` when the call runs as an ordinary call.
 */
export async function callAsTask(
  tool: RegisteredTool,
  params: Readonly<Record<string, unknown>>,
  ctx: ServerContext,
  runner: TaskRunner,
  requests: TaskRequests,
): Promise<Result | undefined> {
  const support = tool.model.task;
  if (!support) return undefined;
  const modern = requests.modern(ctx);
  if (modern && !requests.declared(ctx)) {
    if (support === 'optional') return undefined;
    throw undeclared(`The tool '${tool.model.name}'`);
  }
  if (!modern && !isObject(params.task)) {
    if (support === 'optional') return undefined;
    throw new ProtocolError(
      ProtocolErrorCode.MethodNotFound,
      `The tool '${tool.model.name}' runs only as a task: call it with params.task.`,
    );
  }
  const init = requests.contextOf(ctx, tool.model.name);
  // Input asked for before the task starts goes by multi-round trip on tools/call; the round that brings the answers starts it.
  if (modern && tool.model.taskAfterInput && init.inputResponses === undefined) return undefined;
  const caller = runner.callerToKeep(callerOf(init));
  const call = { name: tool.model.name, arguments: params.arguments };
  // 2025-11-25 clients ask for a ttl (`params.task`); a 2026-07-28 client's legacy `task` param is ignored.
  const ttl = modern ? undefined : (params.task as { ttl?: unknown }).ttl;
  const task = await runner.start(
    { owner: requests.ownerOf(ctx), countedAs: requests.countedAs(ctx), call, caller, ttl },
    workOf(tool, params.arguments, caller),
    {
      inputResponses: init.inputResponses,
      requestState: init.requestState,
    },
  );
  return (modern ? createTaskResult(task) : { task: legacyTask(task) }) as Result;
}

/** Sends `notifications/tasks/status` for every change of the connection's tasks (2025-11-25); returns the function that stops it. */
export function notifyStatus(server: Server, runner: TaskRunner, owner: string): () => void {
  return runner.watch((task) => {
    if (task.owner !== owner) return;
    sendNotification(server, { method: 'notifications/tasks/status', params: legacyTask(task) }).catch((error: unknown) =>
      server.onerror?.(asError(error)),
    );
  });
}

/** The 2025-11-25 `tasks/result` answer of an ended task. */
function legacyResultOf(task: TaskRecord): Result {
  if (task.status === 'cancelled')
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid params: the task was cancelled; it has no result.');
  const payload = legacyPayload(task);
  if (payload) return payload as Result;
  throw new ProtocolError(task.error?.code ?? ProtocolErrorCode.InternalError, task.error?.message ?? 'The task failed.', task.error?.data);
}

/** Registers the task methods of both revisions. */
export function installTaskHandlers(server: Server, runner: TaskRunner, pager: Pager, catalog: Catalog, requests: TaskRequests): void {
  const gate = (method: string, ctx: ServerContext): boolean => {
    const modern = requests.modern(ctx);
    if (modern && !requests.declared(ctx)) throw undeclared(method);
    return modern;
  };
  const legacyOnly = (method: string, ctx: ServerContext) => {
    if (requests.modern(ctx))
      throw new ProtocolError(ProtocolErrorCode.MethodNotFound, `Method not found: ${method} is not part of protocol revision 2026-07-28.`);
  };

  /** The caller's task of that id, when the policy lets the caller use its tool now. */
  const visible = async (ctx: ServerContext, taskId: string): Promise<TaskRecord | undefined> => {
    const task = await runner.find(requests.ownerOf(ctx), taskId);
    return task && (await requests.allows(ctx, task.call.name)) ? task : undefined;
  };

  handleRequestWithParams(server, 'tasks/get', TASK_ID, async ({ taskId }, ctx) => {
    const modern = gate('tasks/get', ctx);
    const task = await visible(ctx, taskId);
    if (!task) throw unknownTask();
    return modern ? detailedTask(task) : legacyTask(task);
  });

  handleRequestWithParams(server, 'tasks/cancel', TASK_ID, async ({ taskId }, ctx) => {
    const modern = gate('tasks/cancel', ctx);
    if (!(await visible(ctx, taskId))) throw unknownTask();
    const outcome = await runner.cancel(requests.ownerOf(ctx), taskId);
    if (outcome === 'unknown') throw unknownTask();
    // 2026-07-28 acknowledges (again, for an ended task); 2025-11-25 answers the task, and refuses an ended one.
    if (modern) return {};
    if (outcome === 'ended')
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid params: the task already ended; it cannot be cancelled.');
    return legacyTask(outcome);
  });

  handleRequestWithParams(server, 'tasks/update', UPDATE, async (params, ctx) => {
    if (!requests.modern(ctx))
      throw new ProtocolError(ProtocolErrorCode.MethodNotFound, 'Method not found: tasks/update is part of protocol revision 2026-07-28.');
    gate('tasks/update', ctx);
    const inputResponses = ctx.mcpReq.inputResponses ?? params.inputResponses;
    if (!isObject(inputResponses))
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid params for tasks/update: inputResponses must be an object.');
    if (!(await visible(ctx, params.taskId))) throw unknownTask();
    const task = await runner.answer(requests.ownerOf(ctx), params.taskId, inputResponses, (t) => {
      const tool = catalog.tool(t.call.name);
      return tool && workOf(tool, t.call.arguments, t.caller);
    });
    if (!task) throw unknownTask();
    return {};
  });

  handleRequestWithParams(server, 'tasks/result', TASK_ID, async ({ taskId }, ctx) => {
    legacyOnly('tasks/result', ctx);
    if (!(await visible(ctx, taskId))) throw unknownTask();
    const task = await runner.settled(requests.ownerOf(ctx), taskId, ctx.mcpReq.signal);
    if (!task) throw unknownTask();
    return legacyResultOf(task);
  });

  handleRequestWithParams(server, 'tasks/list', LIST, async ({ cursor }, ctx) => {
    legacyOnly('tasks/list', ctx);
    const tasks = (await allowedOnly(await runner.store.list(requests.ownerOf(ctx)), (tool) => requests.allows(ctx, tool))).map(legacyTask);
    const page = pager.page('tasks', tasks, (t) => t.taskId, cursor);
    return page.nextCursor === undefined ? { tasks: page.items } : { tasks: page.items, nextCursor: page.nextCursor };
  });
}

/** The tasks whose tool the policy allows: asked once per tool name, not once per task. */
async function allowedOnly(
  tasks: readonly TaskRecord[],
  allows: (tool: string) => boolean | Promise<boolean>,
): Promise<readonly TaskRecord[]> {
  const answers = new Map<string, boolean | Promise<boolean>>();
  for (const task of tasks) if (!answers.has(task.call.name)) answers.set(task.call.name, allows(task.call.name));
  const settled = new Map<string, boolean>();
  for (const [tool, answer] of answers) settled.set(tool, await answer);
  return tasks.filter((task) => settled.get(task.call.name) === true);
}
