import fc from 'fast-check';
import { McpServer } from '../../src';
import type { Schema } from '../support/json-schema';
import { define, objectOf } from '../support/differential/arguments';
import { STANDARD_INPUTS, StandardTools } from '../support/differential/standard';
import { BATCH, ajv, runs, seed, verdict } from '../support/differential/judge';
import { absentCounterpart, fromGemini, strictShaped, type Listed } from '../support/differential/profiles';

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

/**
 * Under each provider profile (DESIGN.md section 11): arguments generated from the profile's listing and from the exact
 * one (under 'openai-strict' also shaped as strict mode sends them, `null` for each optional property left out) are
 * read with `callTool(name, args, { listing })`. Reading must give the exact verdict on the same arguments with each
 * `null` that stands for an absent property left out (the library's validate judges, what the profile says in words
 * included), and whatever it accepts the profile's listing must accept too, but for the named differences of
 * test/support/differential/profiles.ts: 'left out' and 'open records' under 'openai-strict'.
 */
describe('differential: Standard Schema reading under each provider profile', () => {
  const perProfile = Math.ceil(runs / 12);

  /** A strict listing without what 'left out' and 'open records' let through: no `required`, no closed objects. */
  function relaxed(s: unknown): unknown {
    if (Array.isArray(s)) return s.map(relaxed);
    if (typeof s !== 'object' || s === null) return s;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(s)) {
      if (k === 'required' || (k === 'additionalProperties' && v === false)) continue;
      define(out, k, k === 'properties' ? Object.fromEntries(Object.entries(v as object).map(([n, p]) => [n, relaxed(p)])) : relaxed(v));
    }
    return out;
  }

  it.each(['gemini', 'openai-strict'] as const)(
    `%s: agrees on ${perProfile} generated calls (seed ${seed})`,
    async (profile) => {
      const listedServer = serverOf();
      const judged = listedServer.listTools({ listing: profile }).map((listing) => {
        const exact = tools.find((t) => t.name === listing.name)!;
        const e = server.listTools().find((t) => t.name === listing.name)!.inputSchema as Schema;
        const p = profile === 'gemini' ? fromGemini(listing.inputSchema as Listed) : (listing.inputSchema as Schema);
        const fromProfile = objectOf(p, 0);
        const fromExact = objectOf(e, 0);
        const args =
          profile === 'openai-strict'
            ? fc.oneof(
                fromProfile,
                fromExact,
                fromExact.map((a) => strictShaped(a, e)),
              )
            : fc.oneof(fromProfile, fromExact);
        return {
          name: listing.name,
          e,
          exact,
          profileAccepts: ajv.compile((profile === 'openai-strict' ? relaxed(p) : p) as Schema),
          args,
        };
      });
      const cases = fc.oneof(...judged.map((t) => t.args.map((a) => ({ t, text: JSON.stringify(a) ?? 'null' }))));
      const tally = { accepted: 0, refused: 0, absentNulls: 0 };
      await fc.assert(
        fc.asyncProperty(fc.array(cases, { minLength: BATCH, maxLength: BATCH }), async (batch) => {
          for (const { t, text } of batch) {
            const absent = profile === 'openai-strict' ? absentCounterpart(JSON.parse(text), t.e) : JSON.parse(text);
            const expected = t.exact.contract(absent) ? 'accepted' : 'refused';
            const ours = await listedServer.callTool(t.name, JSON.parse(text), { listing: profile });
            if (verdict(ours) !== expected)
              throw new Error(
                `${profile} ${t.name} ${text}: exact ajv on ${JSON.stringify(absent)} ${expected}, reading ${verdict(ours)} (${JSON.stringify(ours.content)})`,
              );
            if (expected === 'accepted' && !t.profileAccepts(JSON.parse(text)))
              throw new Error(`${profile} ${t.name} ${text}: reading accepted what the '${profile}' listing refuses`);
            tally[expected]++;
            if (expected === 'accepted' && JSON.stringify(absent) !== text) tally.absentNulls++;
          }
        }),
        { seed, numRuns: Math.ceil(perProfile / BATCH) },
      );
      const total = tally.accepted + tally.refused;
      expect(tally.accepted).toBeGreaterThan(total / 10);
      expect(tally.refused).toBeGreaterThan(total / 10);
      if (profile === 'openai-strict') expect(tally.absentNulls).toBeGreaterThan(0);
      process.stdout.write(
        `standard schema profile differential (${profile}): ${total} cases (seed ${seed}), ${tally.accepted} accepted, ${tally.refused} refused` +
          (profile === 'openai-strict' ? `, ${tally.absentNulls} accepted with a null read as absent` : '') +
          '\n',
      );
    },
    600_000,
  );
});
