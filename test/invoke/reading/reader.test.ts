import {
  ArrayOf,
  Bytes,
  Char,
  DateOnly,
  DictionaryOf,
  Int16,
  Int32,
  Int64,
  Int8,
  Json,
  JsonArray,
  JsonObject,
  Nullable,
  SetOf,
  TimeOnly,
  TimeSpan,
  Uint16,
  Uint32,
  Uint64,
  Uint8,
  Uuid,
  McpServer,
  type TypeHint,
} from '../../../src';
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

const UUID = '0f8fad5b-d9cb-469f-a165-70867728950e';

/** [row, hint, valid values with what the method receives, invalid values with the expected sentence]. */
const table: [string, TypeHint, [unknown, unknown][], ([unknown, string] | [unknown, string, string])[]][] = [
  [
    'boolean',
    Boolean,
    [
      [true, true],
      [false, false],
    ],
    [
      ['true', 'Expected true or false, got a string.'],
      [0, 'Expected true or false, got a number.'],
      [null, 'Expected true or false, got null.'],
    ],
  ],
  [
    'number',
    Number,
    [
      [1.5, 1.5],
      [-0.25, -0.25],
      [1e300, 1e300],
    ],
    [
      ['2', 'Expected a number, such as 0.'],
      [[], 'Expected a number, such as 0.'],
      [{}, 'Expected a number, such as 0.'],
    ],
  ],
  [
    'Int8',
    Int8,
    [
      [-128, -128],
      [127, 127],
    ],
    [
      [128, 'Expected a whole number from -128 to 127, such as 0.'],
      [-129, 'Expected a whole number from -128 to 127, such as 0.'],
      [1.5, 'Expected a whole number from -128 to 127, such as 0.'],
      ['2', 'Expected a whole number from -128 to 127, such as 0.'],
    ],
  ],
  [
    'Uint8',
    Uint8,
    [
      [0, 0],
      [255, 255],
    ],
    [
      [-1, 'Expected a whole number from 0 to 255, such as 0.'],
      [256, 'Expected a whole number from 0 to 255, such as 0.'],
    ],
  ],
  ['Int16', Int16, [[-32768, -32768]], [[32768, 'Expected a whole number from -32768 to 32767, such as 0.']]],
  ['Uint16', Uint16, [[65535, 65535]], [[65536, 'Expected a whole number from 0 to 65535, such as 0.']]],
  [
    'Int32',
    Int32,
    [
      [2147483647, 2147483647],
      [2.0, 2],
    ],
    [
      [2147483648, 'Expected a whole number from -2147483648 to 2147483647, such as 0.'],
      [0.1, 'Expected a whole number from -2147483648 to 2147483647, such as 0.'],
    ],
  ],
  ['Uint32', Uint32, [[4294967295, 4294967295]], [[-1, 'Expected a whole number from 0 to 4294967295, such as 0.']]],
  [
    'Int64',
    Int64,
    [[9007199254740991, 9007199254740991]],
    [[9007199254740992, 'Expected a whole number from -9007199254740991 to 9007199254740991, such as 0.']],
  ],
  ['Uint64', Uint64, [[0, 0]], [[-1, 'Expected a whole number from 0 to 9007199254740991, such as 0.']]],
  ['bigint', BigInt, [[42, 42n]], [[1.5, 'Expected a whole number from -9007199254740991 to 9007199254740991, such as 0.']]],
  [
    'string',
    String,
    [
      ['', ''],
      ['héllo', 'héllo'],
    ],
    [
      [1, 'Expected a string, such as "text", got a number.'],
      [null, 'Expected a string, such as "text", got null.'],
    ],
  ],
  [
    'Char',
    Char,
    [
      ['x', 'x'],
      ['😀', '😀'],
    ],
    [
      ['', 'Expected exactly 1 character, such as "t".'],
      ['ab', 'Expected exactly 1 character, such as "t".'],
    ],
  ],
  [
    'Uuid',
    Uuid,
    [[UUID, UUID]],
    [
      ['not-a-uuid', 'Expected a UUID, such as "3fa85f64-5717-4562-b3fc-2c963f66afa6".'],
      [UUID + 'x', 'Expected a UUID, such as "3fa85f64-5717-4562-b3fc-2c963f66afa6".'],
    ],
  ],
  [
    'Date',
    Date,
    [
      ['2024-05-01T12:00:00Z', new Date('2024-05-01T12:00:00Z')],
      ['2024-05-01T12:00:00.5+02:00', new Date('2024-05-01T10:00:00.5Z')],
    ],
    [
      ['2024-05-01', 'Expected an RFC 3339 date-time, such as "2026-12-02T12:00:00Z".'],
      ['2024-02-30T00:00:00Z', 'Expected an RFC 3339 date-time, such as "2026-12-02T12:00:00Z".'],
      [1714564800000, 'Expected an RFC 3339 date-time, such as "2026-12-02T12:00:00Z", got a number.'],
    ],
  ],
  [
    'DateOnly',
    DateOnly,
    [['2024-02-29', '2024-02-29']],
    [
      ['2023-02-29', 'Expected an RFC 3339 date, such as "2026-12-02".'],
      ['2024-5-1', 'Expected an RFC 3339 date, such as "2026-12-02".'],
    ],
  ],
  [
    'TimeOnly',
    TimeOnly,
    [
      ['14:30:00', '14:30:00'],
      ['23:59:59.999Z', '23:59:59.999Z'],
    ],
    [
      ['25:00:00', 'Expected a time, such as "12:00:00".'],
      ['2pm', 'Expected a time, such as "12:00:00".'],
    ],
  ],
  [
    'TimeSpan',
    TimeSpan,
    [
      ['01:02:03', 3723000],
      ['1.00:00:00.5', 86400500],
      ['-00:00:01', -1000],
    ],
    [
      ['1:2:3', 'Expected a time span ([-][d.]hh:mm:ss[.fffffff]), such as "1.02:03:04".'],
      ['PT1H', 'Expected a time span ([-][d.]hh:mm:ss[.fffffff]), such as "1.02:03:04".'],
    ],
  ],
  [
    'URL',
    URL,
    [
      ['https://example.com/a?b=1', new URL('https://example.com/a?b=1')],
      ['urn:isbn:0451450523', new URL('urn:isbn:0451450523')],
    ],
    [
      ['/relative/path', 'Expected an absolute URI, such as "https://example.com".'],
      ['not a uri', 'Expected an absolute URI, such as "https://example.com".'],
    ],
  ],
  [
    'Bytes',
    Bytes,
    [['aGVsbG8=', new Uint8Array(Buffer.from('hello'))]],
    [
      ['not base64!', 'Expected base64 text, such as "aGVsbG8=".'],
      ['aGVsbG8', 'Expected base64 text, such as "aGVsbG8=".'],
    ],
  ],
  ['Buffer', Buffer, [['aGk=', Buffer.from('hi')]], [[[104, 105], 'Expected base64 text, such as "aGVsbG8=".']]],
  [
    'numeric enum',
    Color,
    [['Green', Color.Green]],
    [
      ['green', 'Expected one of: "Red", "Green", "Blue".'],
      [1, 'Expected one of: "Red", "Green", "Blue".'],
      ['toString', 'Expected one of: "Red", "Green", "Blue".'],
    ],
  ],
  ['string enum (by value)', Size, [['L', 'L']], [['Large', 'Expected one of: "S", "L".']]],
  [
    'Nullable(Int32)',
    Nullable(Int32),
    [
      [null, null],
      [3, 3],
    ],
    [['3', 'Expected a whole number from -2147483648 to 2147483647, such as 0.']],
  ],
  [
    'Nullable(enum)',
    Nullable(Color),
    [
      [null, null],
      ['Red', Color.Red],
    ],
    [['Purple', 'Expected one of: "Red", "Green", "Blue".']],
  ],
  [
    'ArrayOf(Int8)',
    ArrayOf(Int8),
    [
      [
        [1, 2],
        [1, 2],
      ],
      [[], []],
    ],
    [
      [{ 0: 1 }, 'Expected an array, such as [0], got an object.'],
      ['[1]', 'Expected an array, such as [0], got a string.'],
    ],
  ],
  [
    'SetOf(string)',
    SetOf(String),
    [[['a', 'b', 'a'], new Set(['a', 'b'])]],
    [[[1], 'Expected a string, such as "text", got a number.', 'v[0]']],
  ],
  [
    'DictionaryOf(number)',
    DictionaryOf(Number),
    [[{ a: 1 }, Object.assign(Object.create(null), { a: 1 })]],
    [
      [[1], 'Expected an object, such as {"key":0}, got an array.'],
      [{ a: 'x' }, 'Expected a number, such as 0.', 'v.a'],
    ],
  ],
  [
    'Json',
    Json,
    [
      [null, null],
      [{ a: [1, 'x'] }, { a: [1, 'x'] }],
      ['s', 's'],
    ],
    [],
  ],
  [
    'JsonObject',
    JsonObject,
    [[{ a: 1 }, { a: 1 }]],
    [
      [[1], 'Expected a JSON object, such as {}, got an array.'],
      [null, 'Expected a JSON object, such as {}, got null.'],
    ],
  ],
  [
    'JsonArray',
    JsonArray,
    [
      [
        [1, {}],
        [1, {}],
      ],
    ],
    [[{}, 'Expected a JSON array, such as [], got an object.']],
  ],
];

describe('reading every type row', () => {
  describe.each(table)('%s', (_row, hint, valid, invalid) => {
    const call = probe(hint);
    if (valid.length > 0) {
      it.each(valid)('reads %j', async (value, expected) => {
        const { result, received } = await call(value);
        expect(result.isError).toBeUndefined();
        expect(received).toEqual(expected);
        if (expected !== null && typeof expected === 'object')
          expect(Object.getPrototypeOf(received)).toBe(Object.getPrototypeOf(expected));
      });
    }
    if (invalid.length > 0) {
      it.each(invalid)('refuses %j', async (value, expected, path = 'v') => {
        const { result, received } = await call(value);
        expect(result.isError).toBe(true);
        expect(textOf(result)).toBe(`Argument '${path}' is not valid. ${expected}`);
        expect(received).toBeUndefined();
      });
    }
  });
});

describe('paths and argument rules', () => {
  const server = new McpServer({ name: 't', version: '1' }).tool(
    't',
    { params: { items: ArrayOf(DictionaryOf(ArrayOf(Int8))), name: { type: String, optional: true }, n: { type: Int8, default: 7 } } },
    (args) => JSON.stringify(args),
  );

  it('names the path through arrays and dictionaries', async () => {
    const result = await server.callTool('t', { items: [{ a: [1] }, { b: [1, 2, 300] }] });
    expect(textOf(result)).toBe("Argument 'items[1].b[2]' is not valid. Expected a whole number from -128 to 127, such as 0.");
  });

  it('quotes keys that are not identifiers and cuts long ones', async () => {
    const long = 'k'.repeat(100);
    expect(textOf(await server.callTool('t', { items: [{ 'a b': ['x'] }] }))).toBe(
      `Argument 'items[0]["a b"][0]' is not valid. Expected a whole number from -128 to 127, such as 0.`,
    );
    expect(textOf(await server.callTool('t', { items: [{ [long]: ['x'] }] }))).toBe(
      `Argument 'items[0]["${'k'.repeat(64)}…"][0]' is not valid. Expected a whole number from -128 to 127, such as 0.`,
    );
  });

  it('refuses a missing required argument', async () => {
    expect(textOf(await server.callTool('t', {}))).toBe(
      'Argument \'items\' is not valid. It is required: an array, such as [{"key":[0]}].',
    );
  });

  it('refuses an unknown argument after the declared ones are valid', async () => {
    expect(textOf(await server.callTool('t', { items: [], extra: 1 }))).toBe("Argument 'extra' is not valid. There is no such argument.");
  });

  it('reports the first invalid argument in parameter order, then every other one', async () => {
    expect(textOf(await server.callTool('t', { zzz: 1, n: 'x', items: 'y' }))).toBe(
      [
        'Argument \'items\' is not valid. Expected an array, such as [{"key":[0]}], got a string.',
        "Argument 'n' is not valid. Expected a whole number from -128 to 127, such as 0.",
        "Argument 'zzz' is not valid. There is no such argument.",
      ].join('\n'),
    );
  });

  it('refuses null for an optional argument that is not nullable', async () => {
    expect(textOf(await server.callTool('t', { items: [], name: null }))).toBe(
      'Argument \'name\' is not valid. Expected a string, such as "text", got null.',
    );
  });

  it('supplies defaults and leaves optional arguments out', async () => {
    expect(textOf(await server.callTool('t', { items: [] }))).toBe('{"items":[],"n":7}');
  });

  it('refuses arguments that are not an object', async () => {
    expect(textOf(await server.callTool('t', [1, 2]))).toBe("Argument '' is not valid. Arguments must be an object.");
  });

  it('counts string lengths in code points', async () => {
    const s = new McpServer({ name: 't', version: '1' }).tool('s', { params: { v: Char } }, () => 'ok');
    expect((await s.callTool('s', { v: '𝄞' })).isError).toBeUndefined();
    expect((await s.callTool('s', { v: '𝄞𝄞' })).isError).toBe(true);
  });

  it('reads an oversized array without losing items', async () => {
    let got: number[] = [];
    const s = new McpServer({ name: 't', version: '1' }).tool('big', { params: { v: [Int32] } }, ({ v }) => {
      got = v as number[];
    });
    const big = Array.from({ length: 200_000 }, (_, i) => i);
    expect((await s.callTool('big', { v: big })).isError).toBeUndefined();
    expect(got).toEqual(big);
    expect(textOf(await s.callTool('big', { v: [...big, 'x'] }))).toBe(
      "Argument 'v[200000]' is not valid. Expected a whole number from -2147483648 to 2147483647, such as 0.",
    );
  });
});
