import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats';
import type { CallToolResult } from '../../../src';
import type { TypeNode } from '../../../src/schema/model';
import type { Schema } from '../json-schema';

/**
 * The judge of the differential tests: ajv 2020-12 + ajv-formats (with the formats the deliberate differences
 * need), the exact listing's deliberate differences written into the schema ajv sees, a call's verdict, and the
 * runs and seed (`READER_FUZZ_RUNS`, `READER_FUZZ_SEED`).
 */

/**
 * The listing with DESIGN.md section 6's deliberate differences written into it, walked beside the type
 * model (same shape): `SetOf` drops duplicates, `Bytes` refuses what is not base64, `TimeOnly` accepts
 * no offset, `URL` refuses what the WHATWG parser cannot hold. (class-validator rules stricter than their
 * keyword are not fuzzed here: the records use rules reading enforces itself.)
 */
export function contractOf(s: Schema, node: TypeNode): Schema {
  const out: Schema = { ...s };
  const bare = node.kind === 'nullable' ? node.inner : node;
  if (bare.kind === 'array') {
    if (bare.set) delete out.uniqueItems;
    out.items = contractOf(s.items!, bare.items);
  }
  if (bare.kind === 'bytes') out.format = 'canonical-base64';
  if (bare.kind === 'string' && bare.format === 'time') out.format = 'iso-time';
  if (bare.kind === 'string' && bare.as === 'url') out.format = 'whatwg-uri';
  if (bare.kind === 'dictionary') out.additionalProperties = contractOf(s.additionalProperties as Schema, bare.values);
  if (bare.kind === 'record') {
    out.properties = Object.fromEntries(bare.properties.map((p) => [p.name, contractOf(s.properties![p.name], p.type)]));
  }
  return out;
}

export const ajv = new Ajv2020({ strict: false });
addFormats(ajv);
const uri = fullFormats.uri as (s: string) => boolean;
ajv.addFormat('canonical-base64', /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/][AQgw]==|[A-Za-z0-9+/]{2}[AEIMQUYcgkosw048]=)?$/);
ajv.addFormat('whatwg-uri', (s: string) => uri(s) && URL.canParse(s));

/** JSON text with every object's keys sorted: equal for JSON-equal values (`1` and `1.0`, `0` and `-0` too). */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (typeof v !== 'object' || v === null) return JSON.stringify(v);
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
    .join(',')}}`;
}

/**
 * `uniqueItems` by JSON equality, as the keyword means, for the contracts that write it back in: ajv's own check
 * (fast-deep-equal) throws a TypeError on two objects with an own `valueOf` property that is not a function.
 */
ajv.addKeyword({
  keyword: 'uniqueJson',
  type: 'array',
  schemaType: 'boolean',
  validate: (on: boolean, data: unknown[]) => !on || new Set(data.map(canonical)).size === data.length,
});

export function verdict(result: CallToolResult): string {
  const text = (result.content[0] as { text?: string } | undefined)?.text ?? '';
  if (!result.isError) return 'accepted';
  return text.startsWith("Argument '") || text === 'Arguments must be an object.' ? 'refused' : `failed: ${text}`;
}

export const runs = Number(process.env.READER_FUZZ_RUNS ?? 60_000);
export const seed =
  process.env.READER_FUZZ_SEED !== undefined
    ? Number(process.env.READER_FUZZ_SEED)
    : process.env.READER_FUZZ_RUNS
      ? Date.now() % 2 ** 31
      : 20261130;

/** Cases are judged in batches: one property run per batch keeps fast-check's per-run cost small. */
export const BATCH = 25;
