import fc from 'fast-check';
import { McpServer } from '../../src';
import type { Schema } from '../support/json-schema';
import { define, objectOf } from '../support/differential/arguments';
import { STANDARD_INPUTS, StandardTools } from '../support/differential/standard';
import { BATCH, ajv, runs, seed, verdict } from '../support/differential/judge';

/**
 * The listing is the contract for Standard Schemas too (DESIGN.md sections 2 and 6): arguments generated from each
 * LISTED inputSchema (the library's JSON Schema inside ours, or as all of it) are judged by ajv 2020-12 + ajv-formats
 * and by `callTool` (the library's `~standard.validate`), on the same JSON text. Counted apart from the class
 * declarations (test/invoke/differential.test.ts), a quarter of `READER_FUZZ_RUNS`.
 */

function serverOf(): McpServer {
  const server = new McpServer({ name: 'differential', version: '1' }, { logger: false }).add(new StandardTools());
  for (const [name, input] of Object.entries(STANDARD_INPUTS)) server.tool(name, { input }, () => 'ok');
  return server;
}

/**
 * The listing with the libraries' own differences written into it (docs/reading-and-results.md, "Standard Schema"):
 * zod's `z.record` skips a `__proto__` key (its value never reaches the method), so any value is read there.
 */
function contractOf(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(contractOf);
  if (typeof s !== 'object' || s === null) return s;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s))
    define(
      out,
      k,
      k === 'properties' ? Object.fromEntries(Object.entries(v as object).map(([n, p]) => [n, contractOf(p)])) : contractOf(v),
    );
  const o = s as Schema & { propertyNames?: unknown };
  if (o.propertyNames !== undefined && typeof o.additionalProperties === 'object') out.patternProperties = { '^__proto__$': true };
  return out;
}

const server = serverOf();
const tools = server.listTools().map((listing) => {
  const schema = listing.inputSchema as Schema;
  return {
    name: listing.name,
    listed: ajv.compile(schema),
    contract: ajv.compile(contractOf(schema) as Schema),
    args: objectOf(schema, 0),
  };
});
const cases = fc.oneof(...tools.map((t) => t.args.map((args) => ({ tool: t.name, text: JSON.stringify(args) ?? 'null' }))));

describe('differential: Standard Schema reading agrees with ajv 2020-12 + ajv-formats on the listed schemas', () => {
  const total = Math.ceil(runs / 4);

  it(`agrees on ${total} generated calls (seed ${seed})`, async () => {
    const counts = { accepted: 0, refused: 0 };
    let deliberate = 0;
    const acceptedBy = new Set<string>();
    await fc.assert(
      fc.asyncProperty(fc.array(cases, { minLength: BATCH, maxLength: BATCH }), async (batch) => {
        for (const { tool, text } of batch) {
          const t = tools.find((x) => x.name === tool)!;
          const expected = t.contract(JSON.parse(text)) ? 'accepted' : 'refused';
          if (t.listed(JSON.parse(text)) !== (expected === 'accepted')) deliberate++;
          const ours = await server.callTool(tool, JSON.parse(text));
          if (verdict(ours) !== expected)
            throw new Error(`${tool} ${text}: ajv ${expected}, reading ${verdict(ours)} (${JSON.stringify(ours.content)})`);
          counts[expected]++;
          if (expected === 'accepted') acceptedBy.add(tool);
        }
      }),
      { seed, numRuns: Math.ceil(total / BATCH) },
    );
    const n = counts.accepted + counts.refused;
    expect(n).toBeGreaterThanOrEqual(total);
    expect(counts.accepted).toBeGreaterThan(n / 10);
    expect(counts.refused).toBeGreaterThan(n / 10);
    expect(tools.map((t) => t.name).filter((name) => !acceptedBy.has(name))).toEqual([]);
    process.stdout.write(
      `standard schema differential: ${n} cases (seed ${seed}), ${counts.accepted} accepted, ${counts.refused} refused; ${deliberate} where a library's own difference decided\n`,
    );
  }, 600_000);
});
