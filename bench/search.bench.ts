import 'reflect-metadata';
import { performance } from 'node:perf_hooks';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { SearchIndex } from '../src/server/catalog/search';
import type { ToolListing } from '../src/server/catalog/listing';
import { catalogServer, QUESTIONS } from './fixtures/catalog-1000';
import { median, recordGoal } from './fixtures/goals';

/**
 * Issue 41, search-first catalog: 1,000 generated tools (fixtures/catalog-1000.ts) served with `catalog: 'search'`,
 * 50 fixed questions written from the tools' descriptions, each asked once through `search_tools` by a real SDK
 * client in-process (2025-11-25). Goal: the right tool among the 5 answered (recall@5) for at least 90% of the
 * questions, in one call. For information: recall@1, the time per search (a `tools/call` of `search_tools` round
 * trip, and the ranking alone), the index's build, and the size of `tools/list` with and without the catalog.
 */

const REPEATS = 20;

async function connect(catalog: 'all' | 'search'): Promise<Client> {
  const server = catalogServer({ catalog });
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  await server.connect(serverEnd);
  const client = new Client({ name: 'bench', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
  await client.connect(clientEnd);
  return client;
}

async function ranked(client: Client, query: string): Promise<string[]> {
  const result = await client.callTool({ name: 'search_tools', arguments: { query, limit: 5 } });
  const text = (result.content as { text: string }[])[0].text;
  return (JSON.parse(text) as { tools: { name: string }[] }).tools.map((t) => t.name);
}

async function main(): Promise<void> {
  const client = await connect('search');
  const full = await connect('all');
  const listed = await full.listTools();
  const searchListing = await client.listTools();
  const first = performance.now();
  await ranked(client, 'warm the index');
  const build = performance.now() - first;

  let top1 = 0;
  let top5 = 0;
  const misses: string[] = [];
  for (const [question, expected] of QUESTIONS) {
    const names = await ranked(client, question);
    if (names[0] === expected) top1++;
    if (names.includes(expected)) top5++;
    if (names[0] !== expected && process.env.SEARCH_BENCH_VERBOSE)
      console.log(`  not first: "${question}" -> ${expected}; got ${names.join(', ')}`);
    if (!names.includes(expected)) misses.push(`  missed: "${question}" -> ${expected}; got ${names.join(', ')}`);
  }
  const calls: number[] = [];
  for (let r = 0; r < REPEATS; r++) {
    const start = performance.now();
    for (const [question] of QUESTIONS) await ranked(client, question);
    calls.push((performance.now() - start) / QUESTIONS.length);
  }
  const builds: number[] = [];
  for (let r = 0; r < 5; r++) {
    const copy = [...(listed.tools as unknown as ToolListing[])];
    const start = performance.now();
    SearchIndex.of(copy);
    builds.push(performance.now() - start);
  }
  const index = SearchIndex.of(listed.tools as unknown as ToolListing[]);
  const alone: number[] = [];
  for (let r = 0; r < REPEATS; r++) {
    const start = performance.now();
    for (const [question] of QUESTIONS) index.search(question, 5, () => true);
    alone.push((performance.now() - start) / QUESTIONS.length);
  }
  const n = QUESTIONS.length;
  console.log(`\nSearch-first catalog, ${listed.tools.length} tools, ${n} questions (times: medians of ${REPEATS} passes)`);
  console.log(`  recall@1 ${top1}/${n}, recall@5 ${top5}/${n}`);
  for (const miss of misses) console.log(miss);
  console.log(`  first search_tools call (builds the index, cold code): ${build.toFixed(1)} ms`);
  console.log(`  index build alone, warm: ${median(builds).toFixed(1)} ms`);
  console.log(`  search_tools round trip (in-process client): ${(median(calls) * 1000).toFixed(0)} µs per search`);
  console.log(`  ranking alone: ${(median(alone) * 1000).toFixed(0)} µs per search`);
  const sizes = [JSON.stringify(listed.tools).length, JSON.stringify(searchListing.tools).length];
  console.log(`  tools/list: ${sizes[0]} characters with every tool, ${sizes[1]} with catalog: 'search'`);
  recordGoal({
    measure: `search_tools over ${listed.tools.length} tools: recall@5 of ${n} fixed questions (at least 90%)`,
    ours: `${top5}/${n}, recall@1 ${top1}/${n}; ${(median(calls) * 1000).toFixed(0)} µs per search (round trip)`,
    baseline: `${n}/${n}`,
    ratio: top5 / n,
    goal: 0.9,
  });
  recordGoal({
    measure: `tools/list size, catalog: 'search' vs every tool (${listed.tools.length})`,
    ours: `${sizes[1]} characters`,
    baseline: `${sizes[0]} characters`,
    ratio: sizes[0] / sizes[1],
  });
  await Promise.all([client.close(), full.close()]);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
