import fc from 'fast-check';
import { McpServer } from '../../src';
import { forceRecordStrategy } from '../../src/invoke/reading/record-reader';
import { toolsOf } from '../../src/schema/members/tools';
import { EXACT_RULE_NAMES } from '../../src/schema/records/validator-rules';
import { validationOf } from '../../src/decorators/foreign';
import type { Schema } from '../support/json-schema';
import { objectOf, oneRuleAtATime } from '../support/differential/arguments';
import { Checked, Tools } from '../support/differential/declarations';
import { BATCH, ajv, contractOf, runs, seed, verdict } from '../support/differential/judge';

/**
 * The listing is the contract (DESIGN.md section 6), checked against the validator clients use: arguments
 * generated from each LISTED inputSchema (valid values, bounds +-1, code-point edges, lone surrogates,
 * extra / missing / null properties, hostile keys, reordered keys in unique arrays) are judged by ajv
 * 2020-12 + ajv-formats and by `callTool`, on the same JSON text, with record readers both generated and
 * interpreted. The only allowed differences are DESIGN.md's deliberate ones, applied to the schema ajv sees
 * (each is also pinned by a test of its own in listing-contract.test.ts).
 *
 * A third class is counted apart: class-validator-only refusals, calls the listing accepts whose built
 * instance class-validator itself refuses, by rule, on a record carrying every exact rule of the table
 * (src/schema/records/validator-rules.ts). It must be 0 for every rule.
 *
 * Seeded in CI. `READER_FUZZ_RUNS=1000000 npx jest test/invoke/differential` runs long with a random seed
 * (or `READER_FUZZ_SEED=n` to replay one); a disagreement fails and prints the smallest case.
 */

// ---- the comparison ----

const generated = new McpServer({ name: 'differential', version: '1' }).add(new Tools());
forceRecordStrategy('interpreted');
const interpreted = new McpServer({ name: 'differential', version: '1' }).add(new Tools());
afterAll(() => forceRecordStrategy(undefined));

const models = new Map(toolsOf(Tools).map(({ model }) => [model.name, model]));
const tools = generated.listTools().map((listing) => {
  const schema = listing.inputSchema as Schema;
  const model = models.get(listing.name)!;
  const contract: Schema = {
    ...schema,
    properties: Object.fromEntries(model.params.map((p) => [p.name, contractOf(schema.properties![p.name], p.type)])),
  };
  // The root is always an object: MCP's `arguments` is an object or left out (the SDK refuses anything else).
  const args = listing.name === 'checked' ? oneRuleAtATime(schema.properties!.checked) : objectOf(schema, 0);
  return { name: listing.name, listed: ajv.compile(schema), contract: ajv.compile(contract), args };
});

const cases = fc.oneof(...tools.map((t) => t.args.map((args) => ({ tool: t.name, text: JSON.stringify(args) ?? 'null' }))));

/** Cases where the listing and the contract disagree, by deliberate difference (for the report). */
const deliberate = new Map<string, number>();

/**
 * Class-validator-only refusals, by rule: calls the listing accepts and reading accepted, whose instance
 * class-validator itself refuses (the `checked` tool runs it on what it receives). Each must stay 0.
 */
const classValidatorOnly = new Map<string, number>();
let checkedAccepted = 0;

/** The call's verdict, or an Error naming the disagreement (cheaper than an expect() per case). */
async function agrees(tool: string, text: string): Promise<string> {
  const t = tools.find((x) => x.name === tool)!;
  const ajvAccepts = t.contract(JSON.parse(text));
  if (ajvAccepts !== t.listed(JSON.parse(text))) deliberate.set(tool, (deliberate.get(tool) ?? 0) + 1);
  const ours = await generated.callTool(tool, JSON.parse(text));
  const theirs = await interpreted.callTool(tool, JSON.parse(text));
  const expected = ajvAccepts ? 'accepted' : 'refused';
  if (verdict(ours) !== expected)
    throw new Error(`${tool} ${text}: ajv ${expected}, reading ${verdict(ours)} (${JSON.stringify(ours.content)})`);
  if (JSON.stringify(theirs) !== JSON.stringify(ours))
    throw new Error(`${tool} ${text}: generated ${JSON.stringify(ours)}, interpreted ${JSON.stringify(theirs)}`);
  if (tool === 'checked' && expected === 'accepted') {
    checkedAccepted++;
    for (const rule of JSON.parse((ours.content[0] as { text: string }).text) as string[]) {
      classValidatorOnly.set(rule, (classValidatorOnly.get(rule) ?? 0) + 1);
    }
  }
  return expected;
}

describe('differential: reading agrees with ajv 2020-12 + ajv-formats on the listed schemas', () => {
  it(`agrees on ${runs} generated calls (seed ${seed})`, async () => {
    const counts = { accepted: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(cases, { minLength: BATCH, maxLength: BATCH }), async (batch) => {
        for (const { tool, text } of batch) counts[(await agrees(tool, text)) as 'accepted' | 'refused']++;
      }),
      { seed, numRuns: Math.ceil(runs / BATCH) },
    );
    const total = counts.accepted + counts.refused;
    // Every rule of the table is on `Checked`, and class-validator refused nothing the listing accepts.
    const checkedRules = new Set(validationOf(Checked).map((m) => m.name));
    expect(EXACT_RULE_NAMES.filter((name) => !checkedRules.has(name))).toEqual([]);
    expect(Object.fromEntries(classValidatorOnly)).toEqual({});
    // The generator must exercise both sides: a fuzz that only ever refuses proves nothing.
    expect(total).toBeGreaterThanOrEqual(runs);
    expect(counts.accepted).toBeGreaterThan(total / 10);
    expect(counts.refused).toBeGreaterThan(total / 10);
    process.stdout.write(
      `differential: ${total} cases (seed ${seed}), ${counts.accepted} accepted, ${counts.refused} refused; ` +
        `deliberate differences exercised, by tool: ${JSON.stringify(Object.fromEntries(deliberate))}; ` +
        `${checkedAccepted} calls to the rules' tool accepted, class-validator-only refusals: ${classValidatorOnly.size === 0 ? '0 for every rule' : JSON.stringify(Object.fromEntries(classValidatorOnly))}\n`,
    );
  }, 600_000);
});
