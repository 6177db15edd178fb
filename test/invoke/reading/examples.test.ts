import fc from 'fast-check';
import { Equals, IsAlpha, IsDivisibleBy, IsIP, IsIn, IsInt, IsNotIn, IsPositive, Length, Matches, Max, Min } from 'class-validator';
import {
  ArrayOf,
  Bytes,
  Char,
  DateOnly,
  DictionaryOf,
  Field,
  Int16,
  Int32,
  Int64,
  Int8,
  Json,
  JsonArray,
  JsonObject,
  Nullable,
  SetOf,
  StringLiterals,
  TimeOnly,
  TimeSpan,
  Uint16,
  Uint32,
  Uint64,
  Uint8,
  Uuid,
  McpServer,
  Param,
  Tool,
  type TypeHint,
} from '../../../src';
import { exampleOf } from '../../../src/invoke/reading/examples';
import { INVALID, newFailure } from '../../../src/invoke/reading/failure';
import { readerOf } from '../../../src/invoke/reading/reader';
import type { TypeNode } from '../../../src/schema/model';
import { toolFromConfig } from '../../../src/schema/members/quick';
import { toolsOf } from '../../../src/schema/members/tools';
import { probe, textOf } from '../../support/probe';

enum Color {
  Red,
  Green,
  Blue,
}
enum Size {
  Small = 'S',
  Large = 'L',
}

class Line {
  @Field() sku!: string;
  @Field({ type: Int32 }) qty!: number;
  @Field({ optional: true }) note?: string;
}

/** The model node of a quick-path parameter of this hint. */
function nodeOf(hint: TypeHint): TypeNode {
  return toolFromConfig('t', { params: { v: hint } }).params[0].type;
}

/** The model node of a class tool's one parameter: a record with class-validator rules. */
function recordNodeOf(dto: Function): TypeNode {
  class Tools {
    @Tool() take(@Param({ name: 'dto', type: dto as TypeHint }) _value: object): string {
      return 'ok';
    }
  }
  return toolsOf(Tools)[0].model.params[0].type;
}

/** Each row of docs/schema-mapping.md's table, with the example generated for it. */
const rows: [string, TypeHint, unknown][] = [
  ['boolean', Boolean, true],
  ['number', Number, 0],
  ['Int8', Int8, 0],
  ['Uint8', Uint8, 0],
  ['Int16', Int16, 0],
  ['Uint16', Uint16, 0],
  ['Int32', Int32, 0],
  ['Uint32', Uint32, 0],
  ['Int64', Int64, 0],
  ['Uint64', Uint64, 0],
  ['bigint', BigInt, 0],
  ['string', String, 'text'],
  ['Char', Char, 't'],
  ['Uuid', Uuid, '3fa85f64-5717-4562-b3fc-2c963f66afa6'],
  ['Date', Date, '2026-12-02T12:00:00Z'],
  ['DateOnly', DateOnly, '2026-12-02'],
  ['TimeOnly', TimeOnly, '12:00:00'],
  ['TimeSpan', TimeSpan, '1.02:03:04'],
  ['URL', URL, 'https://example.com'],
  ['Uint8Array', Uint8Array, 'aGVsbG8='],
  ['Buffer', Buffer, 'aGVsbG8='],
  ['Bytes', Bytes, 'aGVsbG8='],
  ['string enum', Size, 'S'],
  ['numeric enum', Color, 'Red'],
  ['StringLiterals', StringLiterals('a', 'b'), 'a'],
  ['Nullable', Nullable(Int8), 0],
  ['ArrayOf', ArrayOf(Int8), [0]],
  ['[h]', [String], ['text']],
  ['SetOf', SetOf(String), ['text']],
  ['DictionaryOf', DictionaryOf(Number), { key: 0 }],
  ['Json', Json, {}],
  ['JsonObject', JsonObject, {}],
  ['JsonArray', JsonArray, []],
  ['record class', Line, { sku: 'text', qty: 0 }],
  ['array of records', ArrayOf(Line), [{ sku: 'text', qty: 0 }]],
];

describe('every row of the type table has an example its own reader accepts', () => {
  it.each(rows)('%s', async (_row, hint, expected) => {
    const node = nodeOf(hint);
    const example = exampleOf(node);
    expect(example).toEqual(expected);
    expect(readerOf(node)(example, newFailure())).not.toBe(INVALID);
    // And through a tool call, as a model would send it.
    expect((await probe(hint)(example)).result.isError).toBeUndefined();
  });
});

describe('examples respect the rules a node lists', () => {
  class Dto {
    @IsInt() @Min(1) @Max(1000) @Field({ type: Int32 }) qty!: number;
    @IsInt() @IsPositive() @IsDivisibleBy(7) @Field({ type: Int32 }) week!: number;
    @IsPositive() @Field() weight!: number;
    @IsInt() @Min(-10) @Max(-3) @Field({ type: Int32 }) below!: number;
    @Length(5, 10) @Field() name!: string;
    @Matches(/^[a-z]+$/u) @Field() slug!: string;
    @Matches(/^[0-9]{3}$/u) @Field() code!: string;
    @IsIP('4') @Field() ip!: string;
    @IsAlpha() @Field() letters!: string;
    @IsIn(['x', 'y']) @Field() pick!: string;
    @IsNotIn([0, 1]) @Field({ type: Int32 }) notLow!: number;
    @Equals(3) @Field({ type: Int32 }) three!: number;
  }
  const record = recordNodeOf(Dto);

  it('the record example is valid and each property is what the rules allow, nearest to zero', () => {
    const example = exampleOf(record);
    expect(example).toEqual({
      qty: 1,
      week: 7,
      weight: 1,
      below: -3,
      name: 'textx',
      slug: 'text',
      code: '123',
      ip: '192.0.2.1',
      letters: 'abc',
      pick: 'x',
      notLow: 2,
      three: 3,
    });
    expect(readerOf(record, 'check')(example, newFailure())).not.toBe(INVALID);
  });

  it('a pattern no candidate matches has no example, and its refusal says so in words', async () => {
    class Odd {
      @Matches(/^zz[0-9]q$/u) @Field() odd!: string;
    }
    const node = recordNodeOf(Odd);
    expect(exampleOf(node)).toBeUndefined();
    class Tools {
      @Tool() take(@Param({ name: 'dto', type: Odd }) _value: object): string {
        return 'ok';
      }
    }
    const server = new McpServer({ name: 'e', version: '1' }).add(new Tools());
    expect(textOf(await server.callTool('take', { dto: { odd: 'x' } }))).toBe(
      `Argument 'dto.odd' is not valid. Expected text of the required form (the "pattern" of its schema).`,
    );
    expect(textOf(await server.callTool('take', { dto: 3 }))).toBe(
      `Argument 'dto' is not valid. Expected an object with "odd", got a number.`,
    );
  });
});

/** One refusal of each kind: [row, hint, value sent, the whole text]. */
const refusals: [string, TypeHint, unknown, string][] = [
  ['boolean', Boolean, 'yes', 'Expected true or false, got a string.'],
  ['number', Number, '1', 'Expected a number, such as 0.'],
  ['integer', Uint8, 256, 'Expected a whole number from 0 to 255, such as 0.'],
  ['string', String, 1, 'Expected a string, such as "text", got a number.'],
  ['length', Char, 'ab', 'Expected exactly 1 character, such as "t".'],
  ['uuid', Uuid, 'x', 'Expected a UUID, such as "3fa85f64-5717-4562-b3fc-2c963f66afa6".'],
  ['date-time', Date, '2026-12-02', 'Expected an RFC 3339 date-time, such as "2026-12-02T12:00:00Z".'],
  ['date', DateOnly, '2026-13-01', 'Expected an RFC 3339 date, such as "2026-12-02".'],
  ['time', TimeOnly, '25:00:00', 'Expected a time, such as "12:00:00".'],
  ['time span', TimeSpan, '1:2:3', 'Expected a time span ([-][d.]hh:mm:ss[.fffffff]), such as "1.02:03:04".'],
  ['time span not text', TimeSpan, 5, 'Expected a time span ([-][d.]hh:mm:ss[.fffffff]), such as "1.02:03:04", got a number.'],
  ['uri', URL, 'relative', 'Expected an absolute URI, such as "https://example.com".'],
  ['URL the parser refuses', URL, 'http://a:99999', 'Expected an absolute URL, such as "https://example.com".'],
  ['bytes', Bytes, 'aGVsbG8', 'Expected base64 text, such as "aGVsbG8=".'],
  ['enum', Color, 'Purple', 'Expected one of: "Red", "Green", "Blue".'],
  ['array', ArrayOf(Int8), 'x', 'Expected an array, such as [0], got a string.'],
  ['dictionary', DictionaryOf(Int8), [], 'Expected an object, such as {"key":0}, got an array.'],
  ['JSON object', JsonObject, [], 'Expected a JSON object, such as {}, got an array.'],
  ['JSON array', JsonArray, {}, 'Expected a JSON array, such as [], got an object.'],
  ['record', Line, 'x', 'Expected an object, such as {"sku":"text","qty":0}, got a string.'],
];

describe('a refusal of each kind says what was expected and shows one valid value', () => {
  it.each(refusals)('%s', async (_kind, hint, value, text) => {
    expect(textOf((await probe(hint)(value)).result)).toBe(`Argument 'v' is not valid. ${text}`);
  });

  it('a missing required argument names its type and an example', async () => {
    const server = new McpServer({ name: 'e', version: '1' }).tool('t', { params: { qty: Uint8, line: Line } }, () => 'ok');
    expect(textOf(await server.callTool('t', {}))).toBe(
      [
        "Argument 'qty' is not valid. It is required: a whole number from 0 to 255, such as 0.",
        `Argument 'line' is not valid. It is required: an object, such as {"sku":"text","qty":0}.`,
      ].join('\n'),
    );
    expect(textOf(await server.callTool('t', { qty: 1, line: { sku: 'a' } }))).toBe(
      "Argument 'line.qty' is not valid. It is required: a whole number from -2147483648 to 2147483647, such as 0.",
    );
  });

  it('a failing rule shows a value that passes every rule of the node', async () => {
    class Dto {
      @IsInt() @IsPositive() @IsDivisibleBy(7) @Field({ type: Int32 }) week!: number;
    }
    class Tools {
      @Tool() take(@Param({ name: 'dto', type: Dto }) _value: object): string {
        return 'ok';
      }
    }
    const server = new McpServer({ name: 'e', version: '1' }).add(new Tools());
    expect(textOf(await server.callTool('take', { dto: { week: 3 } }))).toBe(
      "Argument 'dto.week' is not valid. Expected a multiple of 7, such as 7.",
    );
    expect(textOf(await server.callTool('take', { dto: { week: -14 } }))).toBe(
      "Argument 'dto.week' is not valid. Expected a number greater than 0, such as 7.",
    );
  });
});

/** Hints of every model kind, nested a little. */
const leaves: TypeHint[] = [
  Boolean,
  Number,
  Int8,
  Uint64,
  BigInt,
  String,
  Char,
  Uuid,
  Date,
  DateOnly,
  TimeOnly,
  TimeSpan,
  URL,
  Bytes,
  Color,
  Size,
  StringLiterals('p', 'q'),
  Json,
  JsonObject,
  JsonArray,
  Line,
];
const hint: fc.Arbitrary<TypeHint> = fc.letrec<{ h: TypeHint }>((tie) => ({
  h: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(...leaves),
    tie('h').map((h) => ArrayOf(h) as TypeHint),
    tie('h').map((h) => SetOf(h) as TypeHint),
    tie('h').map((h) => DictionaryOf(h) as TypeHint),
    tie('h').map((h) => Nullable(h) as TypeHint),
  ),
})).h;

/** Anything that looks like a regular expression: anchors and escapes. */
const REGEX = /[\^$]|\\[dDwWsSbB]|\(\?[:=!<]/;

describe('property: over every model kind', () => {
  it('the example is accepted and no refusal shows a raw regular expression', async () => {
    await fc.assert(
      fc.asyncProperty(hint, fc.jsonValue({ maxDepth: 2 }), async (h, sent) => {
        const node = nodeOf(h);
        const example = exampleOf(node);
        expect(example).not.toBeUndefined();
        expect(readerOf(node)(example, newFailure())).not.toBe(INVALID);
        const { result } = await probe(h)(sent);
        if (!result.isError) return;
        const text = textOf(result);
        for (const line of text.split('\n')) {
          expect(line).toMatch(/^Argument '.*' is not valid\. /);
          expect(line.replace(/^Argument '.*?' is not valid\. /, '')).not.toMatch(REGEX);
        }
      }),
      { numRuns: 300 },
    );
  });
});
