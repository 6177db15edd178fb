import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport as V1InMemory } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolResultSchema, CreateTaskResultSchema, McpError, TaskStatusNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryTaskStore, McpServer, Tool } from '../../src';
import { connected } from './support';

/**
 * Long-running tools as tasks (2025-11-25), with the v1 SDK client's own task API, in-process and over HTTP:
 * a task created, polled, its result fetched; another cancelled (its AbortSignal fires); an expired one gone;
 * status notifications; the listing's execution.taskSupport.
 */
jest.setTimeout(60_000);

const aborted: string[] = [];

class Jobs {
  @Tool({ description: 'Counts after a pause', task: 'optional' })
  async count(to: number, pauseMs: number, signal: AbortSignal): Promise<string> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, pauseMs);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        aborted.push(`count ${to}`);
        resolve();
      });
    });
    return `counted to ${to}`;
  }

  @Tool({ task: 'required' })
  async report(): Promise<string> {
    return 'report ready';
  }

  @Tool()
  plain(): string {
    return 'plain';
  }
}

const jobs = (ttlMs?: number) => new McpServer({ name: 'jobs', version: '1' }, { taskStore: new InMemoryTaskStore(), tasks: ttlMs === undefined ? {} : { maxTtlMs: ttlMs, pollIntervalMs: 20 } }).add(new Jobs());

async function v1InMemory(server: McpServer): Promise<V1Client> {
  const [clientEnd, serverEnd] = V1InMemory.createLinkedPair();
  await server.connect(serverEnd as never);
  const client = new V1Client({ name: 'tasks-v1', version: '1' });
  await client.connect(clientEnd);
  return client;
}

function create(client: V1Client, name: string, args: Record<string, unknown>, ttl?: number) {
  return client.request({ method: 'tools/call', params: { name, arguments: args, task: ttl === undefined ? {} : { ttl } } }, CreateTaskResultSchema);
}

async function untilStatus(client: V1Client, taskId: string, status: string) {
  for (let i = 0; i < 500; i++) {
    const task = await client.experimental.tasks.getTask(taskId);
    if (task.status === status) return task;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`task ${taskId} never reached ${status}`);
}

describe('the listing of task tools', () => {
  it('carries execution.taskSupport after the annotations', () => {
    expect(JSON.stringify(jobs().listTools())).toBe(
      '[{"name":"count","description":"Counts after a pause","inputSchema":{"type":"object","properties":{"to":{"type":"number"},"pauseMs":{"type":"number"}},"required":["to","pauseMs"],"additionalProperties":false},"execution":{"taskSupport":"optional"}},' +
        '{"name":"report","inputSchema":{"type":"object","properties":{},"additionalProperties":false},"execution":{"taskSupport":"required"}},' +
        '{"name":"plain","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}]',
    );
  });

  it('declares the tasks capability for tool calls, list and cancel', async () => {
    const client = await v1InMemory(jobs());
    expect(client.getServerCapabilities()?.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
  });

  it('refuses a task option that is not optional or required', () => {
    expect(() => Tool({ task: 'always' as never })).toThrow("@Tool(): 'task' must be 'optional' or 'required'.");
  });
});

describe.each([
  ['in-process', 'memory'],
  ['over HTTP', 'http'],
] as const)('tasks with the v1 client %s', (_label, over) => {
  let server: McpServer;
  let client: V1Client;
  const statuses: string[] = [];

  beforeAll(async () => {
    server = jobs(5_000);
    if (over === 'memory') client = await v1InMemory(server);
    else {
      const { url } = await server.serveHttp({ port: 0 });
      client = new V1Client({ name: 'tasks-v1-http', version: '1' });
      await client.connect(new V1Http(new URL(url)));
    }
    client.setNotificationHandler(TaskStatusNotificationSchema, (n) => void statuses.push(`${n.params.taskId} ${n.params.status}`));
  });

  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it('creates a task, polls it, and fetches its result', async () => {
    const { task } = await create(client, 'count', { to: 3, pauseMs: 30 });
    expect(task.status).toBe('working');
    expect(task.ttl).toBe(5_000);
    expect(task.pollInterval).toBe(20);
    const done = await untilStatus(client, task.taskId, 'completed');
    expect(done.taskId).toBe(task.taskId);
    const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result.content).toEqual([{ type: 'text', text: 'counted to 3' }]);
    expect(result._meta).toEqual({ 'io.modelcontextprotocol/related-task': { taskId: task.taskId } });
    for (let i = 0; i < 100 && !statuses.includes(`${task.taskId} completed`); i++) await new Promise((r) => setTimeout(r, 10));
    expect(statuses).toContain(`${task.taskId} completed`);
  });

  it('waits on tasks/result until the task ends', async () => {
    const { task } = await create(client, 'count', { to: 4, pauseMs: 50 });
    const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result.content).toEqual([{ type: 'text', text: 'counted to 4' }]);
  });

  it('cancels a running task: its signal fires and it ends cancelled', async () => {
    const { task } = await create(client, 'count', { to: 99, pauseMs: 60_000 });
    const cancelled = await client.experimental.tasks.cancelTask(task.taskId);
    expect(cancelled.status).toBe('cancelled');
    for (let i = 0; i < 100 && !aborted.includes('count 99'); i++) await new Promise((r) => setTimeout(r, 10));
    expect(aborted).toContain('count 99');
    expect((await client.experimental.tasks.getTask(task.taskId)).status).toBe('cancelled');
    const again = await client.experimental.tasks.cancelTask(task.taskId).catch((e: unknown) => e);
    expect((again as McpError).code).toBe(-32602);
    const payload = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema).catch((e: unknown) => e);
    expect((payload as McpError).code).toBe(-32602);
  });

  it('lists the tasks of this connection', async () => {
    const { task } = await create(client, 'count', { to: 5, pauseMs: 0 });
    const { tasks } = await client.experimental.tasks.listTasks();
    expect(tasks.map((t) => t.taskId)).toContain(task.taskId);
  });

  it('drops a task once its ttl passed', async () => {
    const { task } = await create(client, 'count', { to: 6, pauseMs: 0 }, 1_000);
    expect(task.ttl).toBe(1_000);
    expect((await client.experimental.tasks.getTask(task.taskId)).taskId).toBe(task.taskId);
    await new Promise((r) => setTimeout(r, 1_200));
    const gone = await client.experimental.tasks.getTask(task.taskId).catch((e: unknown) => e);
    expect((gone as McpError).code).toBe(-32602);
    expect((gone as McpError).message).toContain('no such task (unknown, expired, or not yours)');
  });

  it('caps the ttl a client asks for', async () => {
    const { task } = await create(client, 'count', { to: 8, pauseMs: 0 }, 3_600_000);
    expect(task.ttl).toBe(5_000);
  });

  it('refuses a required-task tool called without a task', async () => {
    const error = await client.request({ method: 'tools/call', params: { name: 'report', arguments: {} } }, CallToolResultSchema).catch((e: unknown) => e);
    expect((error as McpError).code).toBe(-32601);
    expect((error as McpError).message).toContain("The tool 'report' runs only as a task");
  });

  it('runs an optional-task tool without a task as an ordinary call', async () => {
    const result = await client.request({ method: 'tools/call', params: { name: 'count', arguments: { to: 7, pauseMs: 0 } } }, CallToolResultSchema);
    expect(result.content).toEqual([{ type: 'text', text: 'counted to 7' }]);
  });

  it('answers an unknown task id with -32602', async () => {
    const error = await client.experimental.tasks.getTask('nope').catch((e: unknown) => e);
    expect((error as McpError).code).toBe(-32602);
  });
});

describe('tasks between connections', () => {
  it("does not show one connection's task to another", async () => {
    const server = jobs();
    const owner = await v1InMemory(server);
    const other = await v1InMemory(server);
    const { task } = await create(owner, 'count', { to: 1, pauseMs: 0 });
    const error = await other.experimental.tasks.getTask(task.taskId).catch((e: unknown) => e);
    expect((error as McpError).code).toBe(-32602);
    expect((await other.experimental.tasks.listTasks()).tasks).toEqual([]);
  });

  it('runs a task tool as an ordinary call for a 2026-07-28 client', async () => {
    const { client } = await connected(jobs(), 'auto');
    expect((await client.callTool({ name: 'report', arguments: {} })).content).toEqual([{ type: 'text', text: 'report ready' }]);
  });
});
