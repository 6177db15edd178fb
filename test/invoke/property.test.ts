import fc from 'fast-check';
import { Type } from 'class-transformer';
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
  Int8,
  Json,
  McpServer,
  Nullable,
  Range,
  SetOf,
  StringLength,
  TimeOnly,
  TimeSpan,
  Tool,
  Uint8,
  Url,
  Uuid,
  Param,
  type CallToolResult,
} from '../../src';
import { toolsOf } from '../../src/schema/members/tools';
import type { TypeNode } from '../../src/schema/model';
import type { Schema } from '../support/json-schema';

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
  @Field(Int32) @Range(1, 1000) qty!: number;
  @Field() price!: number;
  @Field({ type: Nullable(Color) }) color!: Color | null;
}

class Customer {
  @Field() @StringLength(40, { min: 1 }) name!: string;
  @Field() @EmailAddress() email!: string;
  @Field({ optional: true }) @Url() site?: string;
}

class Order {
  @Type(() => Line) @Field() lines!: Line[];
  @Field() customer!: Customer;
  @Field(Size) size!: Size;
  @Field() placed!: Date;
  @Field([String]) tags!: string[];
  @Field({ type: DictionaryOf(Int8), optional: true }) counts?: Record<string, number>;
}

let received: unknown[] = [];

class Tools {
  @Tool() order(o: Order, @Param({ type: SetOf(Uuid) }) ids: Set<string>): void {
    received = [o, ids];
  }
  @Tool() scalars(
    flag: boolean,
    @Param({ type: Uint8 }) small: number,
    @Param({ type: Int16 }) mid: number,
    @Param({ type: Char }) ch: string,
    @Param({ type: DateOnly }) day: string,
    @Param({ type: TimeOnly }) at: string,
    @Param({ type: TimeSpan }) span: number,
    @Param({ type: Bytes }) data: Uint8Array,
    where: URL,
    big: bigint,
    @Param({ type: Json }) any: unknown,
    @Param({ type: Nullable(ArrayOf(Nullable(Int8))) }) maybe: (number | null)[] | null,
    @Param({ type: Color }) color: Color = Color.Red,
  ): void {
    received = [flag, small, mid, ch, day, at, span, data, where, big, any, maybe, color];
  }
}

const server = new McpServer({ name: 'p', version: '1' }).add(new Tools());
const models = new Map(toolsOf(Tools).map(({ model }) => [model.name, model]));

const jsonValue = fc.jsonValue({ maxDepth: 2 });

/** An arbitrary of values valid for a schema fragment, read from the listing (not from the model). */
function arbitraryOf(s: Schema): fc.Arbitrary<unknown> {
  const types = Array.isArray(s.type) ? s.type : s.type === undefined ? [] : [s.type];
  if (types.includes('null')) {
    const inner: Schema = { ...s, type: types.find((t) => t !== 'null'), enum: s.enum?.filter((e) => e !== null) };
    return fc.oneof(fc.constant(null), arbitraryOf(inner));
  }
  if (s.enum) return fc.constantFrom(...s.enum);
  switch (types[0]) {
    case undefined:
      return jsonValue;
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: Math.max(s.minimum!, -2147483648), max: Math.min(s.maximum!, 2147483647) });
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: s.minimum, max: s.maximum });
    case 'string':
      if (s.contentEncoding === 'base64') return fc.uint8Array({ maxLength: 16 }).map((b) => Buffer.from(b).toString('base64'));
      if (s.pattern) return fc.stringMatching(new RegExp(s.pattern));
      switch (s.format) {
        case 'uuid':
          return fc.uuid();
        case 'date-time':
          return fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }).map((d) => d.toISOString());
        case 'date':
          return fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
        case 'time':
          return fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(4e12) }).map((d) => d.toISOString().slice(11, 19));
        case 'email':
          return fc.emailAddress();
        case 'uri':
          return fc.webUrl();
      }
      return fc.string({ unit: 'grapheme', minLength: s.minLength ?? 0, maxLength: s.maxLength ?? 10 }).filter((x) => {
        const n = [...x].length;
        return n >= (s.minLength ?? 0) && n <= (s.maxLength ?? Infinity);
      });
    case 'array': {
      const items = arbitraryOf(s.items ?? {});
      const constraints = { minLength: s.minItems ?? 0, maxLength: Math.min(s.maxItems ?? 4, 4) };
      return s.uniqueItems ? fc.uniqueArray(items, { ...constraints, selector: (v) => JSON.stringify(v) }) : fc.array(items, constraints);
    }
    case 'object': {
      if (s.properties) {
        const required = new Set(s.required ?? []);
        const record: Record<string, fc.Arbitrary<unknown>> = {};
        for (const [k, v] of Object.entries(s.properties)) record[k] = arbitraryOf(v);
        return fc.record(record, { requiredKeys: [...required] });
      }
      if (typeof s.additionalProperties === 'object') {
        return fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), arbitraryOf(s.additionalProperties), { maxKeys: 3 });
      }
      return fc.dictionary(fc.string(), jsonValue, { maxKeys: 3 });
    }
  }
  throw new Error(`no arbitrary for ${JSON.stringify(s)}`);
}

/** Checks that a read value has the runtime type the model promises the method. */
function hasRuntimeType(node: TypeNode, v: unknown): boolean {
  switch (node.kind) {
    case 'boolean':
      return typeof v === 'boolean';
    case 'number':
      return typeof v === 'number';
    case 'integer':
      return node.bigint ? typeof v === 'bigint' : typeof v === 'number' && Number.isInteger(v);
    case 'string':
      return node.as === 'date'
        ? v instanceof Date
        : node.as === 'url'
          ? v instanceof URL
          : node.as === 'timespan'
            ? typeof v === 'number'
            : typeof v === 'string';
    case 'bytes':
      return v instanceof Uint8Array;
    case 'enum':
      return node.values.includes(v as string | number);
    case 'nullable':
      return v === null || hasRuntimeType(node.inner, v);
    case 'array':
      return node.set
        ? v instanceof Set && [...v].every((x) => hasRuntimeType(node.items, x))
        : Array.isArray(v) && v.every((x) => hasRuntimeType(node.items, x));
    case 'dictionary':
      return Object.getPrototypeOf(v) === null && Object.values(v as object).every((x) => hasRuntimeType(node.values, x));
    case 'json':
      return v !== undefined;
    case 'discriminated':
      return node.subtypes.some((s) => v instanceof s.record.ctor);
    case 'standard':
      return v !== undefined;
    case 'record':
      return (
        v instanceof node.ctor &&
        node.properties.every((p) => {
          const x = (v as Record<string, unknown>)[p.key];
          return (x === undefined && !p.required) || hasRuntimeType(p.type, x);
        })
      );
  }
}

/** Every place in a value where a mutation can go: its path, and the schema that governs it. */
function places(value: unknown, s: Schema, path: (string | number)[] = []): { path: (string | number)[]; schema: Schema }[] {
  const here = [{ path, schema: s }];
  if (Array.isArray(value) && s.items) return [...here, ...value.flatMap((x, i) => places(x, s.items!, [...path, i]))];
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const own = Object.entries(value);
    if (s.properties) return [...here, ...own.flatMap(([k, x]) => places(x, s.properties![k], [...path, k]))];
    if (typeof s.additionalProperties === 'object')
      return [...here, ...own.flatMap(([k, x]) => places(x, s.additionalProperties as Schema, [...path, k]))];
  }
  return here;
}

/** A value of a JSON type the schema does not allow, or undefined when it allows every type. */
function wrongValueFor(s: Schema): unknown {
  const types = Array.isArray(s.type) ? s.type : s.type === undefined ? [] : [s.type];
  if (types.length === 0) return undefined;
  const candidates: [string, unknown][] = [
    ['string', 'x\u0000"'],
    ['boolean', true],
    ['array', [1]],
    ['object', { polluted: 1 }],
    ['number', 1.5],
  ];
  // 1.5 is wrong for an integer as much as for a string; only `number` itself accepts it.
  return candidates.find(([t]) => !types.includes(t))?.[1];
}

function pathText(path: (string | number)[]): string {
  return path
    .map((p, i) =>
      typeof p === 'number' ? `[${p}]` : i === 0 ? p : /^[A-Za-z_$][\w$]*$/.test(p) && p.length <= 64 ? `.${p}` : `[${JSON.stringify(p)}]`,
    )
    .join('');
}

function setAt(root: Record<string, unknown>, path: (string | number)[], value: unknown, remove = false): Record<string, unknown> {
  const copy = structuredClone(root);
  let at: Record<string | number, unknown> = copy;
  for (const step of path.slice(0, -1)) at = at[step] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (remove) delete at[last];
  else at[last] = value;
  return copy;
}

function messageOf(result: CallToolResult): string {
  return (result.content[0] as { text: string }).text;
}

describe.each(['order', 'scalars'])('property: %s', (name) => {
  const listing = server.listTools().find((t) => t.name === name)!;
  const schema = listing.inputSchema as Schema;
  const model = models.get(name)!;
  const args = arbitraryOf(schema) as fc.Arbitrary<Record<string, unknown>>;

  it('accepts every valid argument object and reads it to the right runtime types', async () => {
    await fc.assert(
      fc.asyncProperty(args, async (value) => {
        received = [];
        const result = await server.callTool(name, value);
        expect(result.isError).toBeUndefined();
        for (const p of model.params) {
          const v = received[p.index];
          if (value[p.name] === undefined && !p.required) continue;
          expect(hasRuntimeType(p.type, v)).toBe(true);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('refuses a single wrong-typed value, naming its path', async () => {
    await fc.assert(
      fc.asyncProperty(args, fc.nat(), async (value, seed) => {
        const candidates = places(value, schema).filter((p) => p.path.length > 0 && wrongValueFor(p.schema) !== undefined);
        fc.pre(candidates.length > 0);
        const place = candidates[seed % candidates.length];
        const result = await server.callTool(name, setAt(value, place.path, wrongValueFor(place.schema)));
        expect(result.isError).toBe(true);
        expect(messageOf(result).slice(0, `Argument '${pathText(place.path)}' is not valid.`.length)).toBe(
          `Argument '${pathText(place.path)}' is not valid.`,
        );
      }),
      { numRuns: 150 },
    );
  });

  it('refuses a missing required or an unknown property, naming its path', async () => {
    await fc.assert(
      fc.asyncProperty(args, fc.nat(), fc.boolean(), async (value, seed, removal) => {
        const objects = places(value, schema).filter((p) => p.schema.properties !== undefined);
        const requiredPlaces = objects.flatMap((o) => (o.schema.required ?? []).map((k) => [...o.path, k]));
        const targets = removal ? requiredPlaces : objects.map((o) => [...o.path, 'zz_unknown']);
        fc.pre(targets.length > 0);
        const target = targets[seed % targets.length];
        const mutated = setAt(value, target, 1, removal);
        const result = await server.callTool(name, mutated);
        expect(result.isError).toBe(true);
        const expected = `Argument '${pathText(target)}' is not valid. ${removal ? 'It is required: ' : 'There is no such'}`;
        expect(messageOf(result).slice(0, expected.length)).toBe(expected);
      }),
      { numRuns: 150 },
    );
  });

  it('never lets an exception escape the reader, whatever arrives', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.jsonValue(), fc.dictionary(fc.string(), fc.jsonValue())), async (anything) => {
        const result = await server.callTool(name, anything);
        expect(Array.isArray(result.content)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
