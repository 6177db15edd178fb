import { type } from 'arktype';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { z } from 'zod';
import { ArrayOf, Field, Int8, Nullable, Param, Tool } from '../../../src';

/**
 * Standard Schema declarations for the differential tests (test/standard-schema/differential.test.ts): zod 4, Valibot
 * (through `toStandardJsonSchema`) and ArkType as parameters, inside records and combinators, and as a whole input,
 * judged apart from the class declarations of declarations.ts (whose counts stay as they are).
 */

const zodItem = z.object({ sku: z.string().regex(/^[a-z]{1,4}$/), qty: z.number().int().min(1).max(99), note: z.string().optional() });

class Basket {
  @Field({ type: ArrayOf(zodItem) }) items!: unknown[];
  @Field({ type: z.enum(['std', 'express']).optional() }) ship?: string;
  @Field({ type: Int8 }) priority!: number;
}

export class StandardTools {
  @Tool() zod_numbers(
    @Param({ type: z.number().gt(-1).lte(2.5) }) n: number,
    @Param({ type: z.int().min(-1000).max(1000).multipleOf(3) }) i: number,
  ): void {}
  @Tool() zod_literals(
    @Param({ type: z.literal('on') }) on: string,
    @Param({ type: z.boolean().optional() }) b: boolean | undefined,
  ): void {}
  @Tool() zod_uuid(@Param({ type: z.uuid() }) id: string): void {}
  @Tool() zod_item(@Param({ type: zodItem }) item: unknown): void {}
  @Tool() zod_closed(
    @Param({
      type: z.strictObject({
        a: z.number().nullable(),
        b: z
          .array(z.enum(['x', 'y']))
          .min(1)
          .max(3),
      }),
    })
    closed: unknown,
  ): void {}
  @Tool() zod_record(
    @Param({ type: z.record(z.string(), z.int().nonnegative()) }) counts: unknown,
    @Param({ type: z.string().optional() }) maybe: string | undefined,
  ): void {}
  @Tool() valibot_person(
    @Param({
      type: toStandardJsonSchema(
        v.object({
          name: v.pipe(v.string(), v.regex(/^[A-Z][a-z]*$/)),
          age: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(150)),
        }),
      ),
    })
    person: unknown,
  ): void {}
  @Tool() valibot_opts(
    @Param({ type: toStandardJsonSchema(v.strictObject({ tags: v.array(v.picklist(['a', 'b'])), flag: v.optional(v.boolean()) })) })
    opts: unknown,
    @Param({ type: toStandardJsonSchema(v.nullable(v.number())) }) n: number | null,
  ): void {}
  @Tool() ark_line(@Param({ type: type({ sku: /^[a-z]+$/, qty: '0 < number.integer <= 10', 'gift?': 'boolean' }) }) line: unknown): void {}
  @Tool() ark_values(@Param({ type: type("'s' | 'm' | 'l'") }) size: string, @Param({ type: type('number[]') }) nums: number[]): void {}
  @Tool() basket(basket: Basket): void {}
  @Tool() combined(
    @Param({ type: Nullable(z.number().int()) }) extra: number | null,
    @Param({ type: ArrayOf(type('boolean')) }) flags: boolean[],
  ): void {}
}

/** Tools whose whole input is a Standard Schema (`server.tool(name, { input })`). */
export const STANDARD_INPUTS = {
  zod_input: z.object({ city: z.string().regex(/^[A-Z][a-z]{0,5}$/), days: z.int().min(1).max(7).optional() }),
  valibot_input: toStandardJsonSchema(
    v.strictObject({ q: v.pipe(v.string(), v.regex(/^[a-z]{1,3}$/)), page: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))) }),
  ),
  ark_input: type({ a: 'number', 'b?': "'x' | 'y'" }),
} as const;
