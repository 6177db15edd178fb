import { InMemoryTaskStore, McpServer, RequestContext, Tool, type TaskRecord } from 'onemodelcontext';
import { answerOf, modernRequest } from '../support/modern-http';
import { send } from '../support/raw-http';
import { TestIssuer } from './support/issuer';

/**
 * Issue 29, tasks over real HTTP (2026-07-28) with a real issuer:
 * - a flood of 1 MiB task calls is refused past the caller's bound, and what the store keeps stays under it
 *   (before: every call was kept, 40 calls of 1 MiB grew the heap by 44 MiB for the hour);
 * - tasks running at once are bounded per caller;
 * - the owner key holds the issuer and cannot collide (before: client `app:u` + subject `42` read the task of
 *   client `app` + subject `u:42`);
 * - two concurrent `tasks/update` that both complete a task's answers run its final round once;
 * - a task record keeps of the token only `iss`, `sub` and `client_id`.
 */
jest.setTimeout(120_000);

const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} }, elicitation: {} };
let finalRounds = 0;
const holds: (() => void)[] = [];

class Jobs {
  @Tool({ description: 'Keeps a payload.', task: 'required', scopes: [] })
  async keep(payload: string, signal: AbortSignal): Promise<string> {
    await new Promise<void>((resolve) => {
      holds.push(resolve);
      signal.addEventListener('abort', () => resolve(), { once: true });
    });
    return `kept ${payload.length}`;
  }

  @Tool({ description: 'Asks, then acts once.', task: 'required', scopes: [] })
  confirm(ctx: RequestContext): string {
    if (ctx.inputResponse('ok') === undefined) {
      ctx.requireInput({
        ok: { method: 'elicitation/create', params: { message: 'Sure?', requestedSchema: { type: 'object', properties: {} } } },
      });
    }
    finalRounds++;
    return 'done';
  }

  @Tool({ description: 'Says who called, as the task sees it.', task: 'required', scopes: [] })
  whoami(ctx: RequestContext): string {
    return JSON.stringify(ctx.auth);
  }
}

const MiB = 1024 * 1024;
const now = () => Math.floor(Date.now() / 1000);

let issuer: TestIssuer;
let store: InMemoryTaskStore;
let server: McpServer;
let url: string;

beforeAll(async () => {
  issuer = await TestIssuer.start([{ client_id: 'app', client_secret: 'app-secret-0123456789', scope: 'mcp' }]);
  store = new InMemoryTaskStore();
  server = new McpServer(
    { name: 'jobs', version: '1.0.0' },
    { logger: false, taskStore: store, tasks: { perCaller: { storedBytes: 4 * MiB, running: 3 }, pollIntervalMs: 20 } },
  ).add(new Jobs());
  ({ url } = await server.serveHttp({ port: 0, auth: { issuer: issuer.url, scopes: ['mcp'] }, maxRequestBodySize: 2 * MiB }));
});

afterAll(async () => {
  await server?.close();
  await issuer?.stop();
});

afterEach(() => {
  for (const release of holds.splice(0)) release();
});

function tokenOf(sub: string, clientId: string, extra: Record<string, unknown> = {}): Promise<string> {
  return issuer.sign({ iss: issuer.url, aud: url, sub, client_id: clientId, scope: 'mcp', iat: now(), exp: now() + 300, ...extra });
}

async function call(token: string, name: string, args: Record<string, unknown>) {
  return answerOf(await modernRequest(url, 'tools/call', { name, arguments: args }, { token, capabilities: TASKS }));
}

async function taskMethod(token: string, method: string, params: Record<string, unknown>) {
  return answerOf(await modernRequest(url, method, params, { token, capabilities: TASKS }));
}

async function until(token: string, taskId: string, status: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 500; i++) {
    const task = (await taskMethod(token, 'tasks/get', { taskId })).result;
    if (task?.status === status) return task;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`task ${taskId} never reached ${status}`);
}

const ownerOf = (sub: string, clientId: string) => JSON.stringify([issuer.url, sub, clientId]);
const storedBytes = (tasks: readonly TaskRecord[]) => tasks.reduce((sum, t) => sum + Buffer.byteLength(JSON.stringify(t)), 0);

describe('a task flood', () => {
  it("is refused past the caller's stored bytes, and the store keeps no more than the bound", async () => {
    const token = await tokenOf('flooder', 'app');
    const payload = 'x'.repeat(MiB);
    const answers = [];
    for (let i = 0; i < 40; i++) answers.push(await call(token, 'keep', { payload }));
    const created = answers.filter((a) => a.result?.resultType === 'task');
    const refused = answers.filter((a) => a.error !== undefined);
    expect([created.length, refused.length]).toEqual([3, 37]);
    const kept = await store.list(ownerOf('flooder', 'app'));
    // Every record of the flood has the same length (same payload, fixed-length ids and times).
    const each = storedBytes(kept) / 3;
    expect(refused[0].error).toEqual({
      code: -32000,
      message: `Too much task data: this caller keeps ${storedBytes(kept)} bytes of tasks and this one needs ${each}, past the ${4 * MiB} allowed. Try again later.`,
      data: { limit: 'perCaller.storedBytes' },
    });
    expect(kept.length).toBe(3);
    expect(storedBytes(kept)).toBeLessThanOrEqual(4 * MiB);
  });

  it('bounds the tasks one caller runs at once, and leaves other callers their own bound', async () => {
    const token = await tokenOf('runner', 'app');
    const first = [
      await call(token, 'keep', { payload: 'a' }),
      await call(token, 'keep', { payload: 'b' }),
      await call(token, 'keep', { payload: 'c' }),
    ];
    expect(first.map((a) => a.result?.status)).toEqual(['working', 'working', 'working']);
    const fourth = await call(token, 'keep', { payload: 'd' });
    expect(fourth.error).toEqual({
      code: -32000,
      message: 'Too many tasks running: this caller runs 3, the most allowed at once. Try again when one ends.',
      data: { limit: 'perCaller.running' },
    });
    expect((await call(await tokenOf('someone-else', 'app'), 'keep', { payload: 'e' })).result?.status).toBe('working');
    // One ends: the caller may start another.
    holds.shift()!();
    await until(token, String(first[0].result!.taskId), 'completed');
    expect((await call(token, 'keep', { payload: 'f' })).result?.status).toBe('working');
  });
});

describe('the owner key', () => {
  it("does not let client 'app:u' with subject '42' read the task of client 'app' with subject 'u:42'", async () => {
    const victim = await tokenOf('u:42', 'app');
    const created = await call(victim, 'whoami', {});
    const taskId = String(created.result!.taskId);
    await until(victim, taskId, 'completed');
    const other = await tokenOf('42', 'app:u');
    expect((await taskMethod(other, 'tasks/get', { taskId })).error).toEqual({
      code: -32602,
      message: 'Invalid params: no such task (unknown, expired, or not yours).',
    });
    expect((await store.get(taskId))?.owner).toBe(JSON.stringify([issuer.url, 'u:42', 'app']));
  });

  it('does not let the same subject and client from another issuer read the task', async () => {
    const token = await tokenOf('alice', 'app');
    const taskId = String((await call(token, 'whoami', {})).result!.taskId);
    const record = await store.get(taskId);
    expect(record?.owner).toBe(ownerOf('alice', 'app'));
    expect(record?.owner).not.toBe(JSON.stringify(['https://other.example', 'alice', 'app']));
  });
});

describe('what a task keeps of its caller', () => {
  it("keeps only iss, sub and client_id of the token's claims, and the tool sees the same", async () => {
    const token = await tokenOf('carol', 'app', { email: 'carol@example.com', groups: ['admins'] });
    const taskId = String((await call(token, 'whoami', {})).result!.taskId);
    const done = await until(token, taskId, 'completed');
    const claims = { iss: issuer.url, sub: 'carol', client_id: 'app' };
    expect((await store.get(taskId))?.caller.auth?.claims).toEqual(claims);
    const seen = JSON.parse((done.result as { content: { text: string }[] }).content[0].text) as { claims: unknown };
    expect(seen.claims).toEqual(claims);
  });
});

describe('tasks/update', () => {
  it('runs the final round once when two concurrent updates both complete the answers', async () => {
    const token = await tokenOf('dave', 'app');
    const taskId = String((await call(token, 'confirm', {})).result!.taskId);
    await until(token, taskId, 'input_required');
    finalRounds = 0;
    const answer = { taskId, inputResponses: { ok: { action: 'accept', content: {} } } };
    const acks = await Promise.all([taskMethod(token, 'tasks/update', answer), taskMethod(token, 'tasks/update', answer)]);
    expect(acks.map((a) => a.error)).toEqual([undefined, undefined]);
    await until(token, taskId, 'completed');
    expect(finalRounds).toBe(1);
  });
});

describe('task quotas count against the caller, not its sessions (issue 37)', () => {
  let open: McpServer;
  let openUrl: string;
  const released: (() => void)[] = [];

  class Held {
    @Tool({ description: 'Runs until released.', task: 'required' })
    async hold(signal: AbortSignal): Promise<string> {
      await new Promise<void>((resolve) => {
        released.push(resolve);
        signal.addEventListener('abort', () => resolve(), { once: true });
      });
      return 'released';
    }
  }

  beforeAll(async () => {
    open = new McpServer({ name: 'open', version: '1.0.0' }, { logger: false, tasks: { perCaller: { tasks: 2 } } }).add(new Held());
    ({ url: openUrl } = await open.serveHttp({ port: 0, trustedProxies: 1 }));
  });

  afterAll(async () => {
    for (const release of released.splice(0)) release();
    await open?.close();
  });

  const LEGACY = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-11-25',
  };
  /** A 2025-era session opened from `address` (as the trusted proxy reports it). */
  async function sessionFrom(address: string): Promise<string> {
    const headers = { ...LEGACY, 'x-forwarded-for': address };
    const init = await send(
      openUrl,
      'POST',
      headers,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    );
    const sessionId = String(init.headers['mcp-session-id']);
    await send(
      openUrl,
      'POST',
      { ...headers, 'mcp-session-id': sessionId },
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    );
    return sessionId;
  }
  /** The JSON-RPC answer of a 2025-era reply: JSON, or the SSE event after the (empty) priming one. */
  const legacyAnswerOf = (reply: { body: string }) => {
    const data = reply.body.trimStart().startsWith('{')
      ? reply.body
      : reply.body
          .split('\n')
          .find((l) => l.startsWith('data: {'))!
          .slice(6);
    return JSON.parse(data) as { result?: Record<string, unknown>; error?: unknown };
  };
  const legacyTask = async (address: string, sessionId: string) =>
    legacyAnswerOf(
      await send(
        openUrl,
        'POST',
        { ...LEGACY, 'x-forwarded-for': address, 'mcp-session-id': sessionId },
        JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'hold', arguments: {}, task: {} } }),
      ),
    );
  const modernTask = async (address: string) =>
    answerOf(
      await modernRequest(
        openUrl,
        'tools/call',
        { name: 'hold', arguments: {} },
        { capabilities: TASKS, headers: { 'x-forwarded-for': address } },
      ),
    );
  const REFUSED = {
    code: -32000,
    message: 'Too many tasks: this caller keeps 2, the most allowed; a task is kept until its ttl passes. Try again later.',
    data: { limit: 'perCaller.tasks' },
  };

  it('a 2025-era client that opens more sessions gets no more tasks; another address still gets its own', async () => {
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await legacyTask('198.51.100.7', await sessionFrom('198.51.100.7')));
    expect(answers.map((a) => (a.result?.task as { status?: string } | undefined)?.status ?? a.error)).toEqual([
      'working',
      'working',
      REFUSED,
    ]);
    const other = await legacyTask('198.51.100.8', await sessionFrom('198.51.100.8'));
    expect((other.result?.task as { status?: string }).status).toBe('working');
  });

  it('anonymous 2026-07-28 callers are counted by address, not as one', async () => {
    const first = [await modernTask('203.0.113.1'), await modernTask('203.0.113.1'), await modernTask('203.0.113.1')];
    expect(first.map((a) => a.result?.status ?? a.error)).toEqual(['working', 'working', REFUSED]);
    expect((await modernTask('203.0.113.2')).result?.status).toBe('working');
  });

  it('refuses, at start-up, a per-caller share that reaches the total', () => {
    expect(() => new McpServer({ name: 'x', version: '1' }, { tasks: { perCaller: { tasks: 50 }, total: { tasks: 50 } } })).toThrow(
      new TypeError(
        'tasks.perCaller.tasks (50) must be below tasks.total.tasks (50): one caller could hold everything and block every other caller. Lower perCaller.tasks or raise total.tasks.',
      ),
    );
  });
});
