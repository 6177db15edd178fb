import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpServer, Tool, type AuthorizeItem } from 'onemodelcontext';
import { answerOf, modernRequest } from '../support/modern-http';
import { TestIssuer } from './support/issuer';

/**
 * `auth.authorize` on the task methods, against a real issuer (oidc-provider) over real HTTP. Before, a caller's
 * tasks stayed listed, readable and cancellable after the policy came to refuse it their tool. Now a task whose tool
 * the policy refuses the caller is answered as an unknown task by `tasks/get`, `tasks/result`, `tasks/cancel` (and
 * 2026-07-28's `tasks/update`) and left out of `tasks/list`; the refusal is logged; allowed again, it is back.
 * 2025-11-25 with the real v1 client and its task API; 2026-07-28 with raw requests (the tasks extension).
 */
jest.setTimeout(120_000);

class Reports {
  @Tool({ description: 'Builds a report.', task: 'required', returns: String, scopes: [] })
  async report(): Promise<string> {
    return 'report ready';
  }
}

/** The subjects the policy refuses the `report` tool, changed while their tasks exist. */
const refused = new Set<string>();
function authorize(caller: { claims: Readonly<Record<string, unknown>> } | undefined, item: AuthorizeItem): boolean {
  return item.kind !== 'tool' || item.name !== 'report' || !refused.has(String(caller?.claims.sub));
}

const UNKNOWN = 'Invalid params: no such task (unknown, expired, or not yours).';
const now = () => Math.floor(Date.now() / 1000);
let issuer: TestIssuer;
let server: McpServer;
let url: string;
const warnings: string[] = [];

beforeAll(async () => {
  issuer = await TestIssuer.start([{ client_id: 'app', client_secret: 'app-secret-0123456789', scope: 'mcp' }]);
  const logger = { error: () => {}, warn: (message: string) => void warnings.push(message), info: () => {}, debug: () => {} };
  server = new McpServer({ name: 'reports', version: '1.0.0' }, { logger, tasks: { pollIntervalMs: 20 } }).add(new Reports());
  ({ url } = await server.serveHttp({ port: 0, auth: { issuer: issuer.url, scopes: ['mcp'], authorize } }));
});

afterAll(async () => {
  await server?.close();
  await issuer?.stop();
});

afterEach(() => {
  refused.clear();
  warnings.length = 0;
});

function tokenOf(sub: string): Promise<string> {
  return issuer.sign({ iss: issuer.url, aud: url, sub, client_id: 'app', scope: 'mcp', iat: now(), exp: now() + 300 });
}

/** The error a request failed with, or `'resolved'`. */
function failure(promise: Promise<unknown>): Promise<{ code: unknown; message: string } | 'resolved'> {
  return promise.then(
    () => 'resolved' as const,
    (e: { code: number; message: string }) => ({ code: e.code, message: e.message }),
  );
}

describe('2025-11-25 task methods with auth.authorize (v1 client)', () => {
  async function connected(sub: string): Promise<V1Client> {
    const client = new V1Client({ name: `tasks-${sub}`, version: '1' });
    await client.connect(new V1Http(new URL(url), { requestInit: { headers: { authorization: `Bearer ${await tokenOf(sub)}` } } }));
    return client;
  }

  async function completedTask(client: V1Client): Promise<string> {
    const { task } = await client.request(
      { method: 'tools/call', params: { name: 'report', arguments: {}, task: {} } },
      CreateTaskResultSchema,
    );
    for (let i = 0; i < 500 && (await client.experimental.tasks.getTask(task.taskId)).status !== 'completed'; i++)
      await new Promise((r) => setTimeout(r, 10));
    return task.taskId;
  }

  it('hides a task whose tool the policy now refuses from tasks/list, get, result and cancel, and shows it again once allowed', async () => {
    const alice = await connected('alice');
    try {
      const taskId = await completedTask(alice);
      const tasks = alice.experimental.tasks;
      expect((await tasks.listTasks()).tasks.map((t) => [t.taskId, t.status])).toEqual([[taskId, 'completed']]);
      expect(JSON.stringify(await tasks.getTaskResult(taskId, CallToolResultSchema))).toContain('report ready');

      refused.add('alice');
      expect((await tasks.listTasks()).tasks).toEqual([]);
      const unknown = { code: -32602, message: `MCP error -32602: ${UNKNOWN}` };
      expect(await failure(tasks.getTask(taskId))).toEqual(unknown);
      expect(await failure(tasks.getTaskResult(taskId, CallToolResultSchema))).toEqual(unknown);
      expect(await failure(tasks.cancelTask(taskId))).toEqual(unknown);
      // The same answer as for a task that does not exist.
      expect(await failure(tasks.getTask('no-such-task'))).toEqual(unknown);
      expect(warnings.filter((w) => w.includes("the tool 'report'")).length).toBe(4);
      expect(warnings[0]).toMatch(
        /^auth\.authorize refused client 'app' \(subject 'alice'\) the tool 'report'; answered as an unknown tool/,
      );

      refused.delete('alice');
      expect((await tasks.listTasks()).tasks.map((t) => t.taskId)).toEqual([taskId]);
      expect((await tasks.getTask(taskId)).status).toBe('completed');
    } finally {
      await alice.close();
    }
  });
});

describe('2026-07-28 task methods with auth.authorize (tasks extension)', () => {
  const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

  it('answers tasks/get, tasks/update and tasks/cancel of a refused task as an unknown task', async () => {
    const token = await tokenOf('bob');
    const created = answerOf(await modernRequest(url, 'tools/call', { name: 'report', arguments: {} }, { token, capabilities: TASKS }));
    const taskId = String(created.result!.taskId);
    const get = async () => answerOf(await modernRequest(url, 'tasks/get', { taskId }, { token, capabilities: TASKS }));
    expect((await get()).result!.taskId).toBe(taskId);

    refused.add('bob');
    const unknown = { code: -32602, message: UNKNOWN };
    expect((await get()).error).toEqual(unknown);
    expect(answerOf(await modernRequest(url, 'tasks/cancel', { taskId }, { token, capabilities: TASKS })).error).toEqual(unknown);
    const update = await modernRequest(
      url,
      'tasks/update',
      { taskId, inputResponses: { ok: { action: 'accept', content: {} } } },
      { token, capabilities: TASKS },
    );
    expect(answerOf(update).error).toEqual(unknown);
    expect(warnings.some((w) => w.startsWith("auth.authorize refused client 'app' (subject 'bob') the tool 'report'"))).toBe(true);

    refused.delete('bob');
    expect((await get()).result!.taskId).toBe(taskId);
  });
});
