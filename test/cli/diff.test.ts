import { diffJson } from '../../src/cli/diff';

describe('diffJson: one line per change, at its JSON path', () => {
  it('finds nothing in equal values', () => {
    expect(diffJson({ a: [1, { b: null }] }, { a: [1, { b: null }] })).toEqual([]);
  });

  it('says a key order changed: key order is part of the contract', () => {
    expect(diffJson({ type: 'string', description: 'x' }, { description: 'x', type: 'string' })).toEqual([
      '(root): key order changed ["type","description"] -> ["description","type"]',
    ]);
  });

  it('matches named entries by name, and resources by URI, whatever their position', () => {
    const before = { tools: [{ name: 'a' }, { name: 'b', title: 'B' }], resources: [{ uri: 'x://1', name: 'same' }] };
    const after = { tools: [{ name: 'b', title: 'Bee' }, { name: 'c' }], resources: [{ uri: 'x://2', name: 'same' }] };
    expect(diffJson(before, after)).toEqual([
      'tools.a: removed',
      'tools.c: added',
      'tools.b.title: changed "B" -> "Bee"',
      'resources["x://1"]: removed',
      'resources["x://2"]: added',
    ]);
  });

  it('reads a list of values as a set, then its order (enum order is listed order)', () => {
    expect(diffJson({ enum: ['a', 'b', 'c'] }, { enum: ['c', 'b', 'd'] })).toEqual([
      'enum: removed "a"',
      'enum: added "d"',
      'enum: order changed ["b","c"] -> ["c","b"]',
    ]);
  });

  it('compares other lists position by position', () => {
    expect(diffJson({ oneOf: [{ type: 'string' }, { type: 'number' }] }, { oneOf: [{ type: 'integer' }] })).toEqual([
      'oneOf[0].type: changed "string" -> "integer"',
      'oneOf[1]: removed {"type":"number"}',
    ]);
  });

  it('shows a long value by its kind only, and quotes keys that are not plain words', () => {
    const long = { description: 'x'.repeat(100) };
    expect(diffJson({ properties: {} }, { properties: { 'a b': long } })).toEqual(['properties["a b"]: added']);
    expect(diffJson({ v: 'x'.repeat(90) }, { v: 1 })).toEqual([`v: changed "${'x'.repeat(79)}... -> 1`]);
    expect(diffJson({ v: 1 }, { v: [1] })).toEqual(['v: changed 1 -> [1]']);
  });
});
