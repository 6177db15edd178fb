import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats';
import fc from 'fast-check';
import { Expose, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayNotEmpty,
  ArrayUnique,
  Contains,
  Equals,
  IsAlpha,
  IsAlphanumeric,
  IsArray,
  IsBase64,
  IsBoolean,
  IsDateString,
  IsDivisibleBy,
  IsEnum,
  IsHexColor,
  IsHexadecimal,
  IsIn,
  IsInt,
  IsIP,
  IsISO8601,
  IsMACAddress,
  IsNegative,
  IsNotEmpty,
  IsNotEmptyObject,
  IsNotIn,
  IsNumber,
  IsNumberString,
  IsObject,
  IsOptional,
  IsPort,
  IsPositive,
  IsString,
  IsUUID,
  Length,
  Matches,
  Max,
  Min,
  NotContains,
  validateSync,
} from 'class-validator';
import {
  ArrayOf,
  Bytes,
  Char,
  DateOnly,
  DictionaryOf,
  EmailAddress,
  Field,
  Int16,
  Int32,
  Int64,
  Int8,
  Json,
  JsonArray,
  JsonObject,
  McpServer,
  MaxLength,
  MinLength,
  Nullable,
  Param,
  Range,
  RegularExpression,
  SetOf,
  StringLength,
  TimeOnly,
  TimeSpan,
  Tool,
  Uint16,
  Uint32,
  Uint64,
  Uint8,
  Url,
  Uuid,
  type CallToolResult,
} from '../../src';
import { forceRecordStrategy } from '../../src/invoke/record-reader';
import type { TypeNode } from '../../src/schema/model';
import { toolsOf } from '../../src/schema/members/tools';
import { EXACT_RULE_NAMES } from '../../src/schema/records/validator-rules';
import { validationOf } from '../../src/decorators/foreign';
import type { Schema } from '../support/json-schema';

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

enum Color {
  Red,
  Green,
  Blue,
}
enum Size {
  Small = 'S',
  Large = 'L',
}

class Base {
  @Field() @StringLength(4, { min: 2 }) code!: string;
  @Field({ optional: true }) @Range(-1.5, 2.5) weight?: number;
}

class Part extends Base {
  @Expose({ name: 'part_no' }) @Field(Uint16) partNo!: number;
  @IsOptional() @Matches(/^[a-z]+\d?$/) @Length(1, 5) tag?: string;
  @Field({ type: Nullable(Color) }) color!: Color | null;
  @Field() rush: boolean = false;
}

class Line {
  @Type(() => Part) @Field() part!: Part;
  @IsInt() @Min(1) @Max(99) qty!: number;
  @Field({ type: [String], optional: true }) @ArrayUnique() @ArrayMinSize(1) @ArrayMaxSize(3) notes?: string[];
  @IsEnum(Size) size!: Size;
  @IsOptional() @IsUUID() ref?: string;
}

class Order {
  @Type(() => Line) @Field({ type: [Line] }) @ArrayUnique() lines!: Line[];
  @Field({ type: DictionaryOf(Nullable(Int16)), optional: true }) counts?: Record<string, number | null>;
  @Field({ type: Nullable(Line) }) extra!: Line | null;
}

/** Every exact rule of the table (src/schema/records/validator-rules.ts), as Nest DTOs write them. */
class Checked {
  @IsOptional() @IsNumber() @IsPositive() positive?: number;
  @IsOptional() @IsNumber() @IsNegative() negative?: number;
  @IsOptional() @IsInt() @IsDivisibleBy(4) quarter?: number;
  @IsOptional() @IsIn(['red', 'green']) color?: string;
  @IsOptional() @IsEnum(Size) @IsIn([Size.Large]) size?: Size;
  @IsOptional() @IsString() @IsNotIn(['root', 'admin']) user?: string;
  @IsOptional() @IsBoolean() @Equals(true) consent?: boolean;
  @IsOptional() @IsString() @IsNotEmpty() title?: string;
  @IsOptional() @IsArray() @ArrayNotEmpty() @IsInt({ each: true }) @IsPositive({ each: true }) ids?: number[];
  @IsOptional() @IsObject() @IsNotEmptyObject() meta?: Record<string, unknown>;
  @IsOptional() @IsIP('4') v4?: string;
  @IsOptional() @IsIP('6') v6?: string;
  @IsOptional() @IsISO8601() when?: string;
  @IsOptional() @IsDateString() day?: string;
  @IsOptional() @IsHexColor() paint?: string;
  @IsOptional() @IsHexadecimal() hex?: string;
  @IsOptional() @IsAlpha() alpha?: string;
  @IsOptional() @IsAlphanumeric() alnum?: string;
  @IsOptional() @IsNumberString() digits?: string;
  @IsOptional() @IsPort() port?: string;
  @IsOptional() @IsMACAddress() mac?: string;
  @IsOptional() @IsBase64() b64?: string;
  @IsOptional() @Contains('a.') has?: string;
  @IsOptional() @NotContains('0x') lacks?: string;
  @IsOptional() @IsArray() @IsString({ each: true }) @IsHexColor({ each: true }) paints?: string[];
}

/** The class-validator rules that refuse what reading built, by name: the instance the method receives. */
function classValidatorRefusals(instance: object): string[] {
  return validateSync(instance, { forbidUnknownValues: false }).flatMap((e) => Object.keys(e.constraints ?? {}));
}

class Tools {
  @Tool() checked(checked: Checked): string {
    return JSON.stringify(classValidatorRefusals(checked));
  }
  @Tool() flags(flag: boolean, @Param({ type: Nullable(Boolean) }) maybe: boolean | null): void {}
  @Tool() numbers(n: number, @Param() @Range(-1.5, 2.5) r: number): void {}
  @Tool() small(
    @Param({ type: Int8 }) a: number,
    @Param({ type: Uint8 }) b: number,
    @Param({ type: Int16 }) c: number,
    @Param({ type: Uint16 }) d: number,
  ): void {}
  @Tool() large(
    @Param({ type: Int32 }) a: number,
    @Param({ type: Uint32 }) b: number,
    @Param({ type: Int64 }) c: number,
    @Param({ type: Uint64 }) d: number,
  ): void {}
  @Tool() big(b: bigint): void {}
  @Tool() text(s: string, @Param({ type: Char }) c: string): void {}
  @Tool() lengths(
    @Param() @StringLength(3, { min: 2 }) a: string,
    @Param() @MinLength(1) b: string,
    @Param() @MaxLength(2) c: string,
  ): void {}
  @Tool() patterns(@Param() @RegularExpression('^[a-z]+\\d?$') a: string, @Param() @RegularExpression('^\\p{L}{1,3}$') b: string): void {}
  @Tool() ids(@Param({ type: Uuid }) id: string, @Param({ type: Nullable(Uuid) }) other: string | null): void {}
  @Tool() dates(when: Date, @Param({ type: DateOnly }) day: string): void {}
  @Tool() times(@Param({ type: TimeOnly }) at: string, @Param({ type: TimeSpan }) span: number): void {}
  @Tool() links(where: URL, @Param() @Url() link: string, @Param() @EmailAddress() mail: string): void {}
  @Tool() bytes(@Param({ type: Bytes }) data: Uint8Array, blob: Buffer): void {}
  @Tool() enums(
    @Param({ type: Color }) color: Color,
    @Param({ type: Size }) size: Size,
    @Param({ type: Nullable(Size) }) maybe: Size | null,
  ): void {}
  @Tool() lists(
    @Param({ type: ArrayOf(Int8) }) @MinLength(1) @MaxLength(3) a: number[],
    @Param({ type: [Nullable(String)] }) b: (string | null)[],
  ): void {}
  @Tool() sets(@Param({ type: SetOf(Uuid) }) ids: Set<string>, @Param({ type: SetOf(Json) }) any: Set<unknown>): void {}
  @Tool() maps(
    @Param({ type: DictionaryOf(Int8) }) d: Record<string, number>,
    @Param({ type: DictionaryOf(Json) }) m: Map<string, unknown>,
  ): void {}
  @Tool() json(
    @Param({ type: Json }) any: unknown,
    @Param({ type: JsonObject }) o: object,
    @Param({ type: JsonArray }) a: unknown[],
  ): void {}
  @Tool() defaults(@Param({ type: Int8 }) n: number = 3, s: string = 'x', @Param({ type: Nullable(Color) }) c: Color | null = null): void {}
  @Tool() order(order: Order): void {}
  @Tool() parts(@Param({ type: [Part] }) parts: Part[], part: Part): void {}
}

/**
 * The listing with DESIGN.md section 6's deliberate differences written into it, walked beside the type
 * model (same shape): `SetOf` drops duplicates, `Bytes` refuses what is not base64, `TimeOnly` accepts
 * no offset, `URL` refuses what the WHATWG parser cannot hold. (class-validator rules stricter than their
 * keyword are not fuzzed here: the records use rules reading enforces itself.)
 */
function contractOf(s: Schema, node: TypeNode): Schema {
  const out: Schema = { ...s };
  const bare = node.kind === 'nullable' ? node.inner : node;
  if (bare.kind === 'array') {
    if (bare.set) delete out.uniqueItems;
    out.items = contractOf(s.items!, bare.items);
  }
  if (bare.kind === 'bytes') out.format = 'canonical-base64';
  if (bare.kind === 'string' && bare.format === 'time') out.format = 'iso-time';
  if (bare.kind === 'string' && bare.as === 'url') out.format = 'whatwg-uri';
  if (bare.kind === 'dictionary') out.additionalProperties = contractOf(s.additionalProperties as Schema, bare.values);
  if (bare.kind === 'record') {
    out.properties = Object.fromEntries(bare.properties.map((p) => [p.name, contractOf(s.properties![p.name], p.type)]));
  }
  return out;
}

const ajv = new Ajv2020({ strict: false });
addFormats(ajv);
const uri = fullFormats.uri as (s: string) => boolean;
ajv.addFormat('canonical-base64', /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/][AQgw]==|[A-Za-z0-9+/]{2}[AEIMQUYcgkosw048]=)?$/);
ajv.addFormat('whatwg-uri', (s: string) => uri(s) && URL.canParse(s));

/** A generator of the strings a pattern matches, where fast-check can build one (no lookaheads, no backreferences). */
function matching(pattern: string): fc.Arbitrary<string> | undefined {
  try {
    return fc.stringMatching(new RegExp(pattern, 'u'));
  } catch {
    return undefined;
  }
}

const ALPHABET = [...'0123456789abcdefxABCDEFXZT:-.+/=# '];
const near = fc.array(fc.constantFrom(...ALPHABET), { maxLength: 12 }).map((a) => a.join(''));

// ---- generation from the listed schema, biased to the edges ----

const UNITS = ['a', 'Z', '0', ' ', 'é', '中', '😀', '\ud800', '\udc00', '\ufe0f', '\u0000', '"', '\n'];
const anyUnit = fc.constantFrom(...UNITS);
const junk = fc.constantFrom<unknown>(null, true, false, 0, -0, 1, -1, 1.5, 1e300, '', 'x', [], {}, [1], { a: 1 }, '1', 'null');

function textOfLength(n: fc.Arbitrary<number>): fc.Arbitrary<string> {
  return n.chain((k) => fc.array(anyUnit, { minLength: Math.max(0, k), maxLength: Math.max(0, k) }).map((u) => u.join('')));
}

const two = (n: number) => String(n).padStart(2, '0');
const dateText = fc
  .record({
    y: fc.constantFrom(0, 1, 99, 100, 1900, 2000, 2024, 2100, 9999),
    m: fc.integer({ min: 0, max: 13 }),
    d: fc.integer({ min: 0, max: 32 }),
  })
  .map(({ y, m, d }) => `${String(y).padStart(4, '0')}-${two(m)}-${two(d)}`);
const timeText = fc
  .record({
    h: fc.integer({ min: 0, max: 24 }),
    m: fc.integer({ min: 0, max: 60 }),
    s: fc.integer({ min: 0, max: 61 }),
    frac: fc.constantFrom('', '.5', '.123456789'),
    zone: fc.constantFrom('', 'Z', 'z', '+01', '-0130', '+01:00', '-23:59', '+24:00', '+01:60', '+1'),
  })
  .map(({ h, m, s, frac, zone }) => `${two(h)}:${two(m)}:${two(s)}${frac}${zone}`);
const dateTimeText = fc.tuple(dateText, fc.constantFrom('T', 't', ' ', '\t', '_', ''), timeText).map(([d, sep, t]) => `${d}${sep}${t}`);

function formatted(format: string): fc.Arbitrary<string> {
  switch (format) {
    case 'uuid':
      return fc.oneof(
        fc.uuid(),
        fc.uuid().map((u) => `urn:uuid:${u}`),
        fc.uuid().map((u) => u.toUpperCase()),
        fc.uuid().map((u) => u.slice(1)),
      );
    case 'date':
      return dateText;
    case 'time':
      return timeText;
    case 'date-time':
      return fc.oneof(
        dateTimeText,
        fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      );
    case 'email':
      return fc.oneof(fc.emailAddress(), fc.constantFrom('a@b', 'a@b.c', 'a..b@c.d', '@b.c', 'a@-b.c', 'é@b.c', 'a@b.c\n'));
    case 'ipv4':
      return fc.oneof(fc.ipV4(), fc.ipV4Extended(), fc.constantFrom('256.1.1.1', '01.2.3.4', '1.2.3', '1.2.3.4\n'));
    case 'uri':
      return fc.oneof(
        fc.webUrl(),
        fc.constantFrom(
          'http://a:99999',
          'http://[v1.x]/',
          'http://[::1]/',
          'a:b',
          'mailto:x@y',
          'x',
          '/relative',
          'http://a b',
          'urn:isbn:1',
          'http://%zz/',
          'file:///c:/x',
        ),
      );
  }
  return fc.string();
}

function stringOf(s: Schema): fc.Arbitrary<unknown> {
  const min = s.minLength ?? 0;
  const max = s.maxLength ?? Math.max(min, 6);
  const lengths = fc.oneof(fc.constantFrom(min - 1, min, max, max + 1), fc.integer({ min, max }));
  const options: fc.Arbitrary<unknown>[] = [textOfLength(lengths)];
  const fromPattern = s.pattern === undefined ? undefined : matching(s.pattern);
  if (fromPattern)
    options.push(
      fromPattern,
      fromPattern.map((x) => `${x}A`),
    );
  if (s.pattern)
    options.push(
      near,
      near.map((x) => `${x}a.`),
    );
  if (s.format) options.push(formatted(s.format), formatted(s.format));
  if (s.minLength === 1) options.push(fc.constant(''));
  if (s.contentEncoding === 'base64') {
    options.push(
      fc.uint8Array({ maxLength: 7 }).map((b) => Buffer.from(b).toString('base64')),
      fc.constantFrom('%%%%\n', 'QQ', 'QR==', 'QUI=\n', 'QUJD\n%%%%', 'Q===', '====', 'QUJD QUJD', 'QU=D'),
    );
  }
  return fc.oneof(...options);
}

function numberOf(s: Schema, integer: boolean): fc.Arbitrary<unknown> {
  const lo = s.minimum ?? -1e6;
  const hi = s.maximum ?? 1e6;
  const edges = integer
    ? [lo, hi, lo - 1, hi + 1, 0, -0, lo + 0.5]
    : [lo, hi, lo - 1e-9, hi + 1e-9, 0, -0, Number.MAX_VALUE, -Number.MIN_VALUE, Number.MIN_VALUE];
  const step = s.multipleOf as number | undefined;
  if (step !== undefined) edges.push(step, -step, step + 1, 2 * step, 3 * step - 1);
  const inside = integer
    ? fc.integer({ min: Math.max(lo, -(2 ** 31)), max: Math.min(hi, 2 ** 31 - 1) })
    : fc.double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true });
  return fc.oneof(fc.constantFrom(...edges), inside);
}

/** Reorders an object's keys (deeply): equal as JSON, different as text. */
function shuffled(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(shuffled);
  if (typeof v !== 'object' || v === null) return v;
  const out: Record<string, unknown> = Object.create(null);
  for (const k of Object.keys(v).reverse()) define(out, k, shuffled((v as Record<string, unknown>)[k]));
  return out;
}

/** An own property even for `__proto__`, so the JSON text carries it. */
function define(o: Record<string, unknown>, k: string, value: unknown): void {
  Object.defineProperty(o, k, { value, enumerable: true, writable: true, configurable: true });
}

const HOSTILE_KEYS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', '', 'x', 'valueOf'];

function arrayOf(s: Schema, depth: number): fc.Arbitrary<unknown> {
  const item = valueOf(s.items ?? {}, depth + 1);
  const min = s.minItems ?? 0;
  const max = Math.min(s.maxItems ?? 3, 4);
  const plain = fc.array(item, { minLength: Math.max(0, min - 1), maxLength: max + 1 });
  if (!s.uniqueItems) return plain;
  const withDuplicate = fc
    .tuple(fc.array(item, { minLength: Math.max(0, min - 1), maxLength: max }), item)
    .map(([xs, x]) => [...xs, x, shuffled(x)]);
  return fc.oneof(plain, withDuplicate);
}

function objectOf(s: Schema, depth: number): fc.Arbitrary<unknown> {
  const fixed = Object.entries(s.properties ?? {});
  const additional = typeof s.additionalProperties === 'object' ? s.additionalProperties : s.properties ? undefined : {};
  const entries = fc.tuple(
    ...fixed.map(([k, p]) =>
      fc.oneof(
        { weight: 8, arbitrary: valueOf(p, depth + 1).map((v) => [k, v] as const) },
        { weight: 1, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.constant([k, null] as const) },
      ),
    ),
  );
  const extra = fc.array(
    fc.tuple(fc.oneof(fc.constantFrom(...HOSTILE_KEYS), fc.string({ maxLength: 3 })), additional ? valueOf(additional, depth + 1) : junk),
    { maxLength: additional ? 3 : 1 },
  );
  const extraWeight = additional ? 4 : 1;
  return fc
    .tuple(entries, fc.oneof({ weight: 6, arbitrary: fc.constant([]) }, { weight: extraWeight, arbitrary: extra }))
    .map(([given, more]) => {
      const o: Record<string, unknown> = Object.create(null);
      for (const e of given) if (e) define(o, e[0], e[1]);
      for (const [k, v] of more) define(o, k, v);
      return o;
    });
}

/**
 * JSON objects for `@IsNotEmptyObject` without the hostile keys: class-validator's own check calls
 * `value.hasOwnProperty(key)`, which throws on an object that has its own `hasOwnProperty` (reading lists
 * and enforces `minProperties` and never runs that check, so only the oracle here would fail).
 */
const plainObjects = fc.oneof(
  fc.constantFrom({}, null, [], 'x', 1),
  fc.dictionary(fc.constantFrom('a', 'b', ''), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
);

const cache = new Map<Schema, fc.Arbitrary<unknown>>();

/** Values for one listed fragment: mostly valid, often at an edge, sometimes of another type. */
function valueOf(s: Schema, depth = 0): fc.Arbitrary<unknown> {
  const cached = cache.get(s);
  if (cached) return cached;
  const types = Array.isArray(s.type) ? s.type : s.type === undefined ? [] : [s.type];
  const options: fc.Arbitrary<unknown>[] = [];
  if (s.enum) options.push(fc.constantFrom(...s.enum), fc.constantFrom(...s.enum), fc.constantFrom('0', 'red', 'Red ', 'S', 'Small', 's'));
  else if (s.const !== undefined) options.push(fc.constant(s.const), fc.constant(s.const), fc.constantFrom(false, 'true', 1));
  else {
    for (const t of types) {
      if (t === 'null') options.push(fc.constant(null));
      if (t === 'boolean') options.push(fc.boolean());
      if (t === 'integer' || t === 'number') options.push(numberOf(s, t === 'integer'));
      if (t === 'string') options.push(stringOf(s));
      if (t === 'string' && s.not?.enum) options.push(fc.constantFrom(...s.not.enum));
      if (t === 'array') options.push(depth > 3 ? fc.constant([]) : arrayOf(s, depth));
      if (t === 'object') options.push(depth > 3 ? fc.constant({}) : objectOf(s, depth));
    }
    if (types.length === 0)
      options.push(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom({ a: 1, b: 2 }, { b: 2, a: 1 }, [1, '1'], '{"a":1}'));
  }
  const arbitrary = fc.oneof({ weight: 12, arbitrary: fc.oneof(...options) }, { weight: 1, arbitrary: junk });
  cache.set(s, arbitrary);
  return arbitrary;
}

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

/**
 * The rules' record with one property given at a time (sometimes none, sometimes an unknown one): with all
 * of them optional and each often invalid, whole records would almost never be accepted.
 */
function oneRuleAtATime(record: Schema): fc.Arbitrary<unknown> {
  const one = Object.entries(record.properties!).map(([k, p]) =>
    (k === 'meta' ? plainObjects : valueOf(p, 1)).map((v) => ({ checked: { [k]: v } })),
  );
  return fc.oneof(
    { weight: 20, arbitrary: fc.oneof(...one) },
    { weight: 1, arbitrary: fc.constantFrom({}, { checked: {} }, { checked: { x: 1 } }, { checked: null }) },
  );
}

const cases = fc.oneof(...tools.map((t) => t.args.map((args) => ({ tool: t.name, text: JSON.stringify(args) ?? 'null' }))));

function verdict(result: CallToolResult): string {
  const text = (result.content[0] as { text?: string } | undefined)?.text ?? '';
  if (!result.isError) return 'accepted';
  return text.startsWith("Argument '") || text === 'Arguments must be an object.' ? 'refused' : `failed: ${text}`;
}

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

const runs = Number(process.env.READER_FUZZ_RUNS ?? 60_000);
const seed =
  process.env.READER_FUZZ_SEED !== undefined
    ? Number(process.env.READER_FUZZ_SEED)
    : process.env.READER_FUZZ_RUNS
      ? Date.now() % 2 ** 31
      : 20261130;

/** Cases are judged in batches: one property run per batch keeps fast-check's per-run cost small. */
const BATCH = 25;

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
