import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import fc from 'fast-check';
import { inspect } from 'node:util';
import { McpServer, type CallToolResult, type Invocation } from '../../src';
import { forceRecordStrategy } from '../../src/invoke/reading/record-reader';
import { GEMINI_ORDER } from '../../src/schema/profiles/gemini';
import { toolsOf } from '../../src/schema/members/tools';
import type { Schema } from '../support/json-schema';
import { objectOf, oneRuleAtATime } from '../support/differential/arguments';
import { ProfileTools, Tools } from '../support/differential/declarations';
import { BATCH, ajv, contractOf, runs, seed, verdict } from '../support/differential/judge';
import {
  DIFFERENCES,
  GEMINI_KEYWORDS,
  absentCounterpart,
  fromGemini,
  recordContractOf,
  strictShaped,
  type Difference,
  type Listed,
  type ProfileName,
} from '../support/differential/profiles';

/**
 * The listing stays the contract per profile (DESIGN.md section 11): for `'gemini'` and `'openai-strict'`, arguments
 * generated from the exact listing and from the profile's own listing (and, under 'openai-strict', shaped as strict
 * mode sends them: `null` for each optional property left out) are judged by ajv 2020-12 + ajv-formats on the
 * profile's listing (Gemini's mapped to JSON Schema by `fromGemini`) and by `callTool(name, args, { listing })`, with
 * record readers both generated and interpreted. The only allowed differences are the named ones of
 * test/support/differential/profiles.ts (docs/models-and-hosts.md), written into the schema ajv judges by; each is
 * counted, and each must be exercised.
 *
 * Under 'openai-strict' every call is also read by the exact reader with each `null` of an optional, non-nullable
 * property left out: the result and the values the method receives must be the same (a `null` there is absent, its
 * default applies).
 *
 * Seeded; `READER_FUZZ_RUNS` and `READER_FUZZ_SEED` as for test/invoke/differential.test.ts (a sixth of the runs per profile).
 */

const info = { name: 'differential', version: '1' };
const PROFILES = ['gemini', 'openai-strict'] as const;

/** What the method received on the last call (`undefined` when it did not run), rendered. */
let received: string | undefined;
const recording = {
  invoke: (call: Invocation) => {
    received = inspect(call.args, { depth: null, breakLength: Infinity });
    return (call.instance as Record<string | symbol, (...a: unknown[]) => unknown>)[call.method](...call.args);
  },
};

const serverOf = (profile: ProfileName) =>
  new McpServer(info, { listing: profile, logger: false }).add(new Tools(), recording).add(new ProfileTools(), recording);
const generated = new Map(PROFILES.map((p) => [p, serverOf(p)]));
forceRecordStrategy('interpreted');
const interpreted = new Map(PROFILES.map((p) => [p, serverOf(p)]));
afterAll(() => forceRecordStrategy(undefined));

const models = new Map([...toolsOf(Tools), ...toolsOf(ProfileTools)].map(({ model }) => [model.name, model]));
const exact = new Map(
  generated
    .get('gemini')!
    .listTools()
    .map((t) => [t.name, t.inputSchema as Schema]),
);

/** A profile's listing of a tool, as JSON Schema. */
function listedUnder(profile: ProfileName, name: string): Schema {
  const listed = generated
    .get(profile)!
    .listTools({ listing: profile })
    .find((t) => t.name === name)!.inputSchema as Listed;
  return profile === 'gemini' ? fromGemini(listed) : (listed as Schema);
}

interface Judged {
  readonly name: string;
  readonly exact: Schema;
  readonly listed: (v: unknown) => boolean;
  readonly contract: (v: unknown) => boolean;
  /** The contract with one difference written in, by name: which difference a disagreement of listing and contract is. */
  readonly only: readonly (readonly [Difference, (v: unknown) => boolean])[];
  /** The contract with every difference but one written in. */
  readonly allBut: readonly (readonly [Difference, (v: unknown) => boolean])[];
  readonly args: fc.Arbitrary<{ tool: string; text: string; shaped: boolean }>;
}

const judgedCache = new Map<ProfileName, Judged[]>();

/** Each tool as a profile lists it, compiled once per profile. */
function judgedUnder(profile: ProfileName): Judged[] {
  let judged = judgedCache.get(profile);
  if (!judged) judgedCache.set(profile, (judged = compiledUnder(profile)));
  return judged;
}

function compiledUnder(profile: ProfileName): Judged[] {
  return [...exact].map(([name, e]) => {
    const model = models.get(name)!;
    const p = listedUnder(profile, name);
    const ec: Schema = {
      ...e,
      properties: Object.fromEntries(model.params.map((x) => [x.name, contractOf(e.properties![x.name], x.type)])),
    };
    const ours = DIFFERENCES[profile];
    const contractWith = (apply: (d: Difference) => boolean): Schema => ({
      ...p,
      ...recordContractOf(p, ec, model.params, (d) => ours.includes(d) && apply(d)),
    });
    const fromExact = name === 'checked' ? oneRuleAtATime(e.properties!.checked) : objectOf(e, 0);
    const fromListed = name === 'checked' ? oneRuleAtATime(p.properties!.checked) : objectOf(p, 0);
    const text = (shaped: boolean) => (a: unknown) => ({ tool: name, text: JSON.stringify(a) ?? 'null', shaped });
    const args =
      profile === 'openai-strict'
        ? fc.oneof(
            { weight: 2, arbitrary: fromExact.map(text(false)) },
            { weight: 1, arbitrary: fromListed.map(text(false)) },
            { weight: 3, arbitrary: fromExact.map((a) => strictShaped(a, e)).map(text(true)) },
          )
        : fc.oneof({ weight: 2, arbitrary: fromExact.map(text(false)) }, { weight: 1, arbitrary: fromListed.map(text(false)) });
    return {
      name,
      exact: e,
      listed: ajv.compile(p),
      contract: ajv.compile(contractWith(() => true)),
      only: ours.map((d) => [d, ajv.compile(contractWith((x) => x === d))] as const),
      allBut: ours.map((d) => [d, ajv.compile(contractWith((x) => x !== d))] as const),
      args,
    };
  });
}

interface Tally {
  accepted: number;
  refused: number;
  /** Strict-shaped calls accepted in which a `null` stood for an absent property. */
  absentNulls: number;
  deliberate: Record<string, number>;
  /** The tools with at least one call accepted. */
  acceptedBy: Set<string>;
}

async function called(server: McpServer, tool: string, text: string, profile?: ProfileName): Promise<[CallToolResult, string | undefined]> {
  received = undefined;
  const result = await server.callTool(tool, JSON.parse(text), profile ? { listing: profile } : {});
  return [result, received];
}

/** Judges one call under a profile, or throws an Error naming the disagreement. */
async function agrees(profile: ProfileName, t: Judged, text: string, tally: Tally): Promise<void> {
  const listed = t.listed(JSON.parse(text));
  const contract = t.contract(JSON.parse(text));
  if (listed !== contract) {
    // One difference alone explains it, or (counted together) the ones without which the contract would agree with the listing.
    const alone = t.only.filter(([, only]) => only(JSON.parse(text)) !== listed).map(([d]) => d);
    const needed = t.allBut.filter(([, allBut]) => allBut(JSON.parse(text)) === listed).map(([d]) => d);
    const by = alone.length > 0 ? alone : [needed.length > 0 ? needed.join(' + ') : 'unexplained'];
    for (const d of by) tally.deliberate[d] = (tally.deliberate[d] ?? 0) + 1;
  }
  const expected = contract ? 'accepted' : 'refused';
  const [ours, got] = await called(generated.get(profile)!, t.name, text, profile);
  if (verdict(ours) !== expected)
    throw new Error(
      `${profile} ${t.name} ${text}: ajv on the contract ${expected} (listing ${listed}), reading ${verdict(ours)} (${JSON.stringify(ours.content)})`,
    );
  const [theirs, theirsGot] = await called(interpreted.get(profile)!, t.name, text, profile);
  if (JSON.stringify(theirs) !== JSON.stringify(ours) || theirsGot !== got)
    throw new Error(
      `${profile} ${t.name} ${text}: generated ${JSON.stringify(ours)} ${got}, interpreted ${JSON.stringify(theirs)} ${theirsGot}`,
    );
  tally[expected]++;
  if (expected === 'accepted') tally.acceptedBy.add(t.name);
  if (profile !== 'openai-strict') return;
  const absent = JSON.stringify(absentCounterpart(JSON.parse(text), t.exact));
  const [asExact, exactGot] = await called(generated.get(profile)!, t.name, absent);
  if (JSON.stringify(asExact) !== JSON.stringify(ours) || exactGot !== got)
    throw new Error(
      `${t.name} ${text}: read under 'openai-strict' ${JSON.stringify(ours)} ${got}; ${absent} read exactly ${JSON.stringify(asExact)} ${exactGot}`,
    );
  if (absent !== text && expected === 'accepted') tally.absentNulls++;
}

describe('differential: reading agrees with ajv on each profile listing, but for the named differences', () => {
  const perProfile = Math.ceil(runs / 6);

  it.each(PROFILES)(
    `%s: agrees on ${perProfile} generated calls (seed ${seed})`,
    async (profile) => {
      const judged = judgedUnder(profile);
      const byName = new Map(judged.map((t) => [t.name, t]));
      const cases = fc.oneof(...judged.map((t) => t.args));
      const tally: Tally = { accepted: 0, refused: 0, absentNulls: 0, deliberate: {}, acceptedBy: new Set<string>() };
      let shaped = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(cases, { minLength: BATCH, maxLength: BATCH }), async (batch) => {
          for (const c of batch) {
            if (c.shaped) shaped++;
            await agrees(profile, byName.get(c.tool)!, c.text, tally);
          }
        }),
        { seed, numRuns: Math.ceil(perProfile / BATCH) },
      );
      const total = tally.accepted + tally.refused;
      expect(total).toBeGreaterThanOrEqual(perProfile);
      expect(tally.accepted).toBeGreaterThan(total / 10);
      expect(tally.refused).toBeGreaterThan(total / 10);
      // The tools of what profiles write their own way (subtypes, optional records, lists and sets) are exercised too.
      expect(toolsOf(ProfileTools).filter(({ model }) => !tally.acceptedBy.has(model.name))).toEqual([]);
      // Every named difference is exercised alone; a disagreement of several at once is of named ones too.
      const keys = Object.keys(tally.deliberate);
      expect(keys.filter((k) => !k.includes(' + ')).sort()).toEqual([...DIFFERENCES[profile]].sort());
      expect(keys.flatMap((k) => k.split(' + ')).filter((d) => !DIFFERENCES[profile].includes(d as Difference))).toEqual([]);
      if (profile === 'openai-strict') {
        expect(shaped).toBeGreaterThan(total / 4);
        expect(tally.absentNulls).toBeGreaterThan(total / 200);
      }
      process.stdout.write(
        `profile differential (${profile}): ${total} cases (seed ${seed}), ${tally.accepted} accepted, ${tally.refused} refused` +
          (profile === 'openai-strict' ? ` (${shaped} strict-shaped; ${tally.absentNulls} accepted with a null read as absent)` : '') +
          `; the listing and reading disagree, by deliberate difference: ${JSON.stringify(tally.deliberate)}\n`,
      );
    },
    600_000,
  );
});

describe("over a real client, a server listing 'openai-strict' reads as callTool({ listing }) does", () => {
  it.each([
    ['2025-11-25', 'legacy'],
    ['2026-07-28', 'auto'],
  ] as const)('%s: the same results and values for 300 generated calls', async (_, mode) => {
    const server = generated.get('openai-strict')!;
    const judged = new Map(judgedUnder('openai-strict').map((t) => [t.name, t]));
    const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
    await server.connect(serverEnd);
    const client = new Client({ name: 'codex', version: '1.0.0' }, { versionNegotiation: { mode } });
    await client.connect(clientEnd);
    const cases = fc.sample(fc.oneof(...[...judged.values()].map((t) => t.args)), { seed, numRuns: 300 });
    let accepted = 0;
    for (const { tool, text } of cases) {
      const [direct, got] = await called(server, tool, text, 'openai-strict');
      received = undefined;
      const sent = await client.callTool({ name: tool, arguments: JSON.parse(text) as Record<string, unknown> });
      expect({ tool, text, content: sent.content, isError: sent.isError ?? undefined, received }).toEqual({
        tool,
        text,
        content: direct.content,
        isError: direct.isError,
        received: got,
      });
      if (!direct.isError) accepted++;
    }
    expect(accepted).toBeGreaterThan(30);
    await client.close();
    await server.close();
  });
});

describe('each deliberate difference, pinned by one call', () => {
  it.each<[ProfileName, Difference, string, Record<string, unknown>, 'accepted' | 'refused', 'accepted' | 'refused']>([
    ['gemini', 'in words', 'ids', { id: 'not-a-uuid', other: null }, 'accepted', 'refused'],
    ['gemini', 'closed records', 'flags', { flag: true, maybe: null, extra: 1 }, 'accepted', 'refused'],
    ['gemini', 'dictionary', 'maps', { d: { a: 'x' }, m: {} }, 'accepted', 'refused'],
    ['gemini', 'free JSON', 'json', { any: null, o: {}, a: [1] }, 'refused', 'accepted'],
    ['openai-strict', 'in words', 'lengths', { a: 'four', b: 'x', c: 'x' }, 'accepted', 'refused'],
    ['openai-strict', 'dictionary', 'maps', { d: { a: 1 }, m: { k: [1] } }, 'refused', 'accepted'],
    ['openai-strict', 'free JSON', 'json', { any: { x: 1 }, o: { a: 1 }, a: [[1]] }, 'refused', 'accepted'],
    ['openai-strict', 'left out', 'defaults', {}, 'refused', 'accepted'],
    ['openai-strict', 'TimeOnly', 'times', { at: '14:30:00', span: '01:00:00' }, 'refused', 'accepted'],
  ])('%s, %s: %s %j is %s by the listing, %s by reading', async (profile, difference, tool, args, byListing, byReading) => {
    expect(DIFFERENCES[profile]).toContain(difference);
    expect(ajv.validate(listedUnder(profile, tool), args) ? 'accepted' : 'refused').toBe(byListing);
    expect(verdict(await generated.get(profile)!.callTool(tool, args, { listing: profile }))).toBe(byReading);
  });
});

describe("'open records': under options that let an unknown property through, 'openai-strict' still closes every object", () => {
  it('the listing refuses the unknown property of a record, reading strips it', async () => {
    const server = new McpServer(info, { listing: 'openai-strict', logger: false, validation: { whitelist: true } }).add(
      new Tools(),
      recording,
    );
    const part = { code: 'ab', weight: null, part_no: 1, tag: null, color: null, rush: null };
    const listing = server.listTools({ listing: 'openai-strict' }).find((t) => t.name === 'parts')!.inputSchema;
    expect(ajv.validate(listing, { parts: [], part })).toBe(true);
    expect(ajv.validate(listing, { parts: [], part: { ...part, extra: 1 } })).toBe(false);
    const [result, got] = await called(server, 'parts', JSON.stringify({ parts: [], part: { ...part, extra: 1 } }), 'openai-strict');
    expect(result.isError).toBeUndefined();
    expect(got).toBe("[ [], Part { code: 'ab', weight: undefined, partNo: 1, tag: null, color: null, rush: false } ]");
  });
});

describe("the 'gemini' listing as JSON Schema", () => {
  it('the writer emits exactly the keywords fromGemini maps, GEMINI_ORDER', () => {
    const seen = new Set<string>();
    const visit = (s: Listed): void => {
      for (const k of Object.keys(s)) seen.add(k);
      if (s.items) visit(s.items);
      for (const p of Object.values(s.properties ?? {})) visit(p);
      for (const b of s.anyOf ?? []) visit(b);
    };
    for (const t of generated.get('gemini')!.listTools({ listing: 'gemini' })) visit(t.inputSchema as Listed);
    expect([...seen].sort()).toEqual([...GEMINI_ORDER].sort());
    expect([...GEMINI_KEYWORDS].sort()).toEqual([...GEMINI_ORDER].sort());
  });

  it('nullable adds null to the type and to the enum; format enum and propertyOrdering go; the rest stays', () => {
    expect(
      fromGemini({
        type: 'object',
        properties: {
          size: { type: 'string', format: 'enum', nullable: true, enum: ['S', 'L'] },
          n: { type: 'integer', format: 'int32', description: 'N.', minimum: 1, maximum: 9 },
          any: {
            anyOf: [
              { type: 'string', nullable: true },
              { type: 'number', nullable: true },
            ],
          },
          list: { type: 'array', nullable: true, items: { type: 'string', pattern: '^a' }, minItems: 1, maxItems: 2 },
        },
        required: ['size'],
        propertyOrdering: ['size', 'n', 'any', 'list'],
      }),
    ).toEqual({
      type: 'object',
      properties: {
        size: { type: ['string', 'null'], enum: ['S', 'L', null] },
        n: { type: 'integer', format: 'int32', description: 'N.', minimum: 1, maximum: 9 },
        any: { anyOf: [{ type: ['string', 'null'] }, { type: ['number', 'null'] }] },
        list: { type: ['array', 'null'], items: { type: 'string', pattern: '^a' }, minItems: 1, maxItems: 2 },
      },
      required: ['size'],
    });
  });

  it('a keyword the writer does not emit is not judged unmapped', () => {
    expect(() => fromGemini({ type: 'object', additionalProperties: false })).toThrow(
      "'gemini' emitted additionalProperties, which fromGemini does not map",
    );
  });
});

describe("under 'openai-strict' a null for an optional property is absent", () => {
  const server = generated.get('openai-strict')!;

  it.each([
    ['defaults', { n: null, s: null, c: null }, "[ 3, 'x', null ]"],
    ['defaults', {}, "[ 3, 'x', null ]"],
    ['flags', { flag: true, maybe: null }, '[ true, null ]'],
  ] as const)('%s %j: the method receives %s', async (tool, args, values) => {
    const [result, got] = await called(server, tool, JSON.stringify(args), 'openai-strict');
    expect(result.isError).toBeUndefined();
    expect(got).toBe(values);
  });

  it('in a record, a null optional property is left out of the instance (its default applies)', async () => {
    const part = { code: 'ab', weight: null, part_no: 1, tag: null, color: null, rush: null };
    const [result, got] = await called(server, 'parts', JSON.stringify({ parts: [part], part }), 'openai-strict');
    expect(result.isError).toBeUndefined();
    const one = "Part { code: 'ab', weight: undefined, partNo: 1, tag: null, color: null, rush: false }";
    expect(got).toBe(`[ [ ${one} ], ${one} ]`);
  });
});
