import type { JsonSchema } from '../model';
import { TIMESPAN_PATTERN } from '../resolve/resolve';

/**
 * Constraints in plain words, from the keywords of an exact fragment (write.ts): what a profile cannot state
 * moves into the description this way, and `describeConstraints` says every constraint so. One sentence per
 * constraint, each ending with a full stop, joined with a space.
 */

/** The keywords that shape a fragment rather than constrain it: written by each profile's own walk, never in words. */
export const STRUCTURAL: ReadonlySet<string> = new Set([
  'type',
  'description',
  'items',
  'properties',
  'required',
  'additionalProperties',
  'oneOf',
  'x-mcp-header',
]);

const FORMATS: Readonly<Record<string, string>> = {
  'date-time': 'A date and time such as 2026-12-02T10:30:00Z.',
  date: 'A date such as 2026-12-02.',
  time: 'A time such as 10:30:00.',
  uuid: 'A UUID such as 123e4567-e89b-12d3-a456-426614174000.',
  uri: 'An absolute URL such as https://example.com/.',
  email: 'An email address such as name@example.com.',
};

function shown(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function range(min: unknown, max: unknown, unit: (n: number) => string = () => ''): string | undefined {
  const u = (n: unknown) => unit(n as number);
  if (min !== undefined && max !== undefined)
    return min === max ? `Exactly ${shown(min)}${u(min)}.` : `${shown(min)} to ${shown(max)}${u(max)}.`;
  if (min !== undefined) return `At least ${shown(min)}${u(min)}.`;
  if (max !== undefined) return `At most ${shown(max)}${u(max)}.`;
  return undefined;
}

const plural = (one: string, many: string) => (n: number) => (n === 1 ? ` ${one}` : ` ${many}`);

/**
 * The words of the constraint keywords of `fragment` that `said` picks (every one by default), in the exact
 * keyword order; the structural keywords and `description` say nothing.
 */
export function wordsOf(fragment: JsonSchema, said: (keyword: string) => boolean = () => true): string[] {
  const out: string[] = [];
  const has = (k: string) => fragment[k] !== undefined && said(k);
  if (has('format')) out.push(FORMATS[fragment.format as string] ?? `Format: ${shown(fragment.format)}.`);
  if (has('enum')) out.push(`One of: ${(fragment.enum as unknown[]).map(shown).join(', ')}.`);
  if (has('const')) out.push(`Always ${shown(fragment.const)}.`);
  const min = has('minimum') ? fragment.minimum : undefined;
  const max = has('maximum') ? fragment.maximum : undefined;
  if (min !== undefined && max !== undefined) out.push(`From ${shown(min)} to ${shown(max)}.`);
  else if (min !== undefined) out.push(`At least ${shown(min)}.`);
  else if (max !== undefined) out.push(`At most ${shown(max)}.`);
  if (has('exclusiveMinimum')) out.push(`More than ${shown(fragment.exclusiveMinimum)}.`);
  if (has('exclusiveMaximum')) out.push(`Less than ${shown(fragment.exclusiveMaximum)}.`);
  if (has('multipleOf')) out.push(`A multiple of ${shown(fragment.multipleOf)}.`);
  const length = range(
    has('minLength') ? fragment.minLength : undefined,
    has('maxLength') ? fragment.maxLength : undefined,
    plural('character', 'characters'),
  );
  if (length) out.push(length);
  if (has('pattern')) {
    out.push(
      fragment.pattern === TIMESPAN_PATTERN
        ? 'A time span such as 1.02:03:04.5 ([-][d.]hh:mm:ss[.fffffff]).'
        : `Matches the regular expression ${shown(fragment.pattern)}.`,
    );
  }
  if (has('contentEncoding'))
    out.push(fragment.contentEncoding === 'base64' ? 'Base64-encoded bytes.' : `Encoded as ${shown(fragment.contentEncoding)}.`);
  const items = range(
    has('minItems') ? fragment.minItems : undefined,
    has('maxItems') ? fragment.maxItems : undefined,
    plural('item', 'items'),
  );
  if (items) out.push(items);
  if (has('uniqueItems') && fragment.uniqueItems === true) out.push('No duplicates.');
  if (has('minProperties'))
    out.push(`At least ${shown(fragment.minProperties)}${plural('property', 'properties')(fragment.minProperties as number)}.`);
  if (has('not')) {
    const not = fragment.not as JsonSchema;
    if (Array.isArray(not.enum)) out.push(`Not one of: ${not.enum.map(shown).join(', ')}.`);
    else if (not.const !== undefined) out.push(`Not ${shown(not.const)}.`);
    else out.push(`Not: ${JSON.stringify(not)}.`);
  }
  if (has('allOf')) for (const entry of fragment.allOf as JsonSchema[]) out.push(...wordsOf(entry));
  if (has('default')) out.push(`Default: ${shown(fragment.default)}.`);
  if (has('examples')) out.push(`For example: ${(fragment.examples as unknown[]).map((e) => JSON.stringify(e)).join(', ')}.`);
  for (const k of Object.keys(fragment)) {
    if (!KNOWN.has(k) && !STRUCTURAL.has(k) && said(k)) out.push(`${k}: ${JSON.stringify(fragment[k])}.`);
  }
  return out;
}

const KNOWN: ReadonlySet<string> = new Set([
  'format',
  'enum',
  'const',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'contentEncoding',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'not',
  'allOf',
  'default',
  'examples',
]);

/** A description with words appended (a space between), or the words alone. */
export function appended(description: unknown, words: readonly string[]): string | undefined {
  const parts = typeof description === 'string' && description.length > 0 ? [description, ...words] : [...words];
  return parts.length > 0 ? parts.join(' ') : undefined;
}

/**
 * The exact listing with every constraint said in words (`'exact'` with `describeConstraints`): the same keywords
 * in the same order, each fragment's description (third, after `type` and `format`) followed by its words.
 */
export function describedExact(fragment: JsonSchema): JsonSchema {
  const text = appended(fragment.description, wordsOf(fragment));
  const out: Record<string, unknown> = {};
  if (fragment.type !== undefined) out.type = fragment.type;
  if (fragment.format !== undefined) out.format = fragment.format;
  if (text !== undefined) out.description = text;
  for (const k of Object.keys(fragment)) {
    if (k === 'type' || k === 'format' || k === 'description') continue;
    const v = fragment[k];
    // Not isObjectLike: `additionalProperties` of a fragment we wrote is a schema or a boolean, and typeof tells the two apart.
    if (k === 'items' || (k === 'additionalProperties' && typeof v === 'object')) out[k] = describedExact(v as JsonSchema);
    else if (k === 'properties')
      out[k] = Object.fromEntries(Object.entries(v as Record<string, JsonSchema>).map(([n, p]) => [n, describedExact(p)]));
    else if (k === 'oneOf') out[k] = (v as JsonSchema[]).map(describedExact);
    else out[k] = v;
  }
  return out;
}
