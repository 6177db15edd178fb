import { violationLines } from './support/gemini-rules';

/**
 * The checker the framework tests run on every declaration the fake Gemini API receives: it passes what Gemini's
 * `Schema` takes and names, by path, each thing it does not (so a test expecting none can fail).
 */

describe("Gemini's Schema rules", () => {
  it('take every field of the Schema object, in either spelling of the type', () => {
    expect(
      violationLines({
        type: 'OBJECT',
        title: 'Order',
        description: 'An order.',
        nullable: false,
        properties: {
          a: { type: 'string', format: 'enum', enum: ['x', 'y'], default: 'x', example: 'y' },
          b: { type: 'STRING', format: 'date-time', minLength: 1, maxLength: '20', pattern: '^2' },
          c: { type: 'integer', format: 'int32', minimum: 1, maximum: 9 },
          d: { type: 'INTEGER', format: 'int64' },
          e: { type: 'number', format: 'float' },
          f: { type: 'NUMBER', format: 'double', nullable: true },
          g: { type: 'array', items: { type: 'boolean' }, minItems: 1, maxItems: 3 },
          h: { anyOf: [{ type: 'string' }, { type: 'number' }] },
          i: { type: 'object', minProperties: 0, maxProperties: 4 },
          j: { type: 'null' },
        },
        required: ['a', 'b'],
        propertyOrdering: ['a', 'b', 'c'],
      }),
    ).toEqual([]);
  });

  it('name each thing the Schema object does not take, by its JSON pointer', () => {
    expect(
      violationLines({
        type: 'object',
        properties: {
          list: { type: ['string', 'null'] },
          typeless: {},
          unspecified: { type: 'TYPE_UNSPECIFIED' },
          uuid: { type: 'string', format: 'uuid' },
          int32OnString: { type: 'string', format: 'int32' },
          dateTimeOnInteger: { type: 'integer', format: 'date-time' },
          bytes: { type: 'string', contentEncoding: 'base64' },
          set: { type: 'array', items: { type: 'string', const: 'a' }, uniqueItems: true },
          numbers: { type: 'array', items: { type: 'integer', exclusiveMinimum: 0, multipleOf: 2 } },
          union: { oneOf: [{ type: 'string' }], allOf: [] },
          'a/b': { type: 'string', enum: [1, 2] },
          bounded: { type: 'string', minimum: 1, minLength: -1 },
          nested: { type: 'object', properties: { x: { type: 'string', $ref: '#/x' } }, required: ['y'], additionalProperties: false },
        },
        required: 'list',
      }),
    ).toEqual([
      '/properties/list/type: not one type: ["string","null"]',
      '/properties/typeless: no type (and no anyOf)',
      '/properties/unspecified/type: not a Gemini type: "TYPE_UNSPECIFIED"',
      '/properties/uuid/format: not a format Gemini accepts for STRING: "uuid"',
      '/properties/int32OnString/format: not a format Gemini accepts for STRING: "int32"',
      '/properties/dateTimeOnInteger/format: not a format Gemini accepts for INTEGER: "date-time"',
      '/properties/bytes/contentEncoding: unknown to Gemini\'s Schema: "base64"',
      '/properties/set/items/const: unknown to Gemini\'s Schema: "a"',
      "/properties/set/uniqueItems: unknown to Gemini's Schema: true",
      "/properties/numbers/items/exclusiveMinimum: unknown to Gemini's Schema: 0",
      "/properties/numbers/items/multipleOf: unknown to Gemini's Schema: 2",
      '/properties/union: no type (and no anyOf)',
      '/properties/union/oneOf: unknown to Gemini\'s Schema: [{"type":"string"}]',
      "/properties/union/allOf: unknown to Gemini's Schema: []",
      '/properties/a~1b/enum: not a list of strings: [1,2]',
      '/properties/bounded/minimum: on a fragment that is not a NUMBER or INTEGER',
      '/properties/bounded/minLength: not a count: -1',
      '/properties/nested/properties/x/$ref: unknown to Gemini\'s Schema: "#/x"',
      '/properties/nested/required: names no property: ["y"]',
      "/properties/nested/additionalProperties: unknown to Gemini's Schema: false",
      '/required: not a list of strings: "list"',
    ]);
  });
});
