import { fork, type ChildProcess } from 'node:child_process';
import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { validOrder } from './order';
import { recordGoal } from './fixtures/goals';

/**
 * Issue 16, HTTP: tools/call of the order tool at concurrency 1, 16 and 64 in both eras (a 2025-11-25 session,
 * a 2026-07-28 stateless request), and tools/list of 1,000 tools, on three endpoints each alone in its own
 * process: ours (`serveHttp`), the SDK v2 McpServer + zod 4, and the floor (bare node:http parsing the JSON
 * body and answering a constant). The load comes from this process over keep-alive connections: `c` requests
 * in flight at all times for a fixed window after a warm-up. Reported: requests per second, p99 latency, and
 * the server process's CPU time (user + system) per request.
 *
 * Goals: at least 3x McpServer's throughput, p99 at most a third of its, CPU per request within 3x the floor.
 * All processes share this machine's cores with the load generator, so absolute figures are low; the ratios
 * are what compares.
 */

const WARM_MS = Number(process.env.BENCH_WARM_MS ?? 400);
const MEASURE_MS = Number(process.env.BENCH_MEASURE_MS ?? 1500);
const CONCURRENCY = [1, 16, 64] as const;
/** Fewest requests a measurement counts, and how long past the window it may wait for them. */
const MIN_SAMPLES = 5;
const MAX_WAIT_MS = 30_000;

type Kind = 'ours' | 'sdk' | 'floor';
type Era = '2025' | '2026';

interface Endpoint {
  readonly kind: Kind;
  readonly port: number;
  readonly child: ChildProcess;
}

interface Figures {
  readonly rps: number;
  readonly p99: number;
  /** Server CPU microseconds per request. */
  readonly cpu: number;
}

const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

function start(kind: Kind, which: 'order' | 'many'): Promise<Endpoint> {
  const child = fork(join(__dirname, 'fixtures', 'http-server.js'), [kind, which], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  children.add(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d;
      const match = /listening (\d+)/.exec(out);
      if (match) resolve({ kind, port: Number(match[1]), child });
    });
    child.once('exit', (code) => reject(new Error(`${kind} server exited with ${code}`)));
  });
}

function stop(endpoint: Endpoint): void {
  endpoint.child.kill('SIGKILL');
  children.delete(endpoint.child);
}

function cpuOf(endpoint: Endpoint): Promise<number> {
  return new Promise((resolve) => {
    endpoint.child.once('message', (usage: NodeJS.CpuUsage) => resolve(usage.user + usage.system));
    endpoint.child.send('cpu');
  });
}

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

interface Exchange {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
}

function post(agent: Agent, port: number, headers: Record<string, string>, body: string): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', agent, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.once('error', reject);
    req.end(body);
  });
}

const ACCEPT = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** One client's request: a 2025 client opens its session first (initialize, initialized). */
async function clientFor(agent: Agent, endpoint: Endpoint, era: Era, method: 'tools/call' | 'tools/list'): Promise<() => Promise<void>> {
  const params = method === 'tools/call' ? { name: 'place_order', arguments: validOrder() } : {};
  let headers: Record<string, string>;
  let body: string;
  if (era === '2026') {
    headers = { ...ACCEPT, 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...(method === 'tools/call' ? { 'mcp-name': 'place_order' } : {}) };
    body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: META } });
  } else {
    const init = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } };
    const opened = await post(agent, endpoint.port, ACCEPT, JSON.stringify(init));
    const sid = opened.headers['mcp-session-id'];
    if (typeof sid !== 'string' && endpoint.kind !== 'floor') throw new Error(`${endpoint.kind}: no session (${opened.status} ${opened.text.slice(0, 200)})`);
    headers = { ...ACCEPT, 'mcp-protocol-version': '2025-11-25', ...(typeof sid === 'string' ? { 'mcp-session-id': sid } : {}) };
    await post(agent, endpoint.port, headers, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
  }
  return async () => {
    const { status, text } = await post(agent, endpoint.port, headers, body);
    if (status !== 200 || !text.includes('"result"') || text.includes('"isError":true')) throw new Error(`${endpoint.kind} ${era}: ${status} ${text.slice(0, 300)}`);
  };
}

function percentile(values: number[], p: number): number {
  const sorted = values.sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

/** `c` clients, each with one request in flight at all times, for WARM_MS then MEASURE_MS. */
async function load(endpoint: Endpoint, era: Era, method: 'tools/call' | 'tools/list', c: number): Promise<Figures> {
  const agent = new Agent({ keepAlive: true, maxSockets: c });
  const calls = await Promise.all(Array.from({ length: c }, () => clientFor(agent, endpoint, era, method)));
  const latencies: number[] = [];
  let measuring = false;
  let done = false;
  let failures = 0;
  const worker = async (call: () => Promise<void>) => {
    while (!done) {
      const at = performance.now();
      try {
        await call();
      } catch (error) {
        // A keep-alive connection the server closed just as it was reused: counted, not fatal.
        if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET' || ++failures > 10) throw error;
        continue;
      }
      if (measuring && !done) latencies.push(performance.now() - at);
    }
  };
  const workers = calls.map(worker);
  await new Promise((r) => setTimeout(r, WARM_MS));
  const cpuBefore = await cpuOf(endpoint);
  measuring = true;
  const started = performance.now();
  await new Promise((r) => setTimeout(r, MEASURE_MS));
  // A slow endpoint (a McpServer per request over 1,000 tools) may finish nothing in the window: wait for a few.
  for (let waited = 0; latencies.length < MIN_SAMPLES && waited < MAX_WAIT_MS; waited += 50) await new Promise((r) => setTimeout(r, 50));
  done = true;
  const elapsed = performance.now() - started;
  const cpuAfter = await cpuOf(endpoint);
  const count = latencies.length;
  await Promise.all(workers);
  agent.destroy();
  if (failures > 0) console.log(`  (${endpoint.kind}: ${failures} connection resets, retried)`);
  return { rps: (count / elapsed) * 1000, p99: percentile(latencies, 0.99), cpu: (cpuAfter - cpuBefore) / Math.max(1, count) };
}

function row(name: string, f: Figures): string {
  return `  ${name.padEnd(20)} ${f.rps.toFixed(0).padStart(8)} req/s   p99 ${f.p99.toFixed(2).padStart(8)} ms   CPU ${f.cpu.toFixed(0).padStart(6)} µs/request`;
}

/** Runs each era's calls on a fresh endpoint once, unmeasured: every figure is then taken after JIT warm-up. */
async function warmUp(endpoint: Endpoint): Promise<void> {
  for (const era of ['2025', '2026'] as const) await load(endpoint, era, 'tools/call', 16);
}

async function toolsCall(): Promise<void> {
  const [ours, sdk, floor] = [await start('ours', 'order'), await start('sdk', 'order'), await start('floor', 'order')];
  for (const endpoint of [ours, sdk, floor]) await warmUp(endpoint);
  for (const era of ['2025', '2026'] as const) {
    for (const c of CONCURRENCY) {
      const a = await load(ours, era, 'tools/call', c);
      const b = await load(sdk, era, 'tools/call', c);
      const f = await load(floor, era, 'tools/call', c);
      const label = `HTTP tools/call, ${era === '2025' ? '2025-11-25 session' : '2026-07-28 stateless'}, c=${c}`;
      console.log(`\n${label} (warm-up ${WARM_MS} ms, then ${MEASURE_MS} ms)`);
      console.log(row('ours', a));
      console.log(row('McpServer + zod 4', b));
      console.log(row('floor (node:http)', f));
      const fmt = (x: Figures) => `${x.rps.toFixed(0)} req/s, p99 ${x.p99.toFixed(2)} ms, ${x.cpu.toFixed(0)} µs CPU`;
      recordGoal({ measure: `${label}: throughput`, ours: fmt(a), baseline: fmt(b), floor: fmt(f), ratio: a.rps / b.rps, goal: 3 });
      recordGoal({ measure: `${label}: p99 latency (ours / McpServer)`, ours: `${a.p99.toFixed(2)} ms`, baseline: `${b.p99.toFixed(2)} ms`, ratio: a.p99 / b.p99, goal: 1 / 3, direction: 'at most' });
      recordGoal({
        measure: `${label}: CPU per request (ours / floor)`,
        ours: `${a.cpu.toFixed(0)} µs`,
        baseline: `${b.cpu.toFixed(0)} µs`,
        floor: `${f.cpu.toFixed(0)} µs`,
        ratio: a.cpu / f.cpu,
        goal: 3,
        direction: 'at most',
        vs: 'floor',
      });
    }
  }
  [ours, sdk, floor].forEach(stop);
}

async function toolsList(): Promise<void> {
  const [ours, sdk] = [await start('ours', 'many'), await start('sdk', 'many')];
  for (const era of ['2025', '2026'] as const) {
    const a = await load(ours, era, 'tools/list', 16);
    const b = await load(sdk, era, 'tools/list', 16);
    const label = `HTTP tools/list of 1,000 tools, ${era === '2025' ? '2025-11-25 session' : '2026-07-28 stateless'}, c=16`;
    console.log(`\n${label}`);
    console.log(row('ours', a));
    console.log(row('McpServer + zod 4', b));
    recordGoal({ measure: `${label}: throughput`, ours: `${a.rps.toFixed(0)} req/s`, baseline: `${b.rps.toFixed(1)} req/s`, ratio: a.rps / b.rps, goal: 3 });
  }
  [ours, sdk].forEach(stop);
}

async function main(): Promise<void> {
  console.log('HTTP benchmark (issue 16): ours vs the SDK v2 McpServer + zod 4 vs bare node:http');
  await toolsCall();
  await toolsList();
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
