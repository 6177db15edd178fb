import {
  Client as V2Client,
  InMemoryTransport as V2InMemory,
  StreamableHTTPClientTransport as V2Http,
  type StandardSchemaV1,
} from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport as V1InMemory } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolResultSchema, CreateTaskResultSchema, McpError, TaskStatusNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryTaskStore, McpServer, RequestContext, Tool, ToolError } from '../../../src';

/**
 * Long-running tools as tasks, with real SDK clients in-process and over HTTP:
 * - 2025-11-25 (`params.task`, tasks/get|result|list|cancel, status notifications) with the v1 client's task API;
 * - 2026-07-28 (the io.modelcontextprotocol/tasks extension) with the v2 client.
 * A task created, polled and its result fetched; another cancelled (its AbortSignal fires); an expired one gone;
 * an unknown id refused.
 */
jest.setTimeout(60_000);

const TASKS = 'io.modelcontextprotocol/tasks';
const aborted: string[] = [];

/** Resolves when `release` is called for that key (or the signal aborts); lets a test hold a task in `working`. */
const gates = new Map<string, () => void>();
function gate(key: string, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    gates.set(key, resolve);
    signal.addEventListener('abort', () => {
      aborted.push(key);
      resolve();
    });
  });
}
async function release(key: string): Promise<void> {
  for (let i = 0; i < 500 && !gates.has(key); i++) await new Promise((r) => setTimeout(r, 5));
  const open = gates.get(key)!;
  gates.delete(key);
  open();
}

class Jobs {
  @Tool({ description: 'Counts once released', task: 'optional', returns: String })
  async count(to: number, signal: AbortSignal): Promise<string> {
    await gate(`count ${to}`, signal);
    return `counted to ${to}`;
  }

  @Tool({ task: 'required', returns: String })
  async report(): Promise<string> {
    return 'report ready';
  }

  @Tool({ task: 'optional' })
  broken(): string {
    throw new ToolError('the job broke');
  }

  @Tool({ task: 'optional' })
  confirm(file: string, ctx: RequestContext): string {
    const answer = ctx.inputResponse('ok') as { action?: string } | undefined;
    if (answer?.action !== 'accept')
      ctx.requireInput(
        {
          ok: { method: 'elicitation/create', params: { message: `Delete ${file}?`, requestedSchema: { type: 'object', properties: {} } } },
        },
        { file },
      );
    return `deleted ${String((ctx.requestState as { file: string }).file)}`;
  }

  @Tool()
  plain(): string {
    return 'plain';
  }
}

/** The clock the stores read: real time, moved ahead (and back) by the tests that let tasks expire. */
let ahead = 0;
const clock = () => Date.now() + ahead;

function jobs(store = new InMemoryTaskStore(clock)): McpServer {
  return new McpServer(
    { name: 'jobs', version: '1' },
    { taskStore: store, tasks: { maxTtlMs: 5_000, pollIntervalMs: 20 }, logger: false },
  ).add(new Jobs());
}

// ---------------------------------------------------------------- 2025-11-25, the v1 client

async function v1InMemory(server: McpServer): Promise<V1Client> {
  const [clientEnd, serverEnd] = V1InMemory.createLinkedPair();
  await server.connect(serverEnd as never);
  const client = new V1Client({ name: 'tasks-v1', version: '1' });
  await client.connect(clientEnd);
  return client;
}

function create(client: V1Client, name: string, args: Record<string, unknown>, ttl?: number) {
  return client.request(
    { method: 'tools/call', params: { name, arguments: args, task: ttl === undefined ? {} : { ttl } } },
    CreateTaskResultSchema,
  );
}

async function untilStatus(client: V1Client, taskId: string, status: string) {
  for (let i = 0; i < 500; i++) {
    const task = await client.experimental.tasks.getTask(taskId);
    if (task.status === status) return task;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`task ${taskId} never reached ${status}`);
}

describe('the listing and capabilities of task tools', () => {
  it('lists execution.taskSupport after the annotations, and nothing for an ordinary tool', () => {
    const listed = jobs().listTools();
    expect(JSON.stringify(listed.slice(0, 2))).toBe(
      '[{"name":"count","description":"Counts once released","inputSchema":{"type":"object","properties":{"to":{"type":"number"}},"required":["to"],"additionalProperties":false},"execution":{"taskSupport":"optional"}},' +
        '{"name":"report","inputSchema":{"type":"object","properties":{},"additionalProperties":false},"execution":{"taskSupport":"required"}}]',
    );
    expect(JSON.stringify(listed[4])).toBe('{"name":"plain","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}');
  });

  it('declares the 2025-11-25 tasks capability on initialize, without the extension', async () => {
    const client = await v1InMemory(jobs());
    expect(client.getServerCapabilities()?.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
    expect(client.getServerCapabilities()?.extensions).toBeUndefined();
    await client.close();
  });

  it('declares the tasks extension on server/discover (2026-07-28), without the 2025 entry', async () => {
    const { client } = await v2InMemory(jobs(), true);
    const discovered = await client.request({ method: 'server/discover', params: {} }, ANY);
    const capabilities = (discovered as { capabilities: Record<string, unknown> }).capabilities;
    expect(capabilities.extensions).toEqual({ [TASKS]: {} });
    expect(capabilities.tasks).toBeUndefined();
    await client.close();
  });

  it('declares nothing of tasks when no tool runs as one', async () => {
    const server = new McpServer({ name: 'plain', version: '1' }, { logger: false }).tool('plain', {}, () => 'plain');
    const client = await v1InMemory(server);
    expect(client.getServerCapabilities()?.tasks).toBeUndefined();
    await client.close();
  });

  it("refuses a task option that is not 'optional' or 'required'", () => {
    expect(() => Tool({ task: 'always' as never })).toThrow("@Tool(): 'task' must be 'optional' or 'required'.");
  });
});

describe.each([
  ['in-process', 'memory'],
  ['over HTTP', 'http'],
] as const)('2025-11-25 tasks with the v1 client %s', (_label, over) => {
  let server: McpServer;
  let client: V1Client;
  const statuses: string[] = [];

  beforeAll(async () => {
    server = jobs();
    if (over === 'memory') client = await v1InMemory(server);
    else {
      const { url } = await server.serveHttp({ port: 0, host: '127.0.0.1' });
      client = new V1Client({ name: 'tasks-v1-http', version: '1' });
      await client.connect(new V1Http(new URL(url)));
    }
    client.setNotificationHandler(TaskStatusNotificationSchema, (n) => void statuses.push(`${n.params.taskId} ${n.params.status}`));
  });

  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it('creates a task, polls it, fetches its result, and tells its status', async () => {
    const { task } = await create(client, 'count', { to: 3 });
    expect(task.status).toBe('working');
    expect(task.ttl).toBe(5_000);
    expect(task.pollInterval).toBe(20);
    expect((await client.experimental.tasks.getTask(task.taskId)).status).toBe('working');
    await release('count 3');
    const done = await untilStatus(client, task.taskId, 'completed');
    expect(done.taskId).toBe(task.taskId);
    const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result.content).toEqual([{ type: 'text', text: 'counted to 3' }]);
    expect(result._meta).toEqual({ 'io.modelcontextprotocol/related-task': { taskId: task.taskId } });
    for (let i = 0; i < 100 && !statuses.includes(`${task.taskId} completed`); i++) await new Promise((r) => setTimeout(r, 10));
    expect(statuses).toContain(`${task.taskId} completed`);
  });

  it('waits on tasks/result until the task ends', async () => {
    const { task } = await create(client, 'count', { to: 4 });
    const pending = client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    await release('count 4');
    expect((await pending).content).toEqual([{ type: 'text', text: 'counted to 4' }]);
  });

  it('cancels a running task: its signal fires and it ends cancelled', async () => {
    const { task } = await create(client, 'count', { to: 99 });
    for (let i = 0; i < 500 && !gates.has('count 99'); i++) await new Promise((r) => setTimeout(r, 5));
    const cancelled = await client.experimental.tasks.cancelTask(task.taskId);
    expect(cancelled.status).toBe('cancelled');
    for (let i = 0; i < 100 && !aborted.includes('count 99'); i++) await new Promise((r) => setTimeout(r, 10));
    expect(aborted).toContain('count 99');
    expect((await client.experimental.tasks.getTask(task.taskId)).status).toBe('cancelled');
    const again = (await client.experimental.tasks.cancelTask(task.taskId).catch((e: unknown) => e)) as McpError;
    expect([again.code, again.message]).toEqual([
      -32602,
      'MCP error -32602: Invalid params: the task already ended; it cannot be cancelled.',
    ]);
    const payload = (await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema).catch((e: unknown) => e)) as McpError;
    expect(payload.code).toBe(-32602);
    aborted.length = 0;
    gates.delete('count 99');
  });

  it('reports a tool error result as a failed task whose result is the error', async () => {
    const { task } = await create(client, 'broken', {});
    await untilStatus(client, task.taskId, 'failed');
    const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: 'the job broke' }]);
  });

  it('lists the tasks of this connection', async () => {
    const { task } = await create(client, 'report', {});
    const { tasks } = await client.experimental.tasks.listTasks();
    expect(tasks.map((t) => t.taskId)).toContain(task.taskId);
  });

  it('drops a task once its ttl passed', async () => {
    const { task } = await create(client, 'report', {}, 1_000);
    expect(task.ttl).toBe(1_000);
    expect((await client.experimental.tasks.getTask(task.taskId)).taskId).toBe(task.taskId);
    ahead = 1_000;
    const gone = (await client.experimental.tasks.getTask(task.taskId).catch((e: unknown) => e)) as McpError;
    ahead = 0;
    expect([gone.code, gone.message]).toEqual([-32602, 'MCP error -32602: Invalid params: no such task (unknown, expired, or not yours).']);
  });

  it('caps the ttl a client asks for', async () => {
    const { task } = await create(client, 'report', {}, 3_600_000);
    expect(task.ttl).toBe(5_000);
  });

  it('refuses a required-task tool called without a task', async () => {
    const error = (await client
      .request({ method: 'tools/call', params: { name: 'report', arguments: {} } }, CallToolResultSchema)
      .catch((e: unknown) => e)) as McpError;
    expect([error.code, error.message]).toEqual([
      -32601,
      "MCP error -32601: The tool 'report' runs only as a task: call it with params.task.",
    ]);
  });

  it('runs an optional-task tool without a task as an ordinary call', async () => {
    const pending = client.request({ method: 'tools/call', params: { name: 'count', arguments: { to: 7 } } }, CallToolResultSchema);
    await release('count 7');
    expect((await pending).content).toEqual([{ type: 'text', text: 'counted to 7' }]);
  });

  it('answers an unknown task id with -32602', async () => {
    const error = (await client.experimental.tasks.getTask('nope').catch((e: unknown) => e)) as McpError;
    expect([error.code, error.message]).toEqual([
      -32602,
      'MCP error -32602: Invalid params: no such task (unknown, expired, or not yours).',
    ]);
  });
});

describe('2025-11-25 tasks between connections', () => {
  it("does not show one connection's task to another", async () => {
    const server = jobs();
    const owner = await v1InMemory(server);
    const other = await v1InMemory(server);
    const { task } = await create(owner, 'report', {});
    const error = (await other.experimental.tasks.getTask(task.taskId).catch((e: unknown) => e)) as McpError;
    expect(error.code).toBe(-32602);
    expect((await other.experimental.tasks.listTasks()).tasks).toEqual([]);
    await owner.close();
    await other.close();
    await server.close();
  });
});

// ---------------------------------------------------------------- 2026-07-28, the v2 client

/** Takes any result as it is (the custom task methods, and tools/call answered with a task). */
const ANY: StandardSchemaV1<unknown, Record<string, unknown>> = {
  '~standard': { version: 1, vendor: 'test', validate: (value) => ({ value: value as Record<string, unknown> }) },
};

/**
 * A v2 client and what its transport receives. The v2 SDK client (2.4) has no tasks extension: it refuses a
 * `tools/call` answered with `resultType: 'task'` (UnsupportedResultType), so the task is read off the wire.
 */
interface V2 {
  readonly client: V2Client;
  readonly received: Record<string, unknown>[];
}

function v2Client(declared: boolean): V2Client {
  const capabilities = declared ? ({ elicitation: {}, extensions: { [TASKS]: {} } } as never) : {};
  return new V2Client({ name: 'tasks-v2', version: '2' }, { capabilities, versionNegotiation: { mode: 'auto' } });
}

function recording(client: V2Client, transport: { onmessage?: (message: never, extra?: never) => void }): V2 {
  const received: Record<string, unknown>[] = [];
  const handler = transport.onmessage!;
  transport.onmessage = (message, extra) => {
    received.push(message as Record<string, unknown>);
    handler(message, extra);
  };
  return { client, received };
}

async function v2InMemory(server: McpServer, declared: boolean): Promise<V2> {
  const [clientEnd, serverEnd] = V2InMemory.createLinkedPair();
  await server.connect(serverEnd);
  const client = v2Client(declared);
  await client.connect(clientEnd);
  return recording(client, clientEnd as never);
}

async function v2Http(url: string, declared: boolean): Promise<V2> {
  const client = v2Client(declared);
  const transport = new V2Http(new URL(url));
  await client.connect(transport);
  return recording(client, transport as never);
}

/** Calls a task tool; resolves with the task the server answered (as the wire carried it). */
async function createTask({ client, received }: V2, name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const refused = await failure(client.request({ method: 'tools/call', params: { name, arguments: args } }, ANY));
  expect(refused.message).toBe("Unsupported result type 'task' for tools/call");
  const answer = received.reverse().find((m) => (m.result as { resultType?: string } | undefined)?.resultType === 'task');
  received.length = 0;
  return answer!.result as Record<string, unknown>;
}

const get = (client: V2Client, taskId: string) => client.request({ method: 'tasks/get', params: { taskId } }, ANY);
function failure(promise: Promise<unknown>): Promise<{ code: unknown; message: string }> {
  return promise.then(
    () => ({ code: 'none', message: 'resolved' }),
    (e: { code: number; message: string }) => ({ code: e.code, message: e.message }),
  );
}

async function untilModern(client: V2Client, taskId: string, status: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 500; i++) {
    const task = await get(client, taskId);
    if (task.status === status) return task;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`task ${taskId} never reached ${status}`);
}

describe.each([
  ['in-process', 'memory'],
  ['over HTTP', 'http'],
] as const)('2026-07-28 tasks (the tasks extension) with the v2 client %s', (_label, over) => {
  let server: McpServer;
  let declared: V2;
  let undeclared: V2;
  let client: V2Client;

  beforeAll(async () => {
    server = jobs();
    if (over === 'memory') {
      declared = await v2InMemory(server, true);
      undeclared = await v2InMemory(server, false);
    } else {
      const { url } = await server.serveHttp({ port: 0, host: '127.0.0.1' });
      declared = await v2Http(url, true);
      undeclared = await v2Http(url, false);
    }
    client = declared.client;
  });

  afterAll(async () => {
    await declared.client.close();
    await undeclared.client.close();
    await server.close();
  });

  it('answers a task tool with the task, flat; tasks/get polls it and inlines the result', async () => {
    const created = await createTask(declared, 'count', { to: 30 });
    expect(Object.keys(created).filter((k) => k !== '_meta')).toEqual([
      'resultType',
      'taskId',
      'status',
      'createdAt',
      'lastUpdatedAt',
      'ttlMs',
      'pollIntervalMs',
    ]);
    expect([created.resultType, created.status, created.ttlMs, created.pollIntervalMs]).toEqual(['task', 'working', 5_000, 20]);
    const taskId = String(created.taskId);
    expect((await get(client, taskId)).status).toBe('working');
    await release('count 30');
    const done = await untilModern(client, taskId, 'completed');
    expect(done.result).toEqual({ content: [{ type: 'text', text: 'counted to 30' }] });
    expect(done.error).toBeUndefined();
  });

  it('reports a tool error result as a completed task with result.isError', async () => {
    const created = await createTask(declared, 'broken', {});
    const done = await untilModern(client, String(created.taskId), 'completed');
    expect(done.result).toEqual({ content: [{ type: 'text', text: 'the job broke' }], isError: true });
  });

  it('cancels a running task: the ack is empty, its signal fires, tasks/get says cancelled; cancelling again is acked', async () => {
    const created = await createTask(declared, 'count', { to: 31 });
    for (let i = 0; i < 500 && !gates.has('count 31'); i++) await new Promise((r) => setTimeout(r, 5));
    const ack = await client.request({ method: 'tasks/cancel', params: { taskId: created.taskId } }, ANY);
    expect(Object.keys(ack).filter((k) => k !== '_meta' && k !== 'resultType')).toEqual([]);
    for (let i = 0; i < 100 && !aborted.includes('count 31'); i++) await new Promise((r) => setTimeout(r, 10));
    expect(aborted).toContain('count 31');
    expect((await get(client, String(created.taskId))).status).toBe('cancelled');
    const again = await client.request({ method: 'tasks/cancel', params: { taskId: created.taskId } }, ANY);
    expect(Object.keys(again).filter((k) => k !== '_meta' && k !== 'resultType')).toEqual([]);
    gates.delete('count 31');
  });

  it('parks a task that asks for input; tasks/update answers it and the tool runs again with its state', async () => {
    const created = await createTask(declared, 'confirm', { file: 'a.txt' });
    const parked = await untilModern(client, String(created.taskId), 'input_required');
    expect(parked.inputRequests).toEqual({
      ok: { method: 'elicitation/create', params: { message: 'Delete a.txt?', requestedSchema: { type: 'object', properties: {} } } },
    });
    await client.request(
      { method: 'tasks/update', params: { taskId: created.taskId, inputResponses: { ok: { action: 'accept', content: {} } } } },
      ANY,
    );
    const done = await untilModern(client, String(created.taskId), 'completed');
    expect(done.result).toEqual({ content: [{ type: 'text', text: 'deleted a.txt' }] });
  });

  it('drops a task once its ttl passed', async () => {
    const created = await createTask(declared, 'report', {});
    expect((await get(client, String(created.taskId))).taskId).toBe(created.taskId);
    ahead = 5_000;
    const gone = await failure(get(client, String(created.taskId)));
    ahead = 0;
    expect(gone).toEqual({ code: -32602, message: 'Invalid params: no such task (unknown, expired, or not yours).' });
  });

  it('answers an unknown task id with -32602', async () => {
    expect(await failure(get(client, 'nope'))).toEqual({
      code: -32602,
      message: 'Invalid params: no such task (unknown, expired, or not yours).',
    });
  });

  it('refuses the task methods and a task-only tool to a client that did not declare the extension (-32021)', async () => {
    const message = (what: string) => `${what} needs the ${TASKS} extension, which the client did not declare.`;
    const other = undeclared.client;
    expect(await failure(get(other, 'x'))).toEqual({ code: -32021, message: message('tasks/get') });
    expect(await failure(other.request({ method: 'tasks/cancel', params: { taskId: 'x' } }, ANY))).toEqual({
      code: -32021,
      message: message('tasks/cancel'),
    });
    expect(await failure(other.callTool({ name: 'report', arguments: {} }))).toEqual({
      code: -32021,
      message: message("The tool 'report'"),
    });
  });

  it('runs an optional-task tool as an ordinary call for a client that did not declare the extension', async () => {
    const pending = undeclared.client.callTool({ name: 'count', arguments: { to: 32 } });
    await release('count 32');
    expect((await pending).content).toEqual([{ type: 'text', text: 'counted to 32' }]);
  });
});

// ---------------------------------------------------------------- a store shared by two servers

describe('a task store shared by two servers (two processes of one deployment)', () => {
  it('lets one server answer for and cancel a task the other runs: the running tool hears the cancellation', async () => {
    const store = new InMemoryTaskStore(clock);
    const changes: string[] = [];
    store.watch((task) => void changes.push(task.status));
    const first = jobs(store);
    const second = jobs(store);
    const starter = await v2InMemory(first, true);
    const other = await v2InMemory(second, true);
    const created = await createTask(starter, 'count', { to: 40 });
    for (let i = 0; i < 500 && !gates.has('count 40'); i++) await new Promise((r) => setTimeout(r, 5));
    expect((await get(other.client, String(created.taskId))).status).toBe('working');
    await other.client.request({ method: 'tasks/cancel', params: { taskId: created.taskId } }, ANY);
    for (let i = 0; i < 100 && !aborted.includes('count 40'); i++) await new Promise((r) => setTimeout(r, 10));
    expect(aborted).toContain('count 40');
    expect((await get(starter.client, String(created.taskId))).status).toBe('cancelled');
    expect(changes).toEqual(['working', 'cancelled']);
    const stored = await store.get(String(created.taskId));
    expect(JSON.parse(JSON.stringify(stored))).toEqual(stored);
    gates.delete('count 40');
    await starter.client.close();
    await other.client.close();
    await first.close();
    await second.close();
  });
});
