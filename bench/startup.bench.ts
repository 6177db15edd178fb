import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { median, recordGoal } from './fixtures/goals';
import { callgrindAvailable, instructionsPerStart } from './fixtures/instructions';

/**
 * Issues 16 and 27, start-up: what a client that spawns a stdio server waits for on every launch.
 *   stdio cold start of samples/weather as a whole process: spawn, initialize, tools/list answered. Ours,
 *   the same server written with the SDK v2 McpServer + zod 4, and the floor (bare node answering constants).
 *   Goal (issue 27): at least 1.5x faster than McpServer + zod 4, without flags, on the node running the bench
 *   and on Node 24 (`npx -p node@24`; the round is skipped, saying so, when it cannot be fetched). Each process
 *   also reports how many modules it had loaded when it wrote its first answer.
 *   Issue 39: the same start for the signup server, whose records are class-validator DTOs, in both import
 *   orders and with our own decorators, beside McpServer + zod 4, on the node running the bench (run the bench
 *   under another node with `npx -y -p node@24 node bench/run-all.js startup`). Goals: 1.5x, own decorators 2x.
 *   `require` of the package in a fresh process: time and the number of modules loaded, beside what a
 *   McpServer + zod 4 server requires (`@modelcontextprotocol/server` and `zod`) and the SDK alone.
 *   1,000 tools over stdio as a whole process (spawn to the first listing), for information: the goal of
 *   issue 16 for 1,000 tools is measured in a fresh process from construction on (bench/server.bench.ts),
 *   because node's start and the SDK's own require, which both sides pay alike, bound this one.
 */

const ROOT = resolve(__dirname, '../..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
/**
 * Processes per server counted under callgrind (about 25 s each). A start's count moves by a few percent from one
 * process to the next: V8's memory reducer and the reads of stdin follow the clock, which callgrind slows fifty
 * times.
 */
const COUNTED_ROUNDS = Math.min(ROUNDS, 3);

/** Compiles samples/weather against the built package, as a user's project (`node_modules/onemodelcontext`). */
function buildWeather(): string {
  const modules = join(ROOT, 'samples/weather/node_modules');
  if (!existsSync(join(modules, 'onemodelcontext'))) {
    mkdirSync(modules, { recursive: true });
    symlinkSync(ROOT, join(modules, 'onemodelcontext'), 'dir');
  }
  execFileSync(process.execPath, [join(ROOT, 'node_modules/@typescript/native/bin/tsc'), '-p', join(ROOT, 'samples/weather')], {
    stdio: 'inherit',
  });
  return join(ROOT, 'samples/weather/dist/main.js');
}

/** One cold start: milliseconds from spawn to the tools/list answer, and the CPU time the process used in all. */
interface Start {
  readonly ms: number;
  readonly cpuMs: number;
  readonly modules: number;
}

/**
 * Spawns a server (with bench/fixtures/cpu-at-exit preloaded), times it to the tools/list answer listing
 * `tools` tools, then closes its stdin and reads the CPU time it reports as it exits.
 */
function coldStart(args: readonly string[], tools: number, node = process.execPath): Promise<Start> {
  return new Promise((done, fail) => {
    const started = performance.now();
    const child = spawn(node, ['-r', join(__dirname, 'fixtures', 'cpu-at-exit.js'), ...args], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let buffered = '';
    let stderr = '';
    let ms: number | undefined;
    child.stderr.on('data', (d: Buffer) => (stderr += d));
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
          ms = performance.now() - started;
          if (message.result?.tools?.length !== tools) fail(new Error(`listed ${JSON.stringify(message).slice(0, 200)}`));
          child.stdin.end();
        }
      }
    });
    child.once('exit', (code) => {
      const last = stderr.trim().split('\n').pop() ?? '';
      if (code !== 0 || ms === undefined || !last.startsWith('{'))
        fail(new Error(`${args.join(' ')} exited with ${code}: ${stderr.slice(-500)}`));
      else {
        const { cpuMs, modulesAtFirstAnswer } = JSON.parse(last) as { cpuMs: number; modulesAtFirstAnswer: number };
        done({ ms, cpuMs, modules: modulesAtFirstAnswer });
      }
    });
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
    };
    child.stdin.write(`${JSON.stringify(init)}\n`);
  });
}

/** The node binary of a major version (`npx -p node@<major>`), or `undefined` when it cannot be fetched. */
function nodeBinary(major: string): string | undefined {
  if (process.versions.node.split('.')[0] === major) return undefined;
  try {
    const script = 'process.stdout.write(process.execPath)';
    return execFileSync('npx', ['-y', '-p', `node@${major}`, 'node', '-e', script], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return undefined;
  }
}

/** `require` of `modules` in a fresh process: milliseconds and the number of modules then in the cache. */
function requireCost(modules: readonly string[]): { ms: number; count: number } {
  const script = `const t = performance.now(); for (const m of ${JSON.stringify(modules)}) require(m); process.stdout.write(JSON.stringify({ ms: performance.now() - t, count: Object.keys(require.cache).length }));`;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' })) as { ms: number; count: number };
}

async function main(): Promise<void> {
  console.log('Start-up benchmark (issues 16, 27 and 39): ours vs the SDK v2 McpServer + zod 4');
  const weather = buildWeather();
  const weatherServers = (major: string) => ({
    ours: { label: 'ours', args: [weather, '--stdio'], measure: `stdio cold start of samples/weather, Node ${major}`, goal: 1.5 },
    sdk: { label: 'McpServer + zod 4', args: [join(__dirname, 'fixtures', 'sdk-weather.js')] },
    floor: { label: 'floor (bare node, constants)', args: [join(__dirname, 'fixtures', 'stdio-floor.js')] },
  });
  const major = process.versions.node.split('.')[0];
  await compareColdStarts(
    `stdio cold start, samples/weather, Node ${process.versions.node}: spawn, initialize, tools/list answered`,
    weatherServers(major),
    2,
  );
  const node24 = nodeBinary('24');
  if (major === '24') console.log('\nThe bench runs on Node 24: no second Node 24 round.');
  else if (node24 === undefined) console.log('\nNode 24 round skipped: `npx -y -p node@24` could not provide a node binary.');
  else {
    const title = 'stdio cold start, samples/weather, Node 24: spawn, initialize, tools/list answered';
    await compareColdStarts(title, weatherServers('24'), 2, node24);
  }
  await signupColdStarts();

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
  const fixture = join(__dirname, 'fixtures', 'many-tools-stdio.js');
  const servers = {
    ours: { label: 'ours', args: [fixture, 'ours'], measure: '1,000 tools, stdio cold start as a whole process' },
    sdk: { label: 'McpServer + zod 4', args: [fixture, 'sdk'] },
    floor: { label: 'floor (bare node, constants)', args: [join(__dirname, 'fixtures', 'stdio-floor.js'), '1000'] },
  };
  await compareColdStarts('1,000 tools over stdio, whole process: spawn, initialize, tools/list answered', servers, 1000);
}

/**
 * Issue 39: the signup server (bench/fixtures/signup), whose three tools take class-validator DTOs, started as
 * a user's project starts it (the package from `node_modules/onemodelcontext`), on the node running the bench:
 * the package imported before class-validator, class-validator before the package (as sorted imports put it in a
 * single-file server), the same tools with our own decorators, and McpServer + zod 4.
 */
async function signupColdStarts(): Promise<void> {
  const dir = signupProject();
  const major = process.versions.node.split('.')[0];
  const measure = (order: string) => `stdio cold start, class-validator DTOs, ${order}, Node ${major}`;
  const servers = {
    oursFirst: { label: 'ours, package imported first', args: [join(dir, 'ours-first.js')], measure: measure('package first'), goal: 1.5 },
    validatorFirst: {
      label: 'ours, class-validator imported first',
      args: [join(dir, 'validator-first.js')],
      measure: measure('class-validator first'),
      goal: 1.5,
    },
    own: {
      label: 'ours, own decorators',
      args: [join(dir, 'own.js')],
      measure: `stdio cold start, own decorators, Node ${major}`,
      goal: 2,
    },
    sdk: { label: 'McpServer + zod 4', args: [join(dir, 'sdk.js')] },
    floor: { label: 'floor (bare node, constants)', args: [join(__dirname, 'fixtures', 'stdio-floor.js'), '3'] },
    // What no server that requires class-validator before the package can beat: the floor after its eager load.
    bound: {
      label: 'floor after require(class-validator)',
      args: ['-r', require.resolve('class-validator'), join(__dirname, 'fixtures', 'stdio-floor.js'), '3'],
      measure: `stdio floor after require('class-validator'), Node ${major}`,
    },
  };
  const title = `stdio cold start, signup server (class-validator DTOs), Node ${process.versions.node}: spawn, initialize, tools/list answered`;
  await compareColdStarts(title, servers, 3);
  if (callgrindAvailable()) countedStarts(servers, 3);
  else console.log('\nInstructions per start skipped: valgrind is not installed (Debian package `valgrind`) or BENCH_INSTRUCTIONS=off.');
}

/**
 * The same starts counted in machine instructions (bench/fixtures/instructions.ts), which the machine's load
 * moves far less than the clock: for information beside the wall-clock goals, and the judge of what an import
 * order leaves to the package (the bound: the floor after class-validator's eager load).
 */
function countedStarts(contenders: Readonly<Record<string, Contender>> & { readonly sdk: Contender }, tools: number): void {
  const names = Object.keys(contenders);
  const runs = Object.fromEntries(names.map((name) => [name, [] as number[]]));
  for (let round = 0; round < COUNTED_ROUNDS; round++) {
    for (const name of names) runs[name].push(instructionsPerStart(process.execPath, contenders[name].args, tools));
  }
  const counts = Object.fromEntries(names.map((name) => [name, median(runs[name])]));
  console.log(
    `\nThe same starts in instructions, spawn to exit (callgrind, --single-threaded, median of ${COUNTED_ROUNDS} processes each)`,
  );
  for (const [name, count] of Object.entries(counts)) {
    const ratio = (counts.sdk / count).toFixed(2);
    console.log(`  ${contenders[name].label.padEnd(38)} ${(count / 1e6).toFixed(1).padStart(8)} M   McpServer / this ${ratio}x`);
  }
  for (const [name, { measure }] of Object.entries(contenders)) {
    if (measure === undefined) continue;
    recordGoal({
      measure: `${measure}, instructions (McpServer / ours)`,
      ours: `${(counts[name] / 1e6).toFixed(0)} M`,
      baseline: `${(counts.sdk / 1e6).toFixed(0)} M`,
      floor: `${(counts.floor / 1e6).toFixed(0)} M`,
      ratio: counts.sdk / counts[name],
    });
  }
}

/**
 * The compiled signup fixtures as a project of their own: a package.json of another name, so that
 * `require('onemodelcontext')` is not read as dist-bench's self-reference, and `node_modules/onemodelcontext`
 * linking this repository, as an installed package would be.
 */
function signupProject(): string {
  const dir = join(__dirname, 'fixtures', 'signup');
  writeFileSync(join(dir, 'package.json'), '{ "name": "signup-bench", "private": true }\n');
  const modules = join(dir, 'node_modules');
  if (!existsSync(join(modules, 'onemodelcontext'))) {
    mkdirSync(modules, { recursive: true });
    symlinkSync(ROOT, join(modules, 'onemodelcontext'), 'dir');
  }
  return dir;
}

/** One server of a cold-start comparison: its label in the table, the arguments to node, and its goal vs McpServer. */
interface Contender {
  readonly label: string;
  readonly args: readonly string[];
  /** The measure its goal rows are recorded under; the SDK's server and the floor have none. */
  readonly measure?: string;
  readonly goal?: number;
}

/**
 * Cold starts of the servers, interleaved round by round, medians: the wall clock to the first listing
 * (the goal, when there is one) and, for information, the CPU time each process used from spawn to exit
 * after that listing, which a loaded machine skews less. `sdk` is the baseline, `floor` bare node.
 */
async function compareColdStarts(
  title: string,
  contenders: Readonly<Record<string, Contender>> & { readonly sdk: Contender; readonly floor: Contender },
  tools: number,
  node = process.execPath,
): Promise<void> {
  const names = Object.keys(contenders);
  const cold = Object.fromEntries(names.map((name) => [name, [] as Start[]]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of names) cold[name].push(await coldStart(contenders[name].args, tools, node));
  }
  const wall = (name: string) => median(cold[name].map((c) => c.ms));
  const cpu = (name: string) => median(cold[name].map((c) => c.cpuMs));
  const modules = (name: string) => `${String(median(cold[name].map((c) => c.modules))).padStart(4)} modules at the first answer`;
  console.log(`\n${title} (median of ${ROUNDS} processes each; CPU: user + system, spawn to exit)`);
  for (const name of names) {
    const label = contenders[name].label.padEnd(34);
    console.log(`  ${label} ${wall(name).toFixed(1).padStart(8)} ms   CPU ${cpu(name).toFixed(1).padStart(8)} ms  ${modules(name)}`);
  }
  for (const name of names) {
    const { measure, goal } = contenders[name];
    if (measure === undefined) continue;
    const row = (of: typeof wall) => ({
      ours: `${of(name).toFixed(0)} ms`,
      baseline: `${of('sdk').toFixed(0)} ms`,
      floor: `${of('floor').toFixed(0)} ms`,
      ratio: of('sdk') / of(name),
    });
    recordGoal({ measure: `${measure} (McpServer time / ours)`, ...row(wall), goal });
    recordGoal({ measure: `${measure}, CPU time (McpServer / ours)`, ...row(cpu) });
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
