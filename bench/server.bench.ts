import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { Bench } from 'tinybench';
import { sdkManyTools } from './fixtures/baseline';
import { ourManyTools } from './fixtures/ours';
import { RawPeer, type Connectable } from './fixtures/raw-peer';
import { median, recordGoal } from './fixtures/goals';

/**
 * Issues 4 and 16's speed goals, side by side in one run: our server versus the same SDK line's McpServer
 * with zod 4, both behind the SDK's own v2 Client.
 *   tools/call round trips (the order tool), in-memory transport: at least 1.5x
 *   tools/call round trips over a stdio child process: at least 1.5x
 *   1,000 tools, cold start to the first tools/list: at least 5x. "Cold start" as issue 16 measured it: a fresh
 *   process (modules loaded, nothing compiled by the JIT yet) from constructing the server to the first listing.
 *   The whole process (spawn to the first listing over stdio) is in bench/startup.bench.ts, for information.
 *   1,000 tools, repeated tools/list: at least 10x
 * Rows marked "for information" are printed but are no goal.
 */

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

async function inMemoryClient(server: Connectable): Promise<Client> {
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  await server.connect(serverEnd);
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(clientEnd);
  return client;
}

function report(title: string, goal: number | undefined, rows: readonly [string, number][], measure = title, floor?: number): void {
  const [[, ours], [, sdk]] = rows;
  console.log(`\n${title}`);
  for (const [name, ms] of rows) console.log(`  ${name.padEnd(34)} ${ms.toFixed(3).padStart(10)} ms`);
  const ms = (x: number) => `${x.toFixed(3)} ms`;
  recordGoal({ measure, ours: ms(ours), baseline: ms(sdk), floor: floor === undefined ? undefined : ms(floor), ratio: sdk / ours, goal });
}

/**
 * Each measurement runs alone in a child process, alternating between the servers, and the median of the
 * rounds is reported. The floor is a low-level SDK `Server` listing the same tool and answering a constant
 * without reading anything: the SDK's own cost per round trip, which no server behind it can go below.
 */
function roundTrips(title: string, goal: number | undefined, over: 'memory' | 'stdio' | 'raw' | 'stdio-raw', measure: string): void {
  const rounds = { ours: [] as number[], sdk: [] as number[], floor: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of ['ours', 'sdk', 'floor'] as const) {
      const out = execFileSync(process.execPath, [join(__dirname, 'fixtures', 'round-trip.js'), name, over], { encoding: 'utf8' });
      rounds[name].push(Number(out));
    }
  }
  const floor = median(rounds.floor);
  report(
    title,
    goal,
    [
      ['ours', median(rounds.ours)],
      ['McpServer + zod 4', median(rounds.sdk)],
    ],
    measure,
    floor,
  );
  console.log(
    `  SDK floor (Server answering a constant) ${floor.toFixed(3).padStart(6)} ms: at most ${(median(rounds.sdk) / floor).toFixed(2)}x is possible here`,
  );
}

async function firstListing(make: () => Connectable): Promise<number> {
  const start = performance.now();
  const peer = await RawPeer.open(make());
  const count = await peer.listTools();
  const ms = performance.now() - start;
  if (count !== 1000) throw new Error(`listed ${count} tools`);
  await peer.close();
  return ms;
}

async function firstListingViaClient(make: () => Connectable): Promise<number> {
  const start = performance.now();
  const client = await inMemoryClient(make());
  const { tools } = await client.listTools();
  const ms = performance.now() - start;
  if (tools.length !== 1000) throw new Error(`listed ${tools.length} tools`);
  await client.close();
  return ms;
}

async function main(): Promise<void> {
  console.log('Server benchmark (issue 4): our server vs the SDK McpServer with zod 4');

  roundTrips(
    `tools/call round trip through the SDK v2 Client, order tool (10 lines), in-memory transport (median of ${ROUNDS} processes each)`,
    1.5,
    'memory',
    'tools/call round trip, in-memory, SDK v2 Client',
  );

  roundTrips(
    '  the same through a raw JSON-RPC peer, in-memory (the server side alone)',
    undefined,
    'raw',
    'tools/call round trip, in-memory, raw JSON-RPC peer',
  );

  roundTrips(
    `tools/call round trip through the SDK v2 Client, order tool (10 lines), stdio child process (median of ${ROUNDS} processes each)`,
    1.5,
    'stdio',
    'tools/call round trip, stdio child process, SDK v2 Client',
  );

  roundTrips(
    '  the same through a raw JSON-RPC peer on the pipes (the server process alone)',
    undefined,
    'stdio-raw',
    'tools/call round trip, stdio child process, raw JSON-RPC peer',
  );

  const cold = { ours: [] as number[], sdk: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of ['ours', 'sdk'] as const) {
      cold[name].push(
        Number(execFileSync(process.execPath, [join(__dirname, 'fixtures', 'first-listing.js'), name], { encoding: 'utf8' })),
      );
    }
  }
  report(
    `1,000 tools: construct, register, connect, initialize, first tools/list, in a fresh process (cold start, median of ${ROUNDS})`,
    5,
    [
      ['ours', median(cold.ours)],
      ['McpServer + zod 4', median(cold.sdk)],
    ],
    '1,000 tools, cold start to the first tools/list',
  );

  // The same in one process after five warm-up builds each, so the JIT has compiled both libraries.
  const first = { ours: [] as number[], sdk: [] as number[], oursClient: [] as number[], sdkClient: [] as number[] };
  for (let i = 0; i < 12; i++) {
    const ours = await firstListing(() => ourManyTools(1000));
    const sdk = await firstListing(() => sdkManyTools(1000));
    const oursClient = await firstListingViaClient(() => ourManyTools(1000));
    const sdkClient = await firstListingViaClient(() => sdkManyTools(1000));
    if (i < 5) continue;
    first.ours.push(ours);
    first.sdk.push(sdk);
    first.oursClient.push(oursClient);
    first.sdkClient.push(sdkClient);
  }
  report(
    '  the same in one warmed-up process, raw JSON-RPC peer (median of 7 after 5 warm-up builds)',
    undefined,
    [
      ['ours', median(first.ours)],
      ['McpServer + zod 4', median(first.sdk)],
    ],
    '1,000 tools, first tools/list in a warmed-up process',
  );
  report(
    '  the same through the SDK v2 Client (it validates all 1,000 tools with zod)',
    undefined,
    [
      ['ours', median(first.oursClient)],
      ['McpServer + zod 4', median(first.sdkClient)],
    ],
    '1,000 tools, first tools/list in a warmed-up process, SDK v2 Client',
  );

  const peers = [await RawPeer.open(ourManyTools(1000)), await RawPeer.open(sdkManyTools(1000))] as const;
  const raw = new Bench({ time: 1500, warmup: true });
  raw.add('ours', async () => void (await peers[0].listTools())).add('McpServer + zod 4', async () => void (await peers[1].listTools()));
  await raw.run();
  report(
    '1,000 tools: repeated tools/list, raw JSON-RPC peer: mean latency',
    10,
    raw.tasks.map((t) => [t.name, t.result && 'latency' in t.result ? t.result.latency.mean : NaN]),
    '1,000 tools, repeated tools/list',
  );
  await Promise.all(peers.map((p) => p.close()));

  const clients = [await inMemoryClient(ourManyTools(1000)), await inMemoryClient(sdkManyTools(1000))] as const;
  const list = (client: Client) => async () => {
    await client.listTools(undefined, { cacheMode: 'bypass' });
  };
  const viaClient = new Bench({ time: 1500, warmup: true });
  viaClient.add('ours', list(clients[0])).add('McpServer + zod 4', list(clients[1]));
  await viaClient.run();
  report(
    '  the same through the SDK v2 Client',
    undefined,
    viaClient.tasks.map((t) => [t.name, t.result && 'latency' in t.result ? t.result.latency.mean : NaN]),
    '1,000 tools, repeated tools/list, SDK v2 Client',
  );
  await Promise.all(clients.map((c) => c.close()));
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
