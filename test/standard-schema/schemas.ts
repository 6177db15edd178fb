import { type } from 'arktype';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { z } from 'zod';

/**
 * The Standard Schemas the suites of this folder declare, one of each library (zod 4, Valibot through
 * `@valibot/to-json-schema`'s `toStandardJsonSchema`, ArkType 2), and the JSON Schema each lists for them
 * (`~standard.jsonSchema.input({ target: 'draft-2020-12' })`, `$schema` dropped), in the library's key order.
 */

export const zodLine = z.object({ sku: z.string().min(1), qty: z.number().int().positive() });
export const ZOD_LINE =
  '{"type":"object","properties":{"sku":{"type":"string","minLength":1},"qty":{"type":"integer","exclusiveMinimum":0,"maximum":9007199254740991}},"required":["sku","qty"]}';

export const valibotLine = toStandardJsonSchema(
  v.object({ sku: v.pipe(v.string(), v.minLength(1)), qty: v.pipe(v.number(), v.integer(), v.minValue(1)) }),
);
export const VALIBOT_LINE =
  '{"type":"object","properties":{"sku":{"type":"string","minLength":1},"qty":{"type":"integer","minimum":1}},"required":["sku","qty"]}';

export const arkLine = type({ sku: 'string > 0', qty: 'number.integer > 0' });
export const ARK_LINE =
  '{"type":"object","properties":{"qty":{"type":"integer","exclusiveMinimum":0},"sku":{"type":"string","minLength":1}},"required":["qty","sku"]}';
