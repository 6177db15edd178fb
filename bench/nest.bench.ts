import { recordGoal } from './fixtures/goals';
import { MEASURE_MS, ROUNDS, WARM_MS, load, medianOf, row, start, stop, type Endpoint, type Era, type Figures } from './fixtures/load';

/**
 * Issue 27, Nest: tools/call of the order tool at concurrency 16 in both eras (a 2025-11-25 session, a
 * 2026-07-28 stateless request) on Nest 12 applications, each alone in its process (fixtures/nest-server.ts):
 * `onemodelcontext/nest` as documented (the MCP path answered ahead of Express's router), the same with
 * `bypassRouter: false` (every request through Express, as before issue 27), and `@rekog/mcp-nest`; then the
 * same three on the Fastify adapter (where ours is routed either way). Rounds interleave the endpoints of one
 * adapter; each figure is the median of its rounds.
 *
 * Goal: with the default Express adapter, at least 4x `@rekog/mcp-nest`'s throughput in both eras.
 */

const C = 16;
type Framework = 'express' | 'fastify';
const KINDS = [
  ['ours', 'onemodelcontext/nest'],
  ['ours-routed', '  bypassRouter: false'],
  ['rekog', '@rekog/mcp-nest 2.0.5'],
] as const;

async function warmUp(endpoint: Endpoint): Promise<void> {
  for (const era of ['2025', '2026'] as const) await load(endpoint, era, 'tools/call', C);
}

const fmt = (x: Figures) => `${x.rps.toFixed(0)} req/s, p99 ${x.p99.toFixed(2)} ms, ${x.cpu.toFixed(0)} µs CPU`;

async function compare(framework: Framework): Promise<void> {
  const endpoints: Endpoint[] = [];
  for (const [kind] of KINDS) endpoints.push(await start(`${framework} ${kind}`, 'nest-server.js', [framework, kind]));
  for (const endpoint of endpoints) await warmUp(endpoint);
  for (const era of ['2025', '2026'] as const satisfies readonly Era[]) {
    const rounds: Figures[][] = endpoints.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, endpoint] of endpoints.entries()) rounds[i].push(await load(endpoint, era, 'tools/call', C));
    }
    const [ours, routed, rekog] = rounds.map(medianOf);
    const label = `Nest (${framework === 'express' ? 'Express' : 'Fastify'}) HTTP tools/call, ${era === '2025' ? '2025-11-25 session' : '2026-07-28 stateless'}, c=${C}`;
    console.log(`\n${label} (warm-up ${WARM_MS} ms, then ${MEASURE_MS} ms; medians of ${ROUNDS} interleaved rounds)`);
    for (const [i, [, name]] of KINDS.entries()) console.log(row(name, [ours, routed, rekog][i]));
    recordGoal({
      measure: `${label}: throughput (onemodelcontext/nest / @rekog/mcp-nest)`,
      ours: fmt(ours),
      baseline: fmt(rekog),
      ratio: ours.rps / rekog.rps,
      goal: framework === 'express' ? 4 : undefined,
    });
    recordGoal({
      measure: `${label}: CPU per request (@rekog/mcp-nest / onemodelcontext/nest)`,
      ours: `${ours.cpu.toFixed(0)} µs`,
      baseline: `${rekog.cpu.toFixed(0)} µs`,
      ratio: rekog.cpu / ours.cpu,
    });
    if (framework === 'express') {
      recordGoal({
        measure: `${label}: throughput, ahead of the router / through it (bypassRouter: false)`,
        ours: fmt(ours),
        baseline: fmt(routed),
        ratio: ours.rps / routed.rps,
      });
    }
  }
  endpoints.forEach(stop);
}

async function main(): Promise<void> {
  console.log('Nest benchmark (issue 27): onemodelcontext/nest vs @rekog/mcp-nest, Express and Fastify adapters');
  await compare('express');
  await compare('fastify');
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
