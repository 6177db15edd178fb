import { recordGoal } from './fixtures/goals';
import { MEASURE_MS, ROUNDS, WARM_MS, load, medianOf, row, start, stop, type Endpoint, type Era, type Figures } from './fixtures/load';

/**
 * Issues 27 and 39, Nest: tools/call of the order tool at concurrency 16 in both eras (a 2025-11-25 session, a
 * 2026-07-28 stateless request) on Nest 12 applications, each alone in its process (fixtures/nest-server.ts):
 * `onemodelcontext/nest` as documented (the MCP path answered ahead of Express's router), the same with
 * `bypassRouter: false` (every request through Express, as before issue 27), and `@rekog/mcp-nest`; on Express
 * once without middleware of the application's and once with user middleware on the MCP path (cors, helmet, a
 * `MiddlewareConsumer` request logger and a global prefix: fixtures/nest-middleware.ts), then the same three on
 * the Fastify adapter (where ours is routed either way). Rounds interleave the endpoints of one case; each figure
 * is the median of its rounds.
 *
 * Goals, with the default Express adapter, in both eras: at least 6x `@rekog/mcp-nest`'s throughput without
 * middleware, at least 4x with the user middleware (which runs for every MCP request of ours).
 */

const C = 16;
type Framework = 'express' | 'fastify';
interface Case {
  readonly framework: Framework;
  readonly middleware: boolean;
  readonly goal?: number;
}
const CASES: readonly Case[] = [
  { framework: 'express', middleware: false, goal: 6 },
  { framework: 'express', middleware: true, goal: 4 },
  { framework: 'fastify', middleware: false },
];
const KINDS = [
  ['ours', 'onemodelcontext/nest'],
  ['ours-routed', '  bypassRouter: false'],
  ['rekog', '@rekog/mcp-nest 2.0.5'],
] as const;

async function warmUp(endpoint: Endpoint): Promise<void> {
  for (const era of ['2025', '2026'] as const) await load(endpoint, era, 'tools/call', C);
}

const fmt = (x: Figures) => `${x.rps.toFixed(0)} req/s, p99 ${x.p99.toFixed(2)} ms, ${x.cpu.toFixed(0)} µs CPU`;

function labelOf({ framework, middleware }: Case, era: Era): string {
  const adapter = framework === 'express' ? 'Express' : 'Fastify';
  const session = era === '2025' ? '2025-11-25 session' : '2026-07-28 stateless';
  return `Nest (${adapter}${middleware ? ', user middleware on the path' : ''}) HTTP tools/call, ${session}, c=${C}`;
}

function record(which: Case, label: string, [ours, routed, rekog]: readonly Figures[]): void {
  recordGoal({
    measure: `${label}: throughput (onemodelcontext/nest / @rekog/mcp-nest)`,
    ours: fmt(ours),
    baseline: fmt(rekog),
    ratio: ours.rps / rekog.rps,
    goal: which.goal,
  });
  recordGoal({
    measure: `${label}: CPU per request (@rekog/mcp-nest / onemodelcontext/nest)`,
    ours: `${ours.cpu.toFixed(0)} µs`,
    baseline: `${rekog.cpu.toFixed(0)} µs`,
    ratio: rekog.cpu / ours.cpu,
  });
  if (which.framework === 'express') {
    recordGoal({
      measure: `${label}: throughput, ahead of the router / through it (bypassRouter: false)`,
      ours: fmt(ours),
      baseline: fmt(routed),
      ratio: ours.rps / routed.rps,
    });
  }
}

async function compare(which: Case): Promise<void> {
  const endpoints: Endpoint[] = [];
  const extra = which.middleware ? ['middleware'] : [];
  for (const [kind] of KINDS) {
    endpoints.push(
      await start(`${which.framework} ${kind}${which.middleware ? ' (middleware)' : ''}`, 'nest-server.js', [
        which.framework,
        kind,
        ...extra,
      ]),
    );
  }
  for (const endpoint of endpoints) await warmUp(endpoint);
  for (const era of ['2025', '2026'] as const satisfies readonly Era[]) {
    const rounds: Figures[][] = endpoints.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, endpoint] of endpoints.entries()) rounds[i].push(await load(endpoint, era, 'tools/call', C));
    }
    const figures = rounds.map(medianOf);
    const label = labelOf(which, era);
    console.log(`\n${label} (warm-up ${WARM_MS} ms, then ${MEASURE_MS} ms; medians of ${ROUNDS} interleaved rounds)`);
    for (const [i, [, name]] of KINDS.entries()) console.log(row(name, figures[i]));
    record(which, label, figures);
  }
  endpoints.forEach(stop);
}

async function main(): Promise<void> {
  console.log(
    'Nest benchmark (issues 27, 39): onemodelcontext/nest vs @rekog/mcp-nest, Express (with and without user middleware) and Fastify',
  );
  const only = process.env.BENCH_NEST_CASE; // `express`, `middleware` or `fastify`: one case, while working on it
  for (const which of CASES) {
    const name = which.middleware ? 'middleware' : which.framework;
    if (only === undefined || only === name) await compare(which);
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
