import { recordGoal } from './fixtures/goals';
import { MEASURE_MS, ROUNDS, WARM_MS, load, medianOf, row, start, stop, type Figures } from './fixtures/load';

/**
 * Issue 41, interceptors: HTTP tools/call of the order tool at c=16 in both eras, on our endpoint as it is and with
 * one no-op interceptor (`server.use((call, next) => next())`), each alone in its process, in interleaved rounds.
 * Goal: the no-op interceptor costs at most 5% more server CPU per call, measured at the same fixed rate for both
 * (RATE requests a second, below what either answers on this machine). A closed load (each connection sending its
 * next request on an answer) is printed too, but not judged: on a shared 2-core machine the load generator and other
 * processes move its throughput, and with it the CPU per call (fewer requests per wake-up), by more than 5% between
 * rounds. (The server without interceptors pays one length check per call; its own goals are http.bench's.)
 */
const RATE = Number(process.env.BENCH_INTERCEPTOR_RATE ?? 2000);

async function main(): Promise<void> {
  const plain = await start('ours', 'http-server.js', ['ours', 'order']);
  const used = await start('ours-use', 'http-server.js', ['ours-use', 'order']);
  for (const endpoint of [plain, used]) for (const era of ['2025', '2026'] as const) await load(endpoint, era, 'tools/call', 16);
  for (const era of ['2025', '2026'] as const) {
    const closed: Figures[][] = [[], []];
    const open: Figures[][] = [[], []];
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, endpoint] of [plain, used].entries()) {
        closed[i].push(await load(endpoint, era, 'tools/call', 16));
        open[i].push(await load(endpoint, era, 'tools/call', 16, RATE));
      }
    }
    const [a, b] = closed.map(medianOf);
    const [fixedA, fixedB] = open.map(medianOf);
    const label = `HTTP tools/call, ${era === '2025' ? '2025-11-25 session' : '2026-07-28 stateless'}, c=16, one no-op interceptor`;
    console.log(`\n${label} (warm-up ${WARM_MS} ms, then ${MEASURE_MS} ms; medians of ${ROUNDS} interleaved rounds)`);
    console.log(row('no interceptor', a));
    console.log(row('one no-op interceptor', b));
    console.log(row(`no interceptor, ${RATE}/s`, fixedA));
    console.log(row(`one no-op, ${RATE}/s`, fixedB));
    recordGoal({
      measure: `${label}: server CPU per call at ${RATE} requests/s, with / without (at most 5% more)`,
      ours: `${fixedB.cpu.toFixed(1)} µs CPU (${b.rps.toFixed(0)} req/s at full load)`,
      baseline: `${fixedA.cpu.toFixed(1)} µs CPU (${a.rps.toFixed(0)} req/s at full load, no interceptor)`,
      ratio: fixedB.cpu / fixedA.cpu,
      goal: 1.05,
      direction: 'at most',
    });
  }
  [plain, used].forEach(stop);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
