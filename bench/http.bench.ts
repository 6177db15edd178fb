import { median, recordGoal } from './fixtures/goals';
import { callgrindAvailable, instructionsPerRequest } from './fixtures/instructions';
import {
  MEASURE_MS,
  ROUNDS,
  WARM_MS,
  load,
  medianOf,
  row,
  start as startFixture,
  stop,
  type Endpoint,
  type Figures,
} from './fixtures/load';

/**
 * Issue 16, HTTP: tools/call of the order tool at concurrency 1, 16 and 64 in both eras (a 2025-11-25 session,
 * a 2026-07-28 stateless request), and tools/list of 1,000 tools, on three endpoints each alone in its own
 * process: ours (`serveHttp`), the SDK v2 McpServer + zod 4, and the floor (bare node:http parsing the JSON
 * body and answering a constant). The load comes from autocannon in this process: `c` keep-alive connections,
 * each with one request in flight, sending request bytes built once per era, for a warm-up and then a measured
 * window. Reported: requests per second, p99 latency, and the server process's CPU time (user + system)
 * per request.
 *
 * Goals: at least 3x McpServer's throughput; p99 at most a quarter of its and CPU per request within 2x the floor
 * (issue 27; they were a third and 3x), at c=16 within 1.2x on 2025 sessions and 1.5x on 2026-07-28 (issue 39).
 * Where valgrind is installed, the machine instructions per call of ours and the floor are counted too
 * (fixtures/instructions.ts), for information: a figure the machine's load does not move.
 * All processes share this machine's cores with the load generator, so absolute figures are low; the ratios
 * are what compares.
 */

const CONCURRENCY = [1, 16, 64] as const;

function start(kind: 'ours' | 'sdk' | 'floor', which: 'order' | 'many'): Promise<Endpoint> {
  return startFixture(kind, 'http-server.js', [kind, which]);
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
      const rounds: Figures[][] = [[], [], []];
      for (let round = 0; round < ROUNDS; round++) {
        for (const [i, endpoint] of [ours, sdk, floor].entries()) rounds[i].push(await load(endpoint, era, 'tools/call', c));
      }
      const [a, b, f] = rounds.map(medianOf);
      const label = `HTTP tools/call, ${era === '2025' ? '2025-11-25 session' : '2026-07-28 stateless'}, c=${c}`;
      console.log(`\n${label} (warm-up ${WARM_MS} ms, then ${MEASURE_MS} ms; medians of ${ROUNDS} interleaved rounds)`);
      console.log(row('ours', a));
      console.log(row('McpServer + zod 4', b));
      console.log(row('floor (node:http)', f));
      const fmt = (x: Figures) => `${x.rps.toFixed(0)} req/s, p99 ${x.p99.toFixed(2)} ms, ${x.cpu.toFixed(0)} µs CPU`;
      recordGoal({ measure: `${label}: throughput`, ours: fmt(a), baseline: fmt(b), floor: fmt(f), ratio: a.rps / b.rps, goal: 3 });
      recordGoal({
        measure: `${label}: p99 latency (ours / McpServer)`,
        ours: `${a.p99.toFixed(2)} ms`,
        baseline: `${b.p99.toFixed(2)} ms`,
        ratio: a.p99 / b.p99,
        goal: 1 / 4,
        direction: 'at most',
      });
      recordGoal({
        measure: `${label}: CPU per request (ours / floor)`,
        ours: `${a.cpu.toFixed(0)} µs`,
        baseline: `${b.cpu.toFixed(0)} µs`,
        floor: `${f.cpu.toFixed(0)} µs`,
        ratio: a.cpu / f.cpu,
        goal: c === 16 ? (era === '2025' ? 1.2 : 1.5) : 2,
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
    recordGoal({
      measure: `${label}: throughput`,
      ours: `${a.rps.toFixed(0)} req/s`,
      baseline: `${b.rps.toFixed(1)} req/s`,
      ratio: a.rps / b.rps,
      goal: 3,
    });
  }
  [ours, sdk].forEach(stop);
}

/** Instructions per tools/call on one connection (see interceptors.bench.ts), ours and the floor, medians of three processes. */
async function countedToolsCall(): Promise<void> {
  const options = { warm: 3000, measured: 1000, connections: 1 };
  for (const era of ['2025', '2026'] as const) {
    const counts: Record<'ours' | 'floor', number[]> = { ours: [], floor: [] };
    for (let round = 0; round < 3; round++) {
      for (const kind of ['ours', 'floor'] as const) {
        counts[kind].push(await instructionsPerRequest(kind, 'http-server.js', [kind, 'order'], era, 'tools/call', options));
      }
    }
    const label = `HTTP tools/call, ${era === '2025' ? '2025-11-25 session' : '2026-07-28 stateless'}, c=1`;
    console.log(`\n${label}: instructions per call (callgrind, ${options.warm} calls to warm, ${options.measured} counted)`);
    for (const kind of ['ours', 'floor'] as const) console.log(`  ${kind.padEnd(6)} ${counts[kind].map((n) => n.toFixed(0)).join(' ')}`);
    const [ours, floor] = [median(counts.ours), median(counts.floor)];
    recordGoal({
      measure: `${label}: instructions per call (ours / floor)`,
      ours: `${ours.toFixed(0)}`,
      baseline: '-',
      floor: `${floor.toFixed(0)}`,
      ratio: ours / floor,
      vs: 'floor',
    });
  }
}

async function main(): Promise<void> {
  console.log('HTTP benchmark (issue 16): ours vs the SDK v2 McpServer + zod 4 vs bare node:http');
  await toolsCall();
  await toolsList();
  if (callgrindAvailable()) await countedToolsCall();
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
