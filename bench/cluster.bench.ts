import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { executable, startBalancer, startRedis } from '../test/e2e/support/cluster';
import {
  InMemoryEventStore,
  InMemoryServerEventBus,
  InMemoryTaskStore,
  type EventStore,
  type ServerEventBus,
  type TaskRecord,
  type TaskStore,
} from '../src';
import { connectRedis } from '../src/redis';
import { validOrder } from './order';

/**
 * Issue 17: throughput of one versus three instances behind nginx on this machine, with 2026-07-28 tools/call
 * requests (stateless, so round robin spreads them), a fixed number of concurrent requests for a fixed time.
 * Every process shares the machine's cores with the load generator and nginx, so the ratio says what
 * running more processes buys here, not on a machine with a core per instance. Then what each store shared
 * through Redis costs: a 2025-era call with the SSE event store in memory and in Redis (a lone reply is answered
 * as JSON and never stored, so the two are level), what storing one SSE event costs in each (what a call answered
 * on a stream, a notification on the GET stream, pays per event), and the event bus per published event
 * (publish on one instance, heard on another).
 */

const CONCURRENCY = 32;
const WARM_MS = 1500;
const MEASURE_MS = 4000;

const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

function startInstance(route: string, env: NodeJS.ProcessEnv = {}): Promise<{ port: number; child: ChildProcess }> {
  const child = spawn(process.execPath, [join(__dirname, 'fixtures', 'http-instance.js'), route], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  children.add(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d;
      const match = /listening (\d+)/.exec(out);
      if (match) resolve({ port: Number(match[1]), child });
    });
    child.once('exit', (code) => reject(new Error(`instance ${route} exited with ${code}`)));
  });
}

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** Requests per second for MEASURE_MS after WARM_MS, CONCURRENCY requests in flight at all times. */
async function throughput(port: number): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'place_order', arguments: validOrder(), _meta: META },
  });
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'tools/call',
    'mcp-name': 'place_order',
    host: `127.0.0.1:${port}`,
  };
  const call = () =>
    new Promise<void>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', agent, headers }, (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d));
        res.on('end', () =>
          res.statusCode === 200 && text.includes('"result"') && !text.includes('"isError":true')
            ? resolve()
            : reject(new Error(`${res.statusCode} ${text.slice(0, 300)}`)),
        );
      });
      req.once('error', reject);
      req.end(body);
    });
  const start = performance.now();
  let counted = 0;
  let measuring = false;
  const worker = async () => {
    while (performance.now() - start < WARM_MS + MEASURE_MS) {
      await call();
      if (measuring) counted++;
    }
  };
  setTimeout(() => (measuring = true), WARM_MS);
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  agent.destroy();
  return counted / (MEASURE_MS / 1000);
}

async function cluster(size: number): Promise<number> {
  const routes = ['a', 'b', 'c', 'd'].slice(0, size);
  const instances = await Promise.all(routes.map((route) => startInstance(route)));
  const balancer = await startBalancer(instances.map((i, n) => ({ route: routes[n], port: i.port })));
  try {
    return await throughput(balancer.port);
  } finally {
    await balancer.stop();
    for (const { child } of instances) child.kill('SIGKILL');
  }
}

function post(
  port: number,
  agent: Agent,
  headers: Record<string, string>,
  body: unknown,
): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: '/mcp', method: 'POST', agent, headers: { host: `127.0.0.1:${port}`, ...headers } },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.once('error', reject);
    req.end(JSON.stringify(body));
  });
}

const LEGACY = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };

/** Mean microseconds of one 2025-era session's tools/call (a lone reply: answered as JSON, nothing stored), one at a time. */
async function legacyCallMicros(port: number, calls: number): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const init = await post(port, agent, LEGACY, {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
  });
  const headers = { ...LEGACY, 'mcp-session-id': String(init.headers['mcp-session-id']) };
  await post(port, agent, headers, { jsonrpc: '2.0', method: 'notifications/initialized' });
  const once = async (id: number) => {
    const answer = await post(port, agent, headers, {
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'place_order', arguments: validOrder() },
    });
    if (answer.status !== 200 || !answer.text.includes('"result"')) throw new Error(`${answer.status} ${answer.text.slice(0, 300)}`);
  };
  for (let i = 0; i < 200; i++) await once(i + 1);
  const start = performance.now();
  for (let i = 0; i < calls; i++) await once(1000 + i);
  const micros = ((performance.now() - start) * 1000) / calls;
  agent.destroy();
  return micros;
}

/** Mean microseconds to store one SSE event (a tools/call result) in `store`, one at a time. */
async function storeEventMicros(store: EventStore, events: number): Promise<number> {
  const message = { jsonrpc: '2.0' as const, id: 1, result: { content: [{ type: 'text', text: 'Order 42 placed: 3 items.' }] } };
  for (let i = 0; i < 200; i++) await store.storeEvent('bench-warm', message);
  const start = performance.now();
  for (let i = 0; i < events; i++) await store.storeEvent('bench-stream', message);
  return ((performance.now() - start) * 1000) / events;
}

/** Mean microseconds from `publish` on one bus to delivery on another (a listener of another instance). */
async function busMicros(publisher: ServerEventBus, listener: ServerEventBus, events: number): Promise<number> {
  let heard!: () => void;
  const unsubscribe = listener.subscribe(() => heard());
  const once = () =>
    new Promise<void>((resolve) => {
      heard = resolve;
      publisher.publish({ kind: 'resource_updated', uri: 'bench://x' });
    });
  for (let i = 0; i < 200; i++) await once();
  const start = performance.now();
  for (let i = 0; i < events; i++) await once();
  const micros = ((performance.now() - start) * 1000) / events;
  unsubscribe();
  return micros;
}

/** Mean microseconds of one task's store traffic as a task tool makes it: create, one poll, complete. */
async function taskMicros(store: TaskStore, tasks: number): Promise<number> {
  const once = async (i: number) => {
    const now = new Date().toISOString();
    const taskId = `bench-${i}-${Math.random()}`;
    const task: TaskRecord = {
      taskId,
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttl: 60_000,
      owner: 'bench',
      call: { name: 'place_order', arguments: validOrder() },
      caller: {} as TaskRecord['caller'],
    };
    await store.create(task);
    await store.get(taskId);
    await store.update(taskId, { status: 'completed', result: { content: [{ type: 'text', text: 'ok' }] } });
  };
  for (let i = 0; i < 200; i++) await once(i);
  const start = performance.now();
  for (let i = 0; i < tasks; i++) await once(1000 + i);
  return ((performance.now() - start) * 1000) / tasks;
}

async function sharedStoreCosts(): Promise<void> {
  const redis = await startRedis();
  try {
    const memory = await startInstance('m');
    const shared = await startInstance('r', { REDIS_URL: redis.url });
    const inMemory = await legacyCallMicros(memory.port, 2000);
    const inRedis = await legacyCallMicros(shared.port, 2000);
    memory.child.kill('SIGKILL');
    shared.child.kill('SIGKILL');

    const local = new InMemoryServerEventBus();
    const local2 = await busMicros(local, local, 5000);
    const a = await connectRedis({ client: new Redis(redis.url, { lazyConnect: true }), prefix: 'bench:', logger: false });
    const b = await connectRedis({ client: new Redis(redis.url, { lazyConnect: true }), prefix: 'bench:', logger: false });
    const crossing = await busMicros(a.eventBus, b.eventBus, 2000);
    const eventInMemory = await storeEventMicros(new InMemoryEventStore(), 5000);
    const eventInRedis = await storeEventMicros(a.eventStore, 2000);
    const taskInMemory = await taskMicros(new InMemoryTaskStore(), 2000);
    const taskInRedis = await taskMicros(a.taskStore, 2000);
    await a.close();
    await b.close();

    console.log('\nWhat each store shared through Redis costs (one at a time, means)');
    console.log(`  2025-era tools/call (JSON), in-memory event store ${inMemory.toFixed(0).padStart(7)} µs`);
    console.log(
      `  2025-era tools/call (JSON), Redis event store    ${inRedis.toFixed(0).padStart(8)} µs   (${(inMemory / inRedis).toFixed(2)}x: a lone reply is not stored)`,
    );
    console.log(`  SSE event stored, in-memory event store          ${eventInMemory.toFixed(1).padStart(8)} µs`);
    console.log(`  SSE event stored, Redis event store              ${eventInRedis.toFixed(0).padStart(8)} µs`);
    console.log(`  event, in-process bus (publish to listener)      ${local2.toFixed(1).padStart(8)} µs`);
    console.log(`  event, Redis bus (one instance to another)       ${crossing.toFixed(0).padStart(8)} µs`);
    console.log(`  task (create, poll, complete), in-memory store   ${taskInMemory.toFixed(1).padStart(8)} µs`);
    console.log(`  task (create, poll, complete), Redis store       ${taskInRedis.toFixed(0).padStart(8)} µs`);
  } finally {
    await redis.stop();
  }
}

/** Whether a daemon the benchmark starts is installed (the test support throws, naming the apt package). */
function installed(name: string): boolean {
  try {
    executable(name);
    return true;
  } catch {
    return false;
  }
}

async function main(): Promise<void> {
  if (!installed('nginx')) {
    console.log('nginx is not installed: skipped (apt-get install nginx)');
    return;
  }
  const direct = await startInstance('solo');
  const alone = await throughput(direct.port);
  direct.child.kill('SIGKILL');
  const one = await cluster(1);
  const three = await cluster(3);
  console.log(
    `\n2026-07-28 tools/call (order tool), ${CONCURRENCY} in flight, ${MEASURE_MS / 1000} s each, ${availableParallelism()} cores shared by everything`,
  );
  console.log(`  one instance, no balancer            ${alone.toFixed(0).padStart(8)} calls/s`);
  console.log(`  one instance behind nginx            ${one.toFixed(0).padStart(8)} calls/s`);
  console.log(`  three instances behind nginx         ${three.toFixed(0).padStart(8)} calls/s`);
  console.log(`  ratio (three / one, behind nginx)    ${(three / one).toFixed(2).padStart(8)}x`);
  if (installed('redis-server')) await sharedStoreCosts();
  else console.log('redis-server is not installed: shared store costs skipped (apt-get install redis-server)');
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
