import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { plainToInstance } from 'class-transformer';
import {
  ArrayNotEmpty,
  Contains,
  Equals,
  IsAlpha,
  IsAlphanumeric,
  IsArray,
  IsBase64,
  IsDateString,
  IsDivisibleBy,
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
  NotContains,
  validateSync,
} from 'class-validator';
import { McpServer, Tool, type CallToolResult } from '../../src';
import { toolsOf } from '../../src/schema/members/tools';
import { unwrap, type RecordNode } from '../../src/schema/model';
import { leftToClassValidator } from '../../src/invoke/reading/validator';
import type { Schema } from '../support/json-schema';

/**
 * Each rule of the one table (src/schema/records/validator-rules.ts) that JSON Schema states exactly: for values of
 * the property's JSON type, ajv 2020-12 on the listed schema, reading, and class-validator itself
 * (plainToInstance + validateSync, as a Nest ValidationPipe runs it) give the same verdict, and reading
 * never needs class-validator to run for them.
 */

enum Level {
  Low = 'low',
  Mid = 'mid',
  High = 'high',
}

class Rules {
  @IsOptional() @IsPositive() positive?: number;
  @IsOptional() @IsNegative() negative?: number;
  @IsOptional() @IsInt() @IsDivisibleBy(3) third?: number;
  @IsOptional() @IsIn(['red', 'green']) color?: string;
  @IsOptional() @IsInt() @IsIn([1, 2, 3]) small?: number;
  @IsOptional() @IsIn([Level.Low, Level.High]) level?: Level;
  @IsOptional() @IsNotIn(['admin', 'root']) user?: string;
  @IsOptional() @Equals('yes') consent?: string;
  @IsOptional() @IsNotEmpty() title?: string;
  @IsOptional() @IsArray() @ArrayNotEmpty() @IsPositive({ each: true }) @IsNumber({}, { each: true }) amounts?: number[];
  @IsOptional() @IsObject() @IsNotEmptyObject() meta?: Record<string, unknown>;
  @IsOptional() @IsIP('4') v4?: string;
  @IsOptional() @IsIP('6') v6?: string;
  @IsOptional() @IsIP() ip?: string;
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
  @IsOptional() @Contains('a.b') has?: string;
  @IsOptional() @NotContains('x+') lacks?: string;
}

class Tools {
  @Tool() take(rules: Rules): string {
    return JSON.stringify(rules);
  }
}

const server = new McpServer({ name: 'exact', version: '1' }).add(new Tools());
const listed = server.listTools()[0].inputSchema as Schema;
const record = unwrap(toolsOf(Tools)[0].model.params[0].type) as RecordNode;
const ajv = new Ajv2020({ strict: false });
addFormats(ajv);
const accepts = ajv.compile(listed);

function fragment(name: string): Schema {
  return (listed.properties!.rules as Schema).properties![name];
}

describe('the exact rules are listed as JSON Schema states them', () => {
  it('writes each as its keyword, beside the type and null (@IsOptional)', () => {
    const expected: Record<string, unknown> = {
      positive: { type: ['number', 'null'], exclusiveMinimum: 0 },
      negative: { type: ['number', 'null'], exclusiveMaximum: 0 },
      third: { type: ['integer', 'null'], minimum: -9007199254740991, maximum: 9007199254740991, multipleOf: 3 },
      color: { type: ['string', 'null'], enum: ['red', 'green', null] },
      small: { type: ['integer', 'null'], enum: [1, 2, 3, null], minimum: -9007199254740991, maximum: 9007199254740991 },
      level: { type: ['string', 'null'], enum: ['low', 'high', null] },
      user: { type: ['string', 'null'], not: { enum: ['admin', 'root'] } },
      consent: { type: ['string', 'null'], enum: ['yes', null] },
      title: { type: ['string', 'null'], minLength: 1 },
      amounts: { type: ['array', 'null'], items: { type: 'number', exclusiveMinimum: 0 }, minItems: 1 },
      meta: { type: ['object', 'null'], minProperties: 1 },
      v4: { type: ['string', 'null'], format: 'ipv4' },
      paint: { type: ['string', 'null'], pattern: '^#?(?:[0-9A-Fa-f]{3}|[0-9A-Fa-f]{4}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$' },
      has: { type: ['string', 'null'], pattern: 'a\\.b' },
      lacks: { type: ['string', 'null'], pattern: '^(?![\\s\\S]*x\\+)' },
    };
    for (const [name, schema] of Object.entries(expected))
      expect([name, JSON.stringify(fragment(name))]).toEqual([name, JSON.stringify(schema)]);
  });

  it('leaves none of them to class-validator: reading enforces every one', () => {
    const left = leftToClassValidator(record);
    expect(left.any).toBe(false);
  });
});

// ---- values of each property's JSON type, biased to what its rule turns on ----

const ALPHABET = [...'0123456789abcdefxhABCDEFXHZzTW#:-.,+/=% \n_gé😀'];
const soup = fc.array(fc.constantFrom(...ALPHABET), { maxLength: 20 }).map((a) => a.join(''));

/** ISO 8601 shapes, valid and nearly so (fast-check cannot generate from the pattern's lookaheads). */
const iso = fc
  .tuple(
    fc.constantFrom('2024', '+2024', '-0001', '20240', '999'),
    fc.constantFrom('', '-01', '-13', '-02-30', '01', '-W01', '-W54-7', 'W017', '-366', '-367', '-1', '0229'),
    fc.constantFrom('', 'T', ' ', 't', '\n'),
    fc.constantFrom('', '10', '10:30', '1030', '24:00', '25:00', '10:30:59', '10:30:60', '10:3059', '10:30.5', '10:30:59,5'),
    fc.constantFrom('', 'Z', 'z', '+01', '+0130', '+01:30', '-24', '+1'),
  )
  .map((parts) => parts.join(''));

/** MAC address shapes, valid and nearly so (fast-check cannot generate from the pattern's backreferences). */
const hexPair = fc.constantFrom('00', 'aF', '9b', 'E0', 'g0', '0');
const mac = fc
  .tuple(fc.integer({ min: 5, max: 9 }), fc.constantFrom(':', '-', ' ', '.', ''), fc.constantFrom(':', '-', '\t'), fc.nat())
  .chain(([n, sep, other, at]) =>
    fc
      .array(hexPair, { minLength: n, maxLength: n })
      .map((pairs) => pairs.map((p, i) => (i === 0 ? p : `${i === at % n ? other : sep}${p}`)).join('')),
  );
const dotted = fc.array(fc.constantFrom('0a1B', 'ffff', '0a1', 'g000'), { minLength: 2, maxLength: 5 }).map((g) => g.join('.'));

function near(pattern: string, matching = fc.stringMatching(new RegExp(pattern, 'u'), { size: 'small' })): fc.Arbitrary<string> {
  const mutated = fc
    .tuple(matching, fc.nat(), fc.constantFrom(...ALPHABET), fc.constantFrom('insert', 'replace', 'delete'))
    .map(([s, at, c, how]) => {
      const i = s.length === 0 ? 0 : at % s.length;
      if (how === 'insert') return s.slice(0, i) + c + s.slice(i);
      if (how === 'replace') return s.slice(0, i) + c + s.slice(i + 1);
      return s.slice(0, i) + s.slice(i + 1);
    });
  return fc.oneof(matching, mutated, soup);
}

const numbers = fc.oneof(
  fc.constantFrom(0, -0, 1, -1, 3, 6, 9, -3, 1e-300, -1e-300, Number.MAX_VALUE, -Number.MAX_VALUE, 2 ** 53 - 1, -(2 ** 53 - 1)),
  fc.integer({ min: -1000, max: 1000 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const wholes = fc.oneof(fc.integer({ min: -100, max: 100 }), fc.constantFrom(2 ** 53 - 1, -(2 ** 53 - 1), 2 ** 53 - 3));

const VALUES: Record<string, fc.Arbitrary<unknown>> = {
  positive: numbers,
  negative: numbers,
  third: wholes,
  color: fc.constantFrom('red', 'green', 'blue', 'Red', ''),
  small: wholes.map((n) => n % 5),
  level: fc.constantFrom('low', 'mid', 'high', 'Low'),
  user: fc.constantFrom('admin', 'root', 'Admin', 'alice', ''),
  consent: fc.constantFrom('yes', 'no', 'Yes', ''),
  title: fc.oneof(fc.constant(''), soup),
  amounts: fc.array(numbers, { maxLength: 3 }),
  // Plain keys: class-transformer drops keys such as `toString` and `__proto__` from the object it builds, a
  // difference of building, not of the rule (reading passes a JSON object property on as it was sent).
  meta: fc.oneof(fc.constant({}), fc.dictionary(fc.constantFrom('a', 'b', ''), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 })),
  v4: near(fragmentSource('v4')),
  v6: near(fragmentSource('v6')),
  ip: near(fragmentSource('ip')),
  when: near(fragmentSource('when'), iso),
  day: near(fragmentSource('day'), iso),
  paint: near(fragmentSource('paint')),
  hex: near(fragmentSource('hex')),
  alpha: near(fragmentSource('alpha')),
  alnum: near(fragmentSource('alnum')),
  digits: near(fragmentSource('digits')),
  port: fc.oneof(
    near(fragmentSource('port')),
    fc.integer({ min: -70000, max: 70000 }).map(String),
    fc.constantFrom('-0', '+0', '00', '065535', '65536', '+65535'),
  ),
  mac: near(fragmentSource('mac'), fc.oneof(mac, dotted)),
  b64: near(fragmentSource('b64')),
  has: fc.oneof(
    near('a\\.b'),
    soup.map((s) => `${s}a.b`),
    soup.map((s) => `${s}a-b`),
  ),
  lacks: fc.oneof(
    soup,
    soup.map((s) => `${s}x+${s}`),
    soup.map((s) => `${s}x`),
  ),
};

/** The pattern a fragment lists (the ipv4 format's regex for `v4`). */
function fragmentSource(name: string): string {
  const f = fragment(name);
  return f.pattern ?? '^(?:(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)$';
}

function readingAccepts(result: CallToolResult): boolean {
  const text = (result.content[0] as { text: string }).text;
  if (result.isError && !text.startsWith("Argument '")) throw new Error(`the call failed: ${text}`);
  return !result.isError;
}

function classValidatorAccepts(plain: Record<string, unknown>): boolean {
  return validateSync(plainToInstance(Rules, plain), { forbidUnknownValues: false }).length === 0;
}

describe('ajv on the listing, reading and class-validator agree on every exact rule', () => {
  for (const [name, values] of Object.entries(VALUES)) {
    it(`${name}: ${JSON.stringify(fragment(name))}`, async () => {
      const seen = { accepted: 0, refused: 0 };
      await fc.assert(
        fc.asyncProperty(values, async (value) => {
          const plain = { [name]: value };
          const ajvSays = accepts({ rules: JSON.parse(JSON.stringify(plain)) });
          const ours = readingAccepts(await server.callTool('take', { rules: JSON.parse(JSON.stringify(plain)) }));
          const theirs = classValidatorAccepts(JSON.parse(JSON.stringify(plain)));
          seen[theirs ? 'accepted' : 'refused']++;
          expect({ value, ajv: ajvSays, reading: ours }).toEqual({ value, ajv: theirs, reading: theirs });
        }),
        { seed: 20261201, numRuns: 400 },
      );
      // Both sides of each rule are exercised.
      expect(seen.accepted).toBeGreaterThan(0);
      expect(seen.refused).toBeGreaterThan(0);
    });
  }
});
