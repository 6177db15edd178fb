import { recordGoal } from './fixtures/goals';
import { MEASURE_MS, ROUNDS, WARM_MS, load, medianOf, row, start, stop, type Figures } from './fixtures/load';

/**
 * Issue 41, interceptors: HTTP tools/call of the order tool at c=16 in both eras, on our endpoint as it is and with
 * one no-op interceptor (`server.use((call, next) => next())`), each alone in its process, in interleaved rounds.
 * Goal: the no-op interceptor keeps at least 95% of the throughput. (The server without interceptors pays one
 * length check per call; its own goals are http.bench's, against the SDK.)
 */
async function main(): Promise<void> {
  const plain = await start('ours', 'http-server.js', ['ours', 'order']);
  const used = await start('ours-use', 'http-server.js', ['ours-use', 'order']);
  for (const endpoint of [plain, used]) for (const era of ['2025', '2026'] as const) await load(endpoint, era, 'tools/call', 16);
  for (const era of ['2025', '2026'] as const) {
    const rounds: Figures[][] = [[], []];
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, endpoint] of [plain, used].entries()) rounds[i].push(await load(endpoint, era, 'tools/call', 16));
    }
    const [a, b] = rounds.map(medianOf);
    const label = `HTTP tools/call, ${era === '2025' ? '2025-11-25 session' : '2026-07-28 stateless'}, c=16, one no-op interceptor`;
    console.log(`\n${label} (warm-up ${WARM_MS} ms, then ${MEASURE_MS} ms; medians of ${ROUNDS} interleaved rounds)`);
    console.log(row('no interceptor', a));
    console.log(row('one no-op interceptor', b));
    recordGoal({
      measure: `${label}: throughput without / with (at most 5% slower)`,
      ours: `${b.rps.toFixed(0)} req/s, ${b.cpu.toFixed(0)} µs CPU`,
      baseline: `${a.rps.toFixed(0)} req/s, ${a.cpu.toFixed(0)} µs CPU (no interceptor)`,
      ratio: a.rps / b.rps,
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
