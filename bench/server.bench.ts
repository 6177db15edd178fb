import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { Bench } from 'tinybench';
import { sdkManyTools } from './fixtures/baseline';
import { ourManyTools } from './fixtures/ours';
import { RawPeer, type Connectable } from './fixtures/raw-peer';

/**
 * Issue 4's speed goals, side by side in one run: our server versus the same SDK line's McpServer with
 * zod 4, both behind the SDK's own v2 Client.
 *   tools/call round trips (the order tool), in-memory transport: at least 1.5x
 *   tools/call round trips over a stdio child process: at least 1.2x
 *   1,000 tools, start to the first tools/list: at least 5x
 *   1,000 tools, repeated tools/list: at least 10x
 */


async function inMemoryClient(server: Connectable): Promise<Client> {
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  await server.connect(serverEnd);
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(clientEnd);
  return client;
}


function report(title: string, goal: number, rows: readonly [string, number][]): void {
  const [[, ours], [, sdk]] = rows;
  console.log(`\n${title}`);
  for (const [name, ms] of rows) console.log(`  ${name.padEnd(34)} ${ms.toFixed(3).padStart(10)} ms`);
  const ratio = sdk / ours;
  console.log(`  ratio (McpServer+zod / ours)       ${ratio.toFixed(2).padStart(10)}x  (goal: at least ${goal}x) ${ratio >= goal ? 'met' : 'NOT MET'}`);
}

/**
 * Each measurement runs alone in a child process, alternating between the servers, and the median of the
 * rounds is reported. The floor is a low-level SDK `Server` listing the same tool and answering a constant
 * without reading anything: the SDK's own cost per round trip, which no server behind it can go below.
 */
function roundTrips(title: string, goal: number, over: 'memory' | 'stdio' | 'raw'): void {
  const rounds = { ours: [] as number[], sdk: [] as number[], floor: [] as number[] };
  for (let round = 0; round < 7; round++) {
    for (const name of ['ours', 'sdk', 'floor'] as const) {
      const out = execFileSync(process.execPath, [join(__dirname, 'fixtures', 'round-trip.js'), name, over], { encoding: 'utf8' });
      rounds[name].push(Number(out));
    }
  }
  report(title, goal, [
    ['ours', median(rounds.ours)],
    ['McpServer + zod 4', median(rounds.sdk)],
  ]);
  const floor = median(rounds.floor);
  console.log(`  SDK floor (Server answering a constant) ${floor.toFixed(3).padStart(6)} ms: at most ${(median(rounds.sdk) / floor).toFixed(2)}x is possible here`);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
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

  roundTrips('tools/call round trip through the SDK v2 Client, order tool (10 lines), in-memory transport (median of 7 processes each)', 1.5, 'memory');

  roundTrips('  the same through a raw JSON-RPC peer, in-memory (the server side alone; for information)', 1.5, 'raw');

  roundTrips('tools/call round trip through the SDK v2 Client, order tool (10 lines), stdio child process (median of 7 processes each)', 1.2, 'stdio');

  const cold = { ours: [] as number[], sdk: [] as number[] };
  for (let round = 0; round < 7; round++) {
    for (const name of ['ours', 'sdk'] as const) {
      cold[name].push(Number(execFileSync(process.execPath, [join(__dirname, 'fixtures', 'first-listing.js'), name], { encoding: 'utf8' })));
    }
  }
  report('1,000 tools: construct, register, connect, initialize, first tools/list, in a fresh process (cold start, median of 7)', 5, [
    ['ours', median(cold.ours)],
    ['McpServer + zod 4', median(cold.sdk)],
  ]);

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
  report('  the same in one warmed-up process, raw JSON-RPC peer (median of 7 after 5 warm-up builds; for information)', 5, [
    ['ours', median(first.ours)],
    ['McpServer + zod 4', median(first.sdk)],
  ]);
  report('  the same through the SDK v2 Client (it validates all 1,000 tools with zod; for information)', 5, [
    ['ours', median(first.oursClient)],
    ['McpServer + zod 4', median(first.sdkClient)],
  ]);

  const peers = [await RawPeer.open(ourManyTools(1000)), await RawPeer.open(sdkManyTools(1000))] as const;
  const raw = new Bench({ time: 3000, warmup: true });
  raw.add('ours', async () => void (await peers[0].listTools())).add('McpServer + zod 4', async () => void (await peers[1].listTools()));
  await raw.run();
  report('1,000 tools: repeated tools/list, raw JSON-RPC peer: mean latency', 10, raw.tasks.map((t) => [t.name, t.result && 'latency' in t.result ? t.result.latency.mean : NaN]));
  await Promise.all(peers.map((p) => p.close()));

  const clients = [await inMemoryClient(ourManyTools(1000)), await inMemoryClient(sdkManyTools(1000))] as const;
  const list = (client: Client) => async () => {
    await client.listTools(undefined, { cacheMode: 'bypass' });
  };
  const viaClient = new Bench({ time: 3000, warmup: true });
  viaClient.add('ours', list(clients[0])).add('McpServer + zod 4', list(clients[1]));
  await viaClient.run();
  report('  the same through the SDK v2 Client (for information)', 10, viaClient.tasks.map((t) => [t.name, t.result && 'latency' in t.result ? t.result.latency.mean : NaN]));
  await Promise.all(clients.map((c) => c.close()));
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
