import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { median, recordGoal } from './fixtures/goals';

/**
 * Issue 16, start-up: what a client that spawns a stdio server waits for on every launch.
 *   stdio cold start of samples/weather as a whole process: spawn, initialize, tools/list answered. Ours,
 *   the same server written with the SDK v2 McpServer + zod 4, and the floor (bare node answering constants).
 *   Goal: no slower than McpServer + zod 4.
 *   `require` of the package in a fresh process: time and the number of modules loaded, beside what a
 *   McpServer + zod 4 server requires (`@modelcontextprotocol/server` and `zod`) and the SDK alone.
 *   1,000 tools over stdio as a whole process (spawn to the first listing), for information: the goal of
 *   issue 16 for 1,000 tools is measured in a fresh process from construction on (bench/server.bench.ts),
 *   because node's start and the SDK's own require, which both sides pay alike, bound this one.
 */

const ROOT = resolve(__dirname, '../..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);

/** Compiles samples/weather against the built package, as a user's project (`node_modules/onemodelcontext`). */
function buildWeather(): string {
  const modules = join(ROOT, 'samples/weather/node_modules');
  if (!existsSync(join(modules, 'onemodelcontext'))) {
    mkdirSync(modules, { recursive: true });
    symlinkSync(ROOT, join(modules, 'onemodelcontext'), 'dir');
  }
  execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(ROOT, 'samples/weather')], {
    stdio: 'inherit',
  });
  return join(ROOT, 'samples/weather/dist/main.js');
}

/** Milliseconds from spawn to the tools/list answer listing `tools` tools; the process is killed after. */
function coldStart(args: readonly string[], tools = 2): Promise<number> {
  return new Promise((done, fail) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'ignore'] });
    let buffered = '';
    child.stdout.on('data', (d: Buffer) => {
      buffered += d;
      let at: number;
      while ((at = buffered.indexOf('\n')) !== -1) {
        const line = buffered.slice(0, at);
        buffered = buffered.slice(at + 1);
        const message = JSON.parse(line) as { id?: number; result?: { tools?: unknown[] } };
        if (message.id === 1) {
          child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
          child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} })}\n`);
        } else if (message.id === 2) {
          const ms = performance.now() - started;
          child.kill();
          if (message.result?.tools?.length !== tools) fail(new Error(`listed ${JSON.stringify(message).slice(0, 200)}`));
          else done(ms);
        }
      }
    });
    child.once('exit', (code) => code !== null && code !== 0 && fail(new Error(`${args.join(' ')} exited with ${code}`)));
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
    };
    child.stdin.write(`${JSON.stringify(init)}\n`);
  });
}

/** `require` of `modules` in a fresh process: milliseconds and the number of modules then in the cache. */
function requireCost(modules: readonly string[]): { ms: number; count: number } {
  const script = `const t = performance.now(); for (const m of ${JSON.stringify(modules)}) require(m); process.stdout.write(JSON.stringify({ ms: performance.now() - t, count: Object.keys(require.cache).length }));`;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' })) as { ms: number; count: number };
}

async function main(): Promise<void> {
  console.log('Start-up benchmark (issue 16): ours vs the SDK v2 McpServer + zod 4');
  const weather = buildWeather();
  const servers = {
    ours: [weather, '--stdio'],
    sdk: [join(__dirname, 'fixtures', 'sdk-weather.js')],
    floor: [join(__dirname, 'fixtures', 'stdio-floor.js')],
  } as const;
  const cold = { ours: [] as number[], sdk: [] as number[], floor: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of ['ours', 'sdk', 'floor'] as const) cold[name].push(await coldStart(servers[name]));
  }
  const [ours, sdk, floor] = [median(cold.ours), median(cold.sdk), median(cold.floor)];
  console.log(`\nstdio cold start, samples/weather: spawn, initialize, tools/list answered (median of ${ROUNDS} processes each)`);
  console.log(`  ours                               ${ours.toFixed(1).padStart(8)} ms`);
  console.log(`  McpServer + zod 4                  ${sdk.toFixed(1).padStart(8)} ms`);
  console.log(`  floor (bare node, constants)       ${floor.toFixed(1).padStart(8)} ms`);
  recordGoal({
    measure: 'stdio cold start of samples/weather (McpServer time / ours)',
    ours: `${ours.toFixed(0)} ms`,
    baseline: `${sdk.toFixed(0)} ms`,
    floor: `${floor.toFixed(0)} ms`,
    ratio: sdk / ours,
    goal: 1,
  });

  const targets = {
    ours: [join(ROOT, 'dist/index.js')],
    sdk: ['@modelcontextprotocol/server', 'zod'],
    sdkAlone: ['@modelcontextprotocol/server'],
  } as const;
  const costs = {
    ours: [] as { ms: number; count: number }[],
    sdk: [] as { ms: number; count: number }[],
    sdkAlone: [] as { ms: number; count: number }[],
  };
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of ['ours', 'sdk', 'sdkAlone'] as const) costs[name].push(requireCost(targets[name]));
  }
  const ms = (name: keyof typeof costs) => median(costs[name].map((c) => c.ms));
  const count = (name: keyof typeof costs) => costs[name][0].count;
  console.log(`\nrequire() in a fresh process (median of ${ROUNDS})`);
  console.log(
    `  require('onemodelcontext')                          ${ms('ours').toFixed(1).padStart(8)} ms  ${String(count('ours')).padStart(4)} modules`,
  );
  console.log(
    `  require('@modelcontextprotocol/server'), zod        ${ms('sdk').toFixed(1).padStart(8)} ms  ${String(count('sdk')).padStart(4)} modules`,
  );
  console.log(
    `  require('@modelcontextprotocol/server') alone       ${ms('sdkAlone').toFixed(1).padStart(8)} ms  ${String(count('sdkAlone')).padStart(4)} modules`,
  );
  recordGoal({
    measure: `require('onemodelcontext'), ${count('ours')} modules (McpServer + zod time / ours)`,
    ours: `${ms('ours').toFixed(0)} ms, ${count('ours')} modules`,
    baseline: `${ms('sdk').toFixed(0)} ms, ${count('sdk')} modules`,
    ratio: ms('sdk') / ms('ours'),
  });

  await manyToolsColdStart();
}

/** 1,000 tools over stdio, each side a whole process loading only its own library (bench/fixtures/many-tools-stdio). */
async function manyToolsColdStart(): Promise<void> {
  const servers = {
    ours: [join(__dirname, 'fixtures', 'many-tools-stdio.js'), 'ours'],
    sdk: [join(__dirname, 'fixtures', 'many-tools-stdio.js'), 'sdk'],
    floor: [join(__dirname, 'fixtures', 'stdio-floor.js'), '1000'],
  } as const;
  const cold = { ours: [] as number[], sdk: [] as number[], floor: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of ['ours', 'sdk', 'floor'] as const) cold[name].push(await coldStart(servers[name], 1000));
  }
  const [ours, sdk, floor] = [median(cold.ours), median(cold.sdk), median(cold.floor)];
  console.log(`\n1,000 tools over stdio, whole process: spawn, initialize, tools/list answered (median of ${ROUNDS} processes each)`);
  console.log(`  ours                               ${ours.toFixed(1).padStart(8)} ms`);
  console.log(`  McpServer + zod 4                  ${sdk.toFixed(1).padStart(8)} ms`);
  console.log(`  floor (bare node, constants)       ${floor.toFixed(1).padStart(8)} ms`);
  recordGoal({
    measure: '1,000 tools, stdio cold start as a whole process (McpServer time / ours)',
    ours: `${ours.toFixed(0)} ms`,
    baseline: `${sdk.toFixed(0)} ms`,
    floor: `${floor.toFixed(0)} ms`,
    ratio: sdk / ours,
  });
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
