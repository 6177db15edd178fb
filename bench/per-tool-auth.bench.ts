import 'reflect-metadata';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { Bench } from 'tinybench';
import { Int32, McpServer, type AuthorizeItem } from '../src';
import { anonymousAuthInfo, sdkAuthInfoOf, withEndpoint, type EndpointAuth } from '../src/server/auth/caller';
import { Unit } from './fixtures/baseline';
import { RawPeer } from './fixtures/raw-peer';

/**
 * The listing cost per request with per-tool authorization (issue 26): 1,000 tools, every 10th public, each
 * other needing one of four scopes; repeated tools/list on the in-memory transport with the caller's AuthInfo
 * attached exactly as the HTTP layer attaches it (the endpoint's auth options ride along). Side by side:
 *   no auth at all: the precomputed listing, what the rest is measured against
 *   a caller filtered by scopes, with securitySchemes on every tool
 *   an anonymous caller (allowAnonymous): the public tools
 *   the same caller with auth.authorize, synchronous and asynchronous (a claim refuses the tools whose number ends in 2)
 * The policy is asked once per listed entry on every request (it may answer differently per caller); the
 * answers pick a listing built once per distinct answer set, so the cost is the policy calls, not the building.
 */

const SCOPES = ['s0', 's1', 's2', 's3'];
const RESOURCE = 'https://mcp.example.com/mcp';

function ourTools(count: number): McpServer {
  const server = new McpServer({ name: 'per-tool-auth', version: '1.0.0' }, { logger: false });
  for (let i = 0; i < count; i++) {
    const access = i % 10 === 0 ? { public: true } : { scopes: [SCOPES[i % SCOPES.length]] };
    server.tool(
      `forecast_${i}`,
      {
        description: `Forecast number ${i}`,
        params: {
          city: { type: String, description: 'City name' },
          days: { type: Int32, default: 3 },
          unit: { type: Unit, default: Unit.Celsius },
        },
        ...access,
      },
      ({ city }) => String(city),
    );
  }
  return server;
}

const refusedByClaim = (caller: { claims: Readonly<Record<string, unknown>> } | undefined, item: AuthorizeItem) =>
  caller?.claims.tier === 'gold' || !item.name.endsWith('2');
const syncPolicy = (caller: Parameters<typeof refusedByClaim>[0], item: AuthorizeItem) => refusedByClaim(caller, item);
const asyncPolicy = async (caller: Parameters<typeof refusedByClaim>[0], item: AuthorizeItem) => refusedByClaim(caller, item);

function callerOn(endpoint: EndpointAuth): AuthInfo {
  const caller = {
    subject: 'u1',
    clientId: 'bench',
    scopes: ['s0', 's2'],
    expiresAt: Math.floor(Date.now() / 1000) + 3600,
    claims: { tier: 'silver' },
  };
  return withEndpoint(sdkAuthInfoOf('bench', caller, RESOURCE), endpoint);
}

async function main(): Promise<void> {
  console.log('Per-tool authorization benchmark (issue 26): repeated tools/list, 1,000 tools, in-memory');
  const ours = ourTools(1000);
  const plain: EndpointAuth = { baseScopes: ['mcp'], allowAnonymous: true };
  const peers = {
    none: await RawPeer.open(ours),
    scoped: await RawPeer.open(ours, callerOn(plain)),
    anonymous: await RawPeer.open(ours, withEndpoint(anonymousAuthInfo(RESOURCE), plain)),
    sync: await RawPeer.open(ours, callerOn({ ...plain, authorize: syncPolicy })),
    async: await RawPeer.open(ours, callerOn({ ...plain, authorize: asyncPolicy })),
  };
  // Tools 0, 10, 20 ... are public; of the others, those needing s0 or s2 (even i) are granted: 100 + 400.
  const listed = (peer: RawPeer, expected: number) => async () => {
    const count = await peer.listTools();
    if (count !== expected) throw new Error(`listed ${count} tools, expected ${expected}`);
  };
  const bench = new Bench({ time: 3000, warmup: true });
  bench
    .add('no auth (1,000 listed)', listed(peers.none, 1000))
    .add('scopes + securitySchemes (500 listed)', listed(peers.scoped, 500))
    .add('anonymous, public only (100 listed)', listed(peers.anonymous, 100))
    .add('scopes + sync authorize (400 listed)', listed(peers.sync, 400))
    .add('scopes + async authorize (400 listed)', listed(peers.async, 400));
  await bench.run();
  const mean = (name: string) => {
    const result = bench.tasks.find((t) => t.name.startsWith(name))?.result;
    return result && 'latency' in result ? result.latency.mean : NaN;
  };
  console.log('\nmean latency per tools/list');
  for (const task of bench.tasks) console.log(`  ${task.name.padEnd(42)} ${mean(task.name).toFixed(3).padStart(10)} ms`);
  await Promise.all(Object.values(peers).map((p) => p.close()));
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
