import { DictionaryOf, Int32, Int64, Int8, Json, McpServer, Nullable, Param, Range, Tool, Uint32 } from '../../src';

/**
 * Gemini's edge cases, each decided from the published `Schema` of function declarations (ai.google.dev/api/caching#Schema;
 * Vertex AI's FunctionDeclaration): docs/models-and-hosts.md says why. Pinned as exact JSON strings, words off.
 */

class Edges {
  @Tool() none(): void {}
  @Tool() dict(@Param({ type: DictionaryOf(Number) }) d: Record<string, number>): void {}
  @Tool() ints(
    @Param({ type: Int8 }) a: number,
    @Param({ type: Int32 }) b: number,
    @Param({ type: Uint32 }) c: number,
    @Param({ type: Int64 }) d: number,
    @Param() @Range(1, 10) e: number,
    f: number,
    @Param({ type: Nullable(Int32) }) g: number | null,
  ): void {}
  @Tool() anything(@Param({ type: Nullable(Json) }) j: unknown): void {}
}

const server = new McpServer({ name: 't', version: '1' }, { logger: false }).add(new Edges());
const listed = (name: string, listing: 'exact' | 'gemini') =>
  JSON.stringify(server.listTools({ listing, describeConstraints: false }).find((t) => t.name === name)!.inputSchema);

describe("'gemini' edge cases", () => {
  it('a tool without parameters is an OBJECT with no properties (an empty map, the same as none)', () => {
    expect(listed('none', 'gemini')).toBe('{"type":"object","properties":{}}');
  });

  it('a dictionary is an OBJECT without properties, its values in words', () => {
    expect(listed('dict', 'gemini')).toBe(
      '{"type":"object","properties":{"d":{"type":"object","description":"An object of any property names, each value a number."}},"required":["d"]}',
    );
  });

  it('an integer with both bounds inside 32 bits is int32, other bounded integers int64; number has no format', () => {
    expect(listed('ints', 'gemini')).toBe(
      '{"type":"object","properties":{"a":{"type":"integer","format":"int32","minimum":-128,"maximum":127},' +
        '"b":{"type":"integer","format":"int32","minimum":-2147483648,"maximum":2147483647},' +
        '"c":{"type":"integer","format":"int64","minimum":0,"maximum":4294967295},' +
        '"d":{"type":"integer","format":"int64","minimum":-9007199254740991,"maximum":9007199254740991},' +
        '"e":{"type":"number","minimum":1,"maximum":10},"f":{"type":"number"},' +
        '"g":{"type":"integer","format":"int32","nullable":true,"minimum":-2147483648,"maximum":2147483647}},' +
        '"required":["a","b","c","d","e","f","g"],"propertyOrdering":["a","b","c","d","e","f","g"]}',
    );
  });

  it('nullable beside anyOf goes into each branch (nullable adds null to the type, which anyOf has none of)', () => {
    expect(listed('anything', 'gemini')).toBe(
      '{"type":"object","properties":{"j":{"anyOf":[{"type":"string","nullable":true},{"type":"number","nullable":true},{"type":"boolean","nullable":true}]}},"required":["j"]}',
    );
  });

  it('the exact listing of the same tools is unchanged (no format on integers, null in the type)', () => {
    expect(listed('ints', 'exact')).toContain('"b":{"type":"integer","minimum":-2147483648,"maximum":2147483647}');
    expect(listed('none', 'exact')).toBe('{"type":"object","properties":{},"additionalProperties":false}');
  });
});
