import 'reflect-metadata';
import { McpServer } from '../../src';
import { Everything } from '../profiles/fixture';
import { Booking } from './support/openai-mcp';
import { describeViolations, strictToolViolations, strictViolations } from './support/strict-rules';

/** The checker of OpenAI's strict-mode rules (support/strict-rules.ts) finds each kind of violation, with its path. */

const closed = (properties: Record<string, unknown>) => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});
const check = (schema: unknown) => describeViolations(strictViolations(schema));

describe('strictViolations', () => {
  it('passes a closed object whose properties are all required, with every supported keyword', () => {
    const schema = {
      ...closed({
        s: { type: 'string', description: 'd', pattern: '^a$', format: 'uuid' },
        n: { type: ['number', 'null'], minimum: 0, maximum: 9, exclusiveMinimum: -1, exclusiveMaximum: 10, multipleOf: 0.5 },
        a: { type: 'array', items: { type: 'integer', enum: [1, 2] }, minItems: 1, maxItems: 3 },
        c: { const: 'x' },
        u: { anyOf: [{ type: 'string' }, { $ref: '#/$defs/thing' }] },
      }),
      $defs: { thing: closed({ b: { type: 'boolean' } }) },
    };
    expect(check(schema)).toStrictEqual([]);
  });

  it('says where an object is open, a property optional, a keyword or format unsupported', () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 1, format: 'uri' },
        inner: { type: 'object', properties: { x: { type: 'string' } }, additionalProperties: true },
        map: { type: 'object', additionalProperties: { type: 'number' } },
        both: { allOf: [{ type: 'string' }], default: 'a' },
      },
      required: ['name', 'inner', 'map'],
      additionalProperties: false,
    };
    expect(check(schema)).toStrictEqual([
      '/properties/name/minLength: unsupported keyword minLength',
      '/properties/name/format: unsupported format uri',
      '/properties/inner/additionalProperties: additionalProperties must be false',
      '/properties/inner/required: property x must be required',
      '/properties/map/additionalProperties: additionalProperties must be false',
      '/required: property both must be required',
      '/properties/both/allOf: unsupported keyword allOf',
      '/properties/both/default: unsupported keyword default',
    ]);
  });

  it('refuses a root that is not an object or is anyOf, and an external $ref', () => {
    expect(check({ type: 'string' })).toStrictEqual([': the root must be an object']);
    expect(check({ anyOf: [closed({})] })).toStrictEqual([': the root must be an object', ': the root must not be anyOf']);
    expect(check(closed({ r: { $ref: 'https://example.com/s.json' } }))).toStrictEqual(['/properties/r/$ref: only local $ref']);
  });

  it('counts ten levels of object nesting as the most, 1000 enum values in all, 15,000 characters for an enum of over 250 strings', () => {
    const nest = (levels: number): Record<string, unknown> => (levels === 1 ? closed({}) : closed({ x: nest(levels - 1) }));
    expect(check(nest(10))).toStrictEqual([]);
    expect(check(nest(11))).toStrictEqual([`${'/properties/x'.repeat(10)}: more than 10 levels of object nesting`]);
    const values = (n: number) => Array.from({ length: n }, (_, i) => `v${i}`);
    expect(check(closed({ a: { type: 'string', enum: values(600) }, b: { type: 'string', enum: values(400) } }))).toStrictEqual([]);
    expect(check(closed({ a: { type: 'string', enum: values(600) }, b: { type: 'string', enum: values(401) } }))).toStrictEqual([
      ': more than 1000 enum values',
    ]);
    const long = (n: number, size: number) => Array.from({ length: n }, (_, i) => String(i).padStart(size, 'x'));
    expect(check(closed({ e: { type: 'string', enum: long(250, 100) } }))).toStrictEqual([]);
    expect(check(closed({ e: { type: 'string', enum: long(251, 59) } }))).toStrictEqual([]);
    expect(check(closed({ e: { type: 'string', enum: long(251, 60) } }))).toStrictEqual([
      '/properties/e/enum: an enum of more than 250 strings longer than 15000 characters in all',
    ]);
  });

  it('counts 5000 object properties in all as the most', () => {
    const wide = (n: number) => closed(Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, { type: 'string' }])));
    expect(check(wide(5000))).toStrictEqual([]);
    expect(check(wide(5001))).toStrictEqual([': more than 5000 object properties']);
  });
});

describe('our listings, checked', () => {
  const server = new McpServer({ name: 'p', version: '1' }, { logger: false }).add(new Everything()).add(new Booking());
  const tools = (listing: 'exact' | 'openai-strict') =>
    server.listTools({ listing }).map((t) => ({ name: t.name, strict: true, parameters: t.inputSchema }));

  it("'openai-strict' breaks no rule, for every tool", () => {
    expect(strictToolViolations([tools('openai-strict')])).toStrictEqual([]);
  });

  it("'exact' breaks them where the profile rewrites", () => {
    expect(strictToolViolations([tools('exact')])).toHaveLength(17);
  });
});
