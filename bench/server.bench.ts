import 'reflect-metadata';
import { join } from 'node:path';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Bench } from 'tinybench';
import { floorServer, sdkManyTools, sdkOrderServer } from './fixtures/baseline';
import { ourManyTools, ourOrderServer } from './fixtures/ours';
import { validOrder } from './order';

/**
 * Issue 4's speed goals, side by side in one run: our server versus the same SDK line's McpServer with
 * zod 4, both behind the SDK's own v2 Client.
 *   tools/call round trips (the order tool), in-memory transport: at least 1.5x
 *   tools/call round trips over a stdio child process: at least 1.2x
 *   1,000 tools, start to the first tools/list: at least 5x
 *   1,000 tools, repeated tools/list: at least 10x
 */

type Connectable = { connect(transport: InMemoryTransport): Promise<void> };

async function inMemoryClient(server: Connectable): Promise<Client> {
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  await server.connect(serverEnd);
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(clientEnd);
  return client;
}

async function stdioClient(which: 'ours' | 'sdk' | 'floor'): Promise<Client> {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [join(__dirname, 'fixtures', 'stdio-server.js'), which] }));
  return client;
}

const args = validOrder();
const call = (client: Client) => async () => {
  const result = await client.callTool({ name: 'place_order', arguments: args });
  if (result.isError) throw new Error(JSON.stringify(result.content));
};

function report(title: string, goal: number, rows: readonly [string, number][]): void {
  const [[, ours], [, sdk]] = rows;
  console.log(`\n${title}`);
  for (const [name, ms] of rows) console.log(`  ${name.padEnd(34)} ${ms.toFixed(3).padStart(10)} ms`);
  const ratio = sdk / ours;
  console.log(`  ratio (McpServer+zod / ours)       ${ratio.toFixed(2).padStart(10)}x  (goal: at least ${goal}x) ${ratio >= goal ? 'met' : 'NOT MET'}`);
}

/**
 * Alternating rounds, so that both servers see the same machine load; the median round wins. The floor is
 * a low-level SDK `Server` whose tools/call answers a constant: the SDK's own cost per round trip on this
 * transport, which neither server can go below.
 */
async function roundTrips(title: string, goal: number, clients: { ours: Client; sdk: Client; floor: Client }): Promise<void> {
  const rounds = { ours: [] as number[], sdk: [] as number[], floor: [] as number[] };
  const names = ['ours', 'sdk', 'floor'] as const;
  for (const name of names) for (let i = 0; i < 300; i++) await call(clients[name])();
  for (let round = 0; round < 15; round++) {
    for (const name of names) {
      const start = performance.now();
      for (let i = 0; i < 200; i++) await call(clients[name])();
      rounds[name].push((performance.now() - start) / 200);
    }
  }
  report(title, goal, [
    ['ours', median(rounds.ours)],
    ['McpServer + zod 4', median(rounds.sdk)],
  ]);
  const floor = median(rounds.floor);
  console.log(`  SDK floor (Server answering a constant) ${floor.toFixed(3).padStart(6)} ms: at most ${(median(rounds.sdk) / floor).toFixed(2)}x is possible through this client`);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * A bare JSON-RPC peer on the in-memory transport: what the listing benchmarks use, so that they time the
 * server (and the transport), not the SDK Client's zod validation of 1,000 tools, which both sides pay
 * alike and which dominates through the SDK Client.
 */
class RawPeer {
  private next = 1;
  private readonly pending = new Map<number, (message: unknown) => void>();

  private constructor(private readonly end: InMemoryTransport) {
    end.onmessage = (message) => {
      const id = (message as { id?: number }).id;
      if (typeof id === 'number') this.pending.get(id)?.(message);
    };
  }

  static async open(server: Connectable): Promise<RawPeer> {
    const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
    const peer = new RawPeer(clientEnd);
    await clientEnd.start();
    await server.connect(serverEnd);
    await peer.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } });
    await clientEnd.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return peer;
  }

  request(method: string, params: Record<string, unknown> = {}): Promise<{ result?: { tools?: unknown[] } }> {
    const id = this.next++;
    return new Promise((resolve) => {
      this.pending.set(id, (message) => {
        this.pending.delete(id);
        resolve(message as { result?: { tools?: unknown[] } });
      });
      void this.end.send({ jsonrpc: '2.0', id, method, params });
    });
  }

  async callOrder(): Promise<void> {
    const response = (await this.request('tools/call', { name: 'place_order', arguments: args })) as { result?: { isError?: boolean } };
    if (!response.result || response.result.isError) throw new Error(JSON.stringify(response));
  }

  async listTools(): Promise<number> {
    const response = await this.request('tools/list');
    return response.result?.tools?.length ?? -1;
  }

  close(): Promise<void> {
    return this.end.close();
  }
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

  const memory = { ours: await inMemoryClient(ourOrderServer()), sdk: await inMemoryClient(sdkOrderServer()), floor: await inMemoryClient(floorServer()) };
  await roundTrips('tools/call round trip through the SDK v2 Client, order tool (10 lines), in-memory transport (median of 15 rounds)', 1.5, memory);
  await Promise.all(Object.values(memory).map((c) => c.close()));

  const orderPeers = { ours: await RawPeer.open(ourOrderServer()), sdk: await RawPeer.open(sdkOrderServer()), floor: await RawPeer.open(floorServer()) };
  const perRound = { ours: [] as number[], sdk: [] as number[], floor: [] as number[] };
  for (let round = 0; round < 15; round++) {
    for (const name of ['ours', 'sdk', 'floor'] as const) {
      const start = performance.now();
      for (let i = 0; i < 300; i++) await orderPeers[name].callOrder();
      perRound[name].push((performance.now() - start) / 300);
    }
  }
  report('  the same through a raw JSON-RPC peer (the server side alone; for information)', 1.5, [
    ['ours', median(perRound.ours)],
    ['McpServer + zod 4', median(perRound.sdk)],
  ]);
  console.log(`  SDK floor (Server answering a constant) ${median(perRound.floor).toFixed(3).padStart(6)} ms`);
  await Promise.all(Object.values(orderPeers).map((p) => p.close()));

  const stdio = { ours: await stdioClient('ours'), sdk: await stdioClient('sdk'), floor: await stdioClient('floor') };
  await roundTrips('tools/call round trip through the SDK v2 Client, order tool (10 lines), stdio child process (median of 15 rounds)', 1.2, stdio);
  await Promise.all(Object.values(stdio).map((c) => c.close()));

  const first = { ours: [] as number[], sdk: [] as number[], oursClient: [] as number[], sdkClient: [] as number[] };
  for (let i = 0; i < 7; i++) {
    first.ours.push(await firstListing(() => ourManyTools(1000)));
    first.sdk.push(await firstListing(() => sdkManyTools(1000)));
    first.oursClient.push(await firstListingViaClient(() => ourManyTools(1000)));
    first.sdkClient.push(await firstListingViaClient(() => sdkManyTools(1000)));
  }
  report('1,000 tools: construct, register, connect, initialize, first tools/list, raw JSON-RPC peer (median of 7)', 5, [
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
