import { median, recordGoal } from './fixtures/goals';
import { callgrindAvailable, instructionsPerRequest } from './fixtures/instructions';
import { MEASURE_MS, ROUNDS, WARM_MS, load, loadTogether, medianOf, row, start, stop, type Era, type Figures } from './fixtures/load';

/**
 * Issue 41, interceptors: HTTP tools/call of the order tool at c=16 in both eras, on our endpoint as it is and with
 * one no-op interceptor (`server.use((call, next) => next())`), each alone in its process. Goal: the no-op
 * interceptor costs at most 5% more server work per call.
 *
 * Judged, where valgrind is installed: the machine instructions the server process executes per call, counted by
 * callgrind (fixtures/instructions.ts), the median of COUNT_ROUNDS processes each; a count does not move with
 * what else the machine does. Without valgrind, and printed in any case: server CPU time per call, where both endpoints are loaded at the same time, each at the same fixed rate (RATE requests a second, an open load,
 * below what either answers on this machine), in the same window; the judged figure is the median over the rounds
 * of each window's ratio. Measured one after the other, a shared 2-core machine moved the ratio by more than 10%
 * between runs (a load generator or another process taking a core for a second); in one window, what else runs
 * weighs on both alike. A closed load (each connection sending its next request on an answer) is printed too, not
 * judged: it ties the CPU per call to a throughput the machine moves. (The server without interceptors pays one
 * length check per call; its own goals are http.bench's.)
 */
const RATE = Number(process.env.BENCH_INTERCEPTOR_RATE ?? 1000);
const PAIRED_ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const COUNT_ROUNDS = Number(process.env.BENCH_COUNT_ROUNDS ?? 3);
/** Enough calls for V8 to have optimised the hot code before counting (fewer left the count 4x higher). */
/**
 * One connection: with several, how many 2026-07-28 requests are in flight at once follows the machine's timing,
 * and with it the size of the HTTP pool (counts at c=16 fell in two groups, 250k and 345k).
 */
const COUNT = { warm: 3000, measured: 1000, connections: 1 };

function label(era: Era): string {
  return `HTTP tools/call, ${era === '2025' ? '2025-11-25 session' : '2026-07-28 stateless'}`;
}

/** Instructions per call without and with the no-op interceptor, each the median of COUNT_ROUNDS processes. */
async function countInstructions(era: Era): Promise<void> {
  const counts: number[][] = [[], []];
  for (let round = 0; round < COUNT_ROUNDS; round++) {
    for (const [i, kind] of (['ours', 'ours-use'] as const).entries()) {
      counts[i].push(await instructionsPerRequest(kind, 'http-server.js', [kind, 'order'], era, 'tools/call', COUNT));
    }
  }
  const [without, withOne] = counts.map(median);
  console.log(
    `\n${label(era)}, c=${COUNT.connections}: instructions per call (callgrind, ${COUNT.warm} calls to warm, ${COUNT.measured} counted)`,
  );
  console.log(`  no interceptor         ${counts[0].map((n) => n.toFixed(0)).join(' ')}`);
  console.log(`  one no-op interceptor  ${counts[1].map((n) => n.toFixed(0)).join(' ')}`);
  recordGoal({
    measure: `${label(era)}: server instructions per call, with one no-op interceptor / without (at most 5% more)`,
    ours: `${withOne.toFixed(0)} instructions`,
    baseline: `${without.toFixed(0)} instructions (no interceptor)`,
    ratio: withOne / without,
    goal: 1.05,
    direction: 'at most',
  });
}

async function main(): Promise<void> {
  const counted = callgrindAvailable();
  if (counted) for (const era of ['2025', '2026'] as const) await countInstructions(era);
  else console.log('valgrind is not installed: the goal is judged on CPU time per call (apt-get install valgrind to count instructions)');
  const plain = await start('ours', 'http-server.js', ['ours', 'order']);
  const used = await start('ours-use', 'http-server.js', ['ours-use', 'order']);
  for (const era of ['2025', '2026'] as const) await loadTogether([plain, used], era, 'tools/call', 16);
  for (const era of ['2025', '2026'] as const) {
    const closed: Figures[][] = [[], []];
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, endpoint] of [plain, used].entries()) closed[i].push(await load(endpoint, era, 'tools/call', 16));
    }
    const open: Figures[][] = [[], []];
    const ratios: number[] = [];
    for (let round = 0; round < PAIRED_ROUNDS; round++) {
      const [a, b] = await loadTogether([plain, used], era, 'tools/call', 16, RATE);
      open[0].push(a);
      open[1].push(b);
      ratios.push(b.cpu / a.cpu);
    }
    const [a, b] = closed.map(medianOf);
    const [fixedA, fixedB] = open.map(medianOf);
    const ratio = median(ratios);
    const title = `${label(era)}, c=16, one no-op interceptor`;
    console.log(`\n${title} (warm-up ${WARM_MS} ms, then ${MEASURE_MS} ms; closed load: medians of ${ROUNDS} rounds, one after the other;`);
    console.log(`  ${RATE}/s each: ${PAIRED_ROUNDS} rounds with both loaded in one window)`);
    console.log(row('no interceptor', a));
    console.log(row('one no-op interceptor', b));
    console.log(row(`no interceptor, ${RATE}/s`, fixedA));
    console.log(row(`one no-op, ${RATE}/s`, fixedB));
    console.log(`  ratio of each window, with / without: ${ratios.map((r) => r.toFixed(3)).join(' ')}`);
    recordGoal({
      measure: `${title}: server CPU per call at ${RATE} requests/s each, both in one window, with / without (at most 5% more)`,
      ours: `${fixedB.cpu.toFixed(1)} µs CPU (${b.rps.toFixed(0)} req/s at full load)`,
      baseline: `${fixedA.cpu.toFixed(1)} µs CPU (${a.rps.toFixed(0)} req/s at full load, no interceptor)`,
      ratio,
      // With instructions counted, CPU time is printed for information only.
      ...(counted ? {} : { goal: 1.05, direction: 'at most' as const }),
    });
  }
  [plain, used].forEach(stop);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
