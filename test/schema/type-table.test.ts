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
  McpServer,
  Nullable,
  SetOf,
  TimeOnly,
  TimeSpan,
  Uint16,
  Uint32,
  Uint64,
  Uint8,
  Uuid,
  type TypeHint,
} from '../../src';

enum Color {
  Red,
  Green,
  Blue,
}
enum Size {
  Small = 'S',
  Large = 'L',
}
enum Mixed {
  A = 1,
  B = 'b',
}

class Point {
  @Field() x!: number;
  @Field() y!: number;
}

/** The schema the quick path lists for one parameter `v` of the given hint. */
function fragment(hint: TypeHint): string {
  const server = new McpServer({ name: 't', version: '1' });
  server.tool('t', { params: { v: hint } }, () => undefined);
  const schema = server.listTools()[0].inputSchema as { properties: { v: unknown } };
  return JSON.stringify(schema.properties.v);
}

const SAFE = '9007199254740991';
const rows: [string, TypeHint, string][] = [
  ['boolean', Boolean, '{"type":"boolean"}'],
  ['number', Number, '{"type":"number"}'],
  ['Int8', Int8, '{"type":"integer","minimum":-128,"maximum":127}'],
  ['Uint8', Uint8, '{"type":"integer","minimum":0,"maximum":255}'],
  ['Int16', Int16, '{"type":"integer","minimum":-32768,"maximum":32767}'],
  ['Uint16', Uint16, '{"type":"integer","minimum":0,"maximum":65535}'],
  ['Int32', Int32, '{"type":"integer","minimum":-2147483648,"maximum":2147483647}'],
  ['Uint32', Uint32, '{"type":"integer","minimum":0,"maximum":4294967295}'],
  ['Int64', Int64, `{"type":"integer","minimum":-${SAFE},"maximum":${SAFE}}`],
  ['Uint64', Uint64, `{"type":"integer","minimum":0,"maximum":${SAFE}}`],
  ['bigint', BigInt, `{"type":"integer","minimum":-${SAFE},"maximum":${SAFE}}`],
  ['string', String, '{"type":"string"}'],
  ['Char', Char, '{"type":"string","minLength":1,"maxLength":1}'],
  ['Uuid', Uuid, '{"type":"string","format":"uuid"}'],
  ['Date', Date, '{"type":"string","format":"date-time"}'],
  ['DateOnly', DateOnly, '{"type":"string","format":"date"}'],
  ['TimeOnly', TimeOnly, '{"type":"string","format":"time"}'],
  [
    'TimeSpan',
    TimeSpan,
    '{"type":"string","pattern":"^-?(?:\\\\d{1,8}\\\\.)?(?:[01]\\\\d|2[0-3]):[0-5]\\\\d:[0-5]\\\\d(?:\\\\.\\\\d{1,7})?$"}',
  ],
  ['URL', URL, '{"type":"string","format":"uri"}'],
  ['Uint8Array', Uint8Array, '{"type":"string","contentEncoding":"base64"}'],
  ['Buffer', Buffer, '{"type":"string","contentEncoding":"base64"}'],
  ['Bytes', Bytes, '{"type":"string","contentEncoding":"base64"}'],
  ['numeric enum', Color, '{"type":"string","enum":["Red","Green","Blue"]}'],
  ['string enum (by value)', Size, '{"type":"string","enum":["S","L"]}'],
  ['mixed enum', Mixed, '{"type":"string","enum":["A","B"]}'],
  ['Nullable(string)', Nullable(String), '{"type":["string","null"]}'],
  ['Nullable(Int32)', Nullable(Int32), '{"type":["integer","null"],"minimum":-2147483648,"maximum":2147483647}'],
  ['Nullable(enum)', Nullable(Color), '{"type":["string","null"],"enum":["Red","Green","Blue",null]}'],
  ['Nullable(Uuid)', Nullable(Uuid), '{"type":["string","null"],"format":"uuid"}'],
  ['Nullable(Nullable(string))', Nullable(Nullable(String)), '{"type":["string","null"]}'],
  ['ArrayOf(string)', ArrayOf(String), '{"type":"array","items":{"type":"string"}}'],
  ['[Int8] shorthand', [Int8], '{"type":"array","items":{"type":"integer","minimum":-128,"maximum":127}}'],
  ['ArrayOf(Nullable(string))', ArrayOf(Nullable(String)), '{"type":"array","items":{"type":["string","null"]}}'],
  ['Nullable(ArrayOf(string))', Nullable(ArrayOf(String)), '{"type":["array","null"],"items":{"type":"string"}}'],
  ['SetOf(string)', SetOf(String), '{"type":"array","items":{"type":"string"},"uniqueItems":true}'],
  ['DictionaryOf(number)', DictionaryOf(Number), '{"type":"object","additionalProperties":{"type":"number"}}'],
  [
    'DictionaryOf([Uuid])',
    DictionaryOf([Uuid]),
    '{"type":"object","additionalProperties":{"type":"array","items":{"type":"string","format":"uuid"}}}',
  ],
  ['Json', Json, '{}'],
  ['Nullable(Json)', Nullable(Json), '{}'],
  ['JsonObject', JsonObject, '{"type":"object"}'],
  ['JsonArray', JsonArray, '{"type":"array"}'],
  [
    'record',
    Point,
    '{"type":"object","properties":{"x":{"type":"number"},"y":{"type":"number"}},"required":["x","y"],"additionalProperties":false}',
  ],
  [
    'Nullable(record)',
    Nullable(Point),
    '{"type":["object","null"],"properties":{"x":{"type":"number"},"y":{"type":"number"}},"required":["x","y"],"additionalProperties":false}',
  ],
  ['thunk', () => Int16, '{"type":"integer","minimum":-32768,"maximum":32767}'],
  [
    'thunk to record array',
    () => [Point],
    `{"type":"array","items":${'{"type":"object","properties":{"x":{"type":"number"},"y":{"type":"number"}},"required":["x","y"],"additionalProperties":false}'}}`,
  ],
];

describe('the type table (DESIGN.md section 5)', () => {
  it.each(rows)('%s', (_name, hint, expected) => {
    expect(fragment(hint)).toBe(expected);
  });

  it('writes the TimeSpan pattern that accepts exactly the .NET c form', () => {
    const pattern = new RegExp(JSON.parse(fragment(TimeSpan)).pattern);
    for (const ok of ['00:00:00', '1.02:03:04', '-23:59:59.1234567', '10675199.02:48:05.4775807']) expect(pattern.test(ok)).toBe(true);
    for (const bad of ['24:00:00', '1:2:3', '00:60:00', '00:00:00.12345678', 'P1D', '1.2.03:04:05']) expect(pattern.test(bad)).toBe(false);
  });

  it('lists a parameter named __proto__ as an own property, not a prototype', () => {
    const server = new McpServer({ name: 't', version: '1' });
    server.tool('proto', { params: { ['__proto__']: String } }, () => 'x');
    expect(JSON.stringify(server.listTools()[0].inputSchema)).toBe(
      '{"type":"object","properties":{"__proto__":{"type":"string"}},"required":["__proto__"],"additionalProperties":false}',
    );
  });

  it('lists a tool without parameters as an empty closed object', () => {
    const server = new McpServer({ name: 't', version: '1' });
    server.tool('none', {}, () => 'x');
    expect(JSON.stringify(server.listTools()[0].inputSchema)).toBe('{"type":"object","properties":{},"additionalProperties":false}');
  });
});
