import { ensureBuilt } from './support/build';
import { startInstance, startRedis, type Instance, type Redis } from './support/cluster';
import { eventsOf } from '../support/raw-http';
import { modernRequest } from '../support/modern-http';

/**
 * A task whose runner died: two instances of the cluster fixture share a real Redis with a short runner lease;
 * the instance running a task is killed with SIGKILL (no shutdown of any kind), and the other instance, reading
 * the task, records it failed once the lease has lapsed, while a task the living instance runs stays working.
 */
jest.setTimeout(60_000);

beforeAll(() => ensureBuilt(), 300_000);

const LEASE_MS = 1_500;
const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

let redis: Redis;
let doomed: Instance;
let survivor: Instance;

beforeAll(async () => {
  redis = await startRedis();
  const env = { REDIS_URL: redis.url, TASK_RUNNER_LEASE_MS: String(LEASE_MS) };
  [doomed, survivor] = await Promise.all([startInstance('a', env), startInstance('b', env)]);
}, 120_000);

afterAll(async () => {
  await Promise.all([doomed?.stop('SIGKILL'), survivor?.stop('SIGKILL')]);
  await redis?.stop();
});

async function request(instance: Instance, method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
  const reply = await modernRequest(`http://127.0.0.1:${instance.port}/mcp`, method, params, { capabilities: TASKS });
  const json = reply.body.trimStart().startsWith('{')
    ? (JSON.parse(reply.body) as Record<string, unknown>)
    : eventsOf(reply.body).at(-1)!.data;
  if (json.error) throw new Error(`${method}: ${JSON.stringify(json.error)}`);
  return json.result as Record<string, unknown>;
}

async function started(instance: Instance, name: string): Promise<string> {
  const task = await request(instance, 'tools/call', { name: 'vigil', arguments: { name } });
  expect(task).toMatchObject({ resultType: 'task', status: 'working' });
  while (!instance.output().includes(`vigil ${name} started on ${instance.name}`)) await new Promise((r) => setTimeout(r, 10));
  return String(task.taskId);
}

it("fails a task whose instance was killed once its lease lapses, and keeps the living instance's task working", async () => {
  const orphan = await started(doomed, 'orphan');
  const kept = await started(survivor, 'kept');
  expect(await request(survivor, 'tasks/get', { taskId: orphan })).toMatchObject({ taskId: orphan, status: 'working' });

  await doomed.stop('SIGKILL');
  // Read through the living instance until the orphan reads failed: only the jest timeout bounds the wait.
  let orphanNow: Record<string, unknown>;
  do {
    await new Promise((r) => setTimeout(r, 50));
    orphanNow = await request(survivor, 'tasks/get', { taskId: orphan });
  } while (orphanNow.status === 'working');
  const gone = 'The server running the task stopped before the task ended.';
  expect(orphanNow).toMatchObject({ taskId: orphan, status: 'failed', statusMessage: gone, error: { code: -32603, message: gone } });
  expect(survivor.output()).toContain(`tasks: task ${orphan} was recorded failed: the instance running it stopped renewing its lease.`);

  // The living instance's task reads working at every poll until it is two leases old: its lease is renewed.
  for (;;) {
    const keptNow = await request(survivor, 'tasks/get', { taskId: kept });
    expect(keptNow).toMatchObject({ taskId: kept, status: 'working' });
    if (Date.now() - Date.parse(String(keptNow.createdAt)) > 2 * LEASE_MS) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await request(survivor, 'tasks/cancel', { taskId: kept });
  while (!survivor.output().includes('vigil kept cancelled on b')) await new Promise((r) => setTimeout(r, 10));
});
