import 'reflect-metadata';
import { Server, type AuthInfo } from '@modelcontextprotocol/server';
import { Bench } from 'tinybench';
import { Int32, McpServer } from '../src';
import { sdkManyTools, Unit } from './fixtures/baseline';
import { RawPeer } from './fixtures/raw-peer';

/**
 * Repeated tools/list for a caller with scopes (issue 14): 1,000 tools, each needing one of four scopes, listed
 * for a token that grants two of them, on the in-memory transport with the caller's AuthInfo attached as the
 * HTTP layer attaches it. Our server keeps one listing per distinct scope set, so filtering should cost about
 * nothing next to the unfiltered listing. Side by side:
 *   ours, filtered by the caller's scopes
 *   ours, unfiltered (no auth): what filtering is measured against
 *   the SDK's McpServer with zod 4, which lists everything (it cannot filter by caller): the named baseline
 *   a low-level SDK Server filtering its 1,000 entries on every request: what filtering costs without the cache
 */

const SCOPES = ['s0', 's1', 's2', 's3'];
const CALLER: AuthInfo = { token: 'bench', clientId: 'bench', scopes: ['s0', 's2'], expiresAt: Math.floor(Date.now() / 1000) + 3600 };

/** 1,000 quick-path tools like the server benchmark's, tool i needing scope s(i mod 4). */
function ourScopedTools(count: number): McpServer {
  const server = new McpServer({ name: 'ours-scoped', version: '1.0.0' });
  for (let i = 0; i < count; i++) {
    server.tool(
      `forecast_${i}`,
      {
        description: `Forecast number ${i}`,
        params: {
          city: { type: String, description: 'City name' },
          days: { type: Int32, default: 3 },
          unit: { type: Unit, default: Unit.Celsius },
        },
        scopes: [SCOPES[i % SCOPES.length]],
      },
      ({ city }) => String(city),
    );
  }
  return server;
}

/** A low-level SDK Server that filters a prebuilt listing on every request. */
function filteringServer(count: number, listing: readonly { readonly name: string }[]): Server {
  const scopeOf = new Map(listing.map((tool, i) => [tool.name, SCOPES[i % SCOPES.length]]));
  const server = new Server({ name: 'filtering', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', (_req, ctx) => {
    const granted = new Set(ctx.http?.authInfo?.scopes ?? []);
    return { tools: listing.filter((tool) => granted.has(scopeOf.get(tool.name)!)) as never };
  });
  if (listing.length !== count) throw new Error('listing size');
  return server;
}

async function main(): Promise<void> {
  console.log("Auth benchmark (issue 14): repeated tools/list filtered by the caller's scopes, 1,000 tools, in-memory");
  const ours = ourScopedTools(1000);
  const peers = {
    filtered: await RawPeer.open(ours, CALLER),
    unfiltered: await RawPeer.open(ours),
    sdk: await RawPeer.open(sdkManyTools(1000), CALLER),
    perRequest: await RawPeer.open(filteringServer(1000, ours.listTools()), CALLER),
  };
  const listed = (peer: RawPeer, expected: number) => async () => {
    const count = await peer.listTools();
    if (count !== expected) throw new Error(`listed ${count} tools, expected ${expected}`);
  };
  const bench = new Bench({ time: 3000, warmup: true });
  bench
    .add('ours, filtered (500 of 1,000 listed)', listed(peers.filtered, 500))
    .add('McpServer + zod 4 (lists all 1,000)', listed(peers.sdk, 1000))
    .add('ours, unfiltered (no auth, 1,000)', listed(peers.unfiltered, 1000))
    .add('SDK Server filtering per request (500)', listed(peers.perRequest, 500));
  await bench.run();
  const mean = (name: string) => {
    const result = bench.tasks.find((t) => t.name.startsWith(name))?.result;
    return result && 'latency' in result ? result.latency.mean : NaN;
  };
  console.log('\nmean latency per tools/list');
  for (const task of bench.tasks) console.log(`  ${task.name.padEnd(42)} ${mean(task.name).toFixed(3).padStart(10)} ms`);
  const filtered = mean('ours, filtered');
  console.log(`  ratio (McpServer+zod / ours filtered)      ${(mean('McpServer') / filtered).toFixed(2).padStart(10)}x`);
  console.log(
    `  ratio (ours unfiltered / ours filtered)    ${(mean('ours, unfiltered') / filtered).toFixed(2).padStart(10)}x  (filtering keeps the precomputed speed when >= 1)`,
  );
  console.log(`  ratio (per-request filter / ours filtered) ${(mean('SDK Server filtering') / filtered).toFixed(2).padStart(10)}x`);
  const catalog = (ours as unknown as { catalog: { scopedListingCount: number } }).catalog;
  console.log(`  listings kept for scope sets: ${catalog.scopedListingCount}`);
  await Promise.all(Object.values(peers).map((p) => p.close()));
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
