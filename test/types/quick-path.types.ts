// Type tests for the quick path (issue 11): checked by tsc in test/types/types.test.ts, never run.
// Every `@ts-expect-error` line must stay an error: an unused one fails the check too.
import {
  ArrayOf,
  Bytes,
  Char,
  DateOnly,
  DictionaryOf,
  Field,
  Int32,
  Int64,
  Json,
  JsonArray,
  JsonObject,
  McpServer,
  Nullable,
  RequestContext,
  SetOf,
  StringLiterals,
  TimeOnly,
  TimeSpan,
  Uint8,
  Uuid,
} from 'onemodelcontext';
import { expectType, type Equal, type Same } from './assert';

enum Status {
  Pending = 'pending',
  Shipped = 'shipped',
}
enum Level {
  Low,
  High,
}

class Line {
  @Field() sku!: string;
}

const server = new McpServer({ name: 'types', version: '1' });

server.tool('add', { params: { a: Int32, b: Int32 } }, ({ a, b }) => a + b);

server.tool(
  'every_hint',
  {
    params: {
      n: Number,
      i: Int32,
      u: Uint8,
      l: Int64,
      big: BigInt,
      s: String,
      c: Char,
      id: Uuid,
      day: DateOnly,
      at: TimeOnly,
      span: TimeSpan,
      when: Date,
      url: URL,
      bytes: Bytes,
      raw: Uint8Array,
      buf: Buffer,
      flag: Boolean,
      status: Status,
      level: Level,
      unit: StringLiterals('metric', 'imperial'),
      maybe: Nullable(String),
      lines: ArrayOf(Line),
      short: [Int32],
      tags: SetOf(String),
      prices: DictionaryOf(Number),
      line: Line,
      later: () => Line,
      json: Json,
      obj: JsonObject,
      arr: JsonArray,
      nested: Nullable(ArrayOf(Nullable(Status))),
    },
  },
  (args, ctx) => {
    expectType<Equal<typeof args.n, number>>(true);
    expectType<Equal<typeof args.i, number>>(true);
    expectType<Equal<typeof args.u, number>>(true);
    expectType<Equal<typeof args.l, number>>(true);
    expectType<Equal<typeof args.big, bigint>>(true);
    expectType<Equal<typeof args.s, string>>(true);
    expectType<Equal<typeof args.c, string>>(true);
    expectType<Equal<typeof args.id, string>>(true);
    expectType<Equal<typeof args.day, string>>(true);
    expectType<Equal<typeof args.at, string>>(true);
    expectType<Equal<typeof args.span, number>>(true);
    expectType<Equal<typeof args.when, Date>>(true);
    expectType<Equal<typeof args.url, URL>>(true);
    expectType<Equal<typeof args.bytes, Uint8Array>>(true);
    expectType<Equal<typeof args.raw, Uint8Array>>(true);
    expectType<Equal<typeof args.buf, Buffer>>(true);
    expectType<Equal<typeof args.flag, boolean>>(true);
    expectType<Same<typeof args.status, Status>>(true);
    // @ts-expect-error a string enum is not the numeric one
    expectType<Same<typeof args.status, Level>>(true);
    expectType<Same<typeof args.level, Level>>(true);
    expectType<Equal<typeof args.unit, 'metric' | 'imperial'>>(true);
    expectType<Equal<typeof args.maybe, string | null>>(true);
    expectType<Equal<typeof args.lines, Line[]>>(true);
    expectType<Equal<typeof args.short, number[]>>(true);
    expectType<Equal<typeof args.tags, Set<string>>>(true);
    expectType<Equal<typeof args.prices, Record<string, number>>>(true);
    expectType<Equal<typeof args.line, Line>>(true);
    expectType<Equal<typeof args.later, Line>>(true);
    expectType<Equal<typeof args.json, unknown>>(true);
    expectType<Equal<typeof args.obj, Record<string, unknown>>>(true);
    expectType<Equal<typeof args.arr, unknown[]>>(true);
    expectType<Equal<typeof args.nested, (Status | null)[] | null>>(true);
    expectType<Equal<typeof ctx, RequestContext>>(true);
    // @ts-expect-error a number is not a string
    const wrong: string = args.i;
    return wrong;
  },
);

server.tool(
  'options',
  {
    params: {
      note: { type: String, optional: true },
      days: { type: Int32, default: 3, description: 'How many days' },
      until: { type: Date, nullable: true },
      either: { type: String, nullable: true, optional: true },
    },
  },
  ({ note, days, until, either }) => {
    expectType<Equal<typeof note, string | undefined>>(true);
    expectType<Equal<typeof days, number>>(true);
    expectType<Equal<typeof until, Date | null>>(true);
    expectType<Equal<typeof either, string | null | undefined>>(true);
  },
);

// A tool without params gets an empty object.
server.tool('ping', {}, (args) => {
  expectType<Equal<keyof typeof args, never>>(true);
  return 'pong';
});

// @ts-expect-error `c` is not a parameter
server.tool('add2', { params: { a: Int32 } }, ({ c }) => c);

// @ts-expect-error `a` is a number: no string methods
server.tool('add3', { params: { a: Int32 } }, ({ a }) => a.toUpperCase());
