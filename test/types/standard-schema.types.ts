// Type tests for Standard Schema hints (issue 40): checked by tsc in test/types/types.test.ts, never run.
// Every `@ts-expect-error` line must stay an error: an unused one fails the check too.
import { type } from 'arktype';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { z } from 'zod';
import { ArrayOf, Field, McpServer, Param, Tool, type HintValue } from 'onemodelcontext';
import { expectType, type Equal } from './assert';

const server = new McpServer({ name: 't', version: '1' });

// The quick path's handler receives the output of `input`.
server.tool(
  'a',
  { input: z.object({ city: z.string(), days: z.number().default(1), n: z.string().transform((s) => s.length) }) },
  (args) => {
    expectType<Equal<typeof args, { city: string; days: number; n: number }>>(true);
    return args.city;
  },
);
server.tool('b', { input: type({ city: 'string', 'days?': 'number' }) }, (args) => {
  expectType<Equal<typeof args, { city: string; days?: number }>>(true);
  return args.city;
});
server.tool('c', { input: toStandardJsonSchema(v.object({ q: v.string() })) }, (args) => {
  expectType<Equal<typeof args, { q: string }>>(true);
  return args.q;
});

// A Standard Schema among `params`, and inside a combinator, reads into its output type.
server.tool('d', { params: { to: z.email(), lines: ArrayOf(z.object({ qty: z.number() })) } }, ({ to, lines }) => {
  expectType<Equal<typeof to, string>>(true);
  expectType<Equal<typeof lines, { qty: number }[]>>(true);
  return to;
});
expectType<Equal<HintValue<ReturnType<typeof z.iso.date>>, string>>(true);

// @ts-expect-error `input` takes a Standard Schema, not a JSON Schema.
server.tool('e', { input: { type: 'object' } }, () => '');

export class Tools {
  @Tool({ returns: z.object({ ok: z.boolean() }) }) async send(@Param({ type: z.email() }) to: string): Promise<{ ok: boolean }> {
    return { ok: to !== '' };
  }
}

export class Record {
  @Field(z.string().min(1)) sku!: string;
  @Field({ type: type('number > 0'), optional: true }) qty?: number;
}
