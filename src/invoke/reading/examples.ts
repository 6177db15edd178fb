import { TIMESPAN_PATTERN } from '../../schema/resolve/resolve';
import type { ExactRule, JsonSchema, RecordNode, StringFormat, TypeNode } from '../../schema/model';

/**
 * What a refusal says was expected (DESIGN.md section 6): the type in words and one valid value generated
 * from the type model, never a raw regular expression. Only a failure writes these texts, so valid calls
 * never build them; each node's example is generated once and kept.
 */

/** A valid value of one type, or `undefined` when none is found cheaply (a user's pattern no candidate matches). */
export function exampleOf(node: TypeNode): unknown {
  const known = examples.get(node);
  if (known !== undefined) return known === NONE || known === PENDING ? undefined : known;
  examples.set(node, PENDING);
  const found = firstValid(node);
  examples.set(node, found === undefined ? NONE : found);
  return found;
}

const NONE = Symbol('none');
const PENDING = Symbol('pending');
const examples = new WeakMap<TypeNode, unknown>();

/** While candidates are tried, the readers' own failures need no text. */
let trying = 0;

/** Whether a value is valid for a node: its checking reader, registered by reader.ts (which imports this module). */
let accepts: (node: TypeNode) => (value: unknown) => boolean = () => () => false;

export function checkExamplesWith(check: (node: TypeNode) => (value: unknown) => boolean): void {
  accepts = check;
}

/** The first candidate the node's checking reader accepts: generated examples are valid by construction. */
function firstValid(node: TypeNode): unknown {
  const valid = accepts(node);
  trying++;
  try {
    for (const candidate of candidatesOf(node)) {
      if (candidate !== undefined && valid(candidate)) return candidate;
    }
    return undefined;
  } finally {
    trying--;
  }
}

const FORMAT_EXAMPLES: Readonly<Record<StringFormat, string>> = {
  'date-time': '2026-12-02T12:00:00Z',
  date: '2026-12-02',
  time: '12:00:00',
  uuid: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
  email: 'name@example.com',
  uri: 'https://example.com',
};

export const TIMESPAN_EXAMPLE = '1.02:03:04';
export const BASE64_EXAMPLE = 'aGVsbG8=';

/** Texts tried against a user's own pattern, in order. */
const PATTERN_CANDIDATES = ['text', 'abc', 'ABC', 'Text', 'a', 'A', '1', '123', 'abc123', 'ABC123', 'a-b', 'a_b', 'a.b', 'a b'];

/** A keyword's number from the node's exact rules (`multipleOf`, `exclusiveMinimum` ...), the strictest one. */
function ruleNumber(rules: readonly ExactRule[] | undefined, keyword: string, pick: (a: number, b: number) => number): number | undefined {
  let out: number | undefined;
  for (const r of rules ?? []) {
    const v = r.keywords[keyword];
    if (typeof v === 'number') out = out === undefined ? v : pick(out, v);
  }
  return out;
}

/** Candidates a rule names itself (`@IsIn`'s first value, `@IsIP`'s address ...), tried first. */
function ruleCandidates(rules: readonly ExactRule[] | undefined): unknown[] {
  const out: unknown[] = [];
  for (const r of rules ?? []) {
    if (r.example !== undefined) out.push(r.example);
    const e = r.keywords.enum;
    if (Array.isArray(e) && e.length > 0) out.push(e[0]);
    if ('const' in r.keywords) out.push(r.keywords.const);
  }
  return out;
}

/** `0` when the range holds it, else the bound nearest to it. */
function nearZero(min: number, max: number): number {
  return min > 0 ? min : max < 0 ? max : 0;
}

function numberCandidates(node: Extract<TypeNode, { kind: 'number' | 'integer' }>): unknown[] {
  const whole = node.kind === 'integer';
  let min = node.minimum ?? -Number.MAX_VALUE;
  let max = node.maximum ?? Number.MAX_VALUE;
  const above = ruleNumber(node.rules, 'exclusiveMinimum', Math.max);
  const below = ruleNumber(node.rules, 'exclusiveMaximum', Math.min);
  if (whole) {
    if (above !== undefined) min = Math.max(min, Math.floor(above) + 1);
    if (below !== undefined) max = Math.min(max, Math.ceil(below) - 1);
  }
  let start = nearZero(min, max);
  if (!whole) {
    if (above !== undefined && start <= above) start = above + 1 <= max ? above + 1 : (above + max) / 2;
    if (below !== undefined && start >= below) start = below - 1 >= min ? below - 1 : (below + min) / 2;
  }
  const out: unknown[] = ruleCandidates(node.rules);
  const by = whole ? ruleNumber(node.rules, 'multipleOf', (a, b) => a * b) : undefined;
  if (by !== undefined) {
    const up = Math.ceil(start / by) * by;
    const down = Math.floor(start / by) * by;
    out.push(up, down, up + by, down - by);
  } else {
    // Upwards from the start first: a value at or above zero where the range allows one.
    out.push(start, start + 1, start + 2, start + 3, start - 1, min, max);
  }
  return out.map((n) => (typeof n === 'number' && Object.is(n, -0) ? 0 : n));
}

function stringCandidates(node: Extract<TypeNode, { kind: 'string' }>): unknown[] {
  if (node.const !== undefined) return [node.const];
  const out = ruleCandidates(node.rules);
  if (node.format) out.push(FORMAT_EXAMPLES[node.format]);
  if (node.as === 'timespan') out.push(TIMESPAN_EXAMPLE);
  const min = Math.max(node.minLength ?? 0, ruleNumber(node.rules, 'minLength', Math.max) ?? 0);
  const max = node.maxLength ?? Infinity;
  const n = Math.min(Math.max(4, min), max);
  out.push('text'.slice(0, n).padEnd(n, 'x'));
  if (node.pattern !== undefined) out.push(...PATTERN_CANDIDATES);
  return out;
}

function arrayCandidates(node: Extract<TypeNode, { kind: 'array' }>): unknown[] {
  const min = Math.max(node.minItems ?? 0, ruleNumber(node.rules, 'minItems', Math.max) ?? 0);
  const max = node.maxItems ?? Infinity;
  const n = Math.min(Math.max(1, min), max);
  const item = n === 0 ? undefined : exampleOf(node.items);
  return [...ruleCandidates(node.rules), item === undefined ? undefined : new Array(n).fill(item), []];
}

function recordExample(node: RecordNode): unknown {
  const out: Record<string, unknown> = {};
  for (const p of node.properties) {
    if (!p.required) continue;
    const v = exampleOf(p.type);
    if (v === undefined) return undefined;
    out[p.name] = v;
  }
  return out;
}

function candidatesOf(node: TypeNode): unknown[] {
  switch (node.kind) {
    case 'nullable': {
      const inner = exampleOf(node.inner);
      return [inner === undefined ? null : inner];
    }
    case 'boolean':
      return [true, false];
    case 'number':
    case 'integer':
      return numberCandidates(node);
    case 'string':
      return stringCandidates(node);
    case 'bytes':
      return [BASE64_EXAMPLE];
    case 'enum':
      return [...ruleCandidates(node.rules), ...node.listed];
    case 'array':
      return arrayCandidates(node);
    case 'dictionary': {
      const value = exampleOf(node.values);
      return [...ruleCandidates(node.rules), value === undefined ? undefined : { key: value }, {}];
    }
    case 'json':
      return [...ruleCandidates(node.rules), node.shape === 'array' ? [] : {}, { key: 'value' }, [1]];
    case 'record':
      return [...ruleCandidates(node.rules), recordExample(node)];
    case 'discriminated':
      return node.subtypes.map((s) => exampleOf(s.record));
    case 'standard':
      // The library's own messages say what it expects; no example is made up for it.
      return [];
  }
}

/** Longest example (as JSON) a line shows; a longer one is described in words only. */
const MAX_SHOWN = 60;

/** `, such as 1` (the example as JSON), or nothing when there is none or it is too long to show. */
export function suchAs(node: TypeNode): string {
  if (trying > 0) return '';
  const example = exampleOf(node);
  if (example === undefined) return '';
  const json = JSON.stringify(example);
  return json.length > MAX_SHOWN ? '' : `, such as ${json}`;
}

/** A sentence `Expected ... .` with the node's example put before its full stop. */
export function withExample(sentence: string, node: TypeNode): string {
  if (trying > 0 || !sentence.endsWith('.')) return sentence;
  return `${sentence.slice(0, -1)}${suchAs(node)}.`;
}

/** `Expected <words>, such as <example>, got <what arrived>.` */
export function expectation(words: string, node: TypeNode, got?: string): string {
  if (trying > 0) return '';
  return `Expected ${words}${suchAs(node)}${got === undefined ? '' : `, got ${got}`}.`;
}

/** `exactly 1 character`, `2 to 5 items`, `at least 3 characters`: the unit agrees with the last number. */
export function lengthText(min: number | undefined, max: number | undefined, unit: 'character' | 'item'): string {
  const of = (n: number | undefined) => (n === 1 ? unit : `${unit}s`);
  if (min !== undefined && max !== undefined) return min === max ? `exactly ${min} ${of(min)}` : `${min} to ${max} ${of(max)}`;
  if (min !== undefined) return `at least ${min} ${of(min)}`;
  return `at most ${max} ${of(max)}`;
}

/** `from 1 to 5`, `at least 0`, `at most 10`: a numeric range in words, an open end left out. */
export function rangeText(min: number, max: number): string {
  if (Number.isFinite(min) && Number.isFinite(max)) return `from ${min} to ${max}`;
  return Number.isFinite(min) ? `at least ${min}` : `at most ${max}`;
}

/** What each format is called in refusals. */
export const FORMAT_WORDS: Readonly<Record<StringFormat, string>> = {
  uuid: 'a UUID',
  'date-time': 'an RFC 3339 date-time',
  date: 'an RFC 3339 date',
  time: 'a time',
  uri: 'an absolute URI',
  email: 'an email address',
};

export const TIMESPAN_WORDS = 'a time span ([-][d.]hh:mm:ss[.fffffff])';
export const PATTERN_WORDS = 'text of the required form (the "pattern" of its schema)';

/** `"a", "b", "c"`: listed values as JSON, the first 20. */
export function valuesText(values: readonly unknown[]): string {
  const shown = values
    .slice(0, 20)
    .map((v) => JSON.stringify(v))
    .join(', ');
  return values.length > 20 ? `${shown}, ...` : shown;
}

/** What a string node's pattern asks for, in words: ours by name, a user's by where to find it. */
export function patternWords(node: Extract<TypeNode, { kind: 'string' }>): string {
  return node.as === 'timespan' || node.pattern === TIMESPAN_PATTERN ? TIMESPAN_WORDS : PATTERN_WORDS;
}

/** The type in words, for a value of the wrong JSON type or a missing one (`a whole number from 1 to 10`). */
export function describe(node: TypeNode): string {
  switch (node.kind) {
    case 'nullable':
      return `${describe(node.inner)} or null`;
    case 'boolean':
      return 'true or false';
    case 'number': {
      const min = node.minimum ?? -Infinity;
      const max = node.maximum ?? Infinity;
      return Number.isFinite(min) || Number.isFinite(max) ? `a number ${rangeText(min, max)}` : 'a number';
    }
    case 'integer':
      return `a whole number from ${node.minimum} to ${node.maximum}`;
    case 'string':
      if (node.const !== undefined) return JSON.stringify(node.const);
      if (node.format) return FORMAT_WORDS[node.format];
      if (node.pattern !== undefined) return patternWords(node);
      if (node.minLength !== undefined || node.maxLength !== undefined)
        return `a string of ${lengthText(node.minLength, node.maxLength, 'character')}`;
      return 'a string';
    case 'bytes':
      return 'base64 text';
    case 'enum':
      return `one of: ${valuesText(node.listed)}`;
    case 'array':
      return node.minItems !== undefined || node.maxItems !== undefined
        ? `an array of ${lengthText(node.minItems, node.maxItems, 'item')}`
        : 'an array';
    case 'json':
      return node.shape === 'any' ? 'a JSON value' : node.shape === 'object' ? 'a JSON object' : 'a JSON array';
    case 'record':
      return recordWords(node);
    case 'dictionary':
    case 'discriminated':
      return 'an object';
    case 'standard':
      return standardWords(node.json);
  }
}

/** What a Standard Schema's JSON Schema asks for, by its `type`, in the words of the other kinds. */
function standardWords(json: JsonSchema): string {
  const words: Record<string, string> = {
    string: 'a string',
    number: 'a number',
    integer: 'a whole number',
    boolean: 'true or false',
    array: 'an array',
    object: 'an object',
    null: 'null',
  };
  const types = (Array.isArray(json.type) ? json.type : [json.type]).map((t) => words[t as string]);
  return types.length > 0 && types.every((t) => t !== undefined) ? types.join(' or ') : 'a value its schema accepts';
}

/** `an object`, or `an object with "sku" and "qty"` when its example is too long to show. */
function recordWords(node: RecordNode): string {
  const example = exampleOf(node);
  if (example !== undefined && JSON.stringify(example).length <= MAX_SHOWN) return 'an object';
  const names = node.properties.filter((p) => p.required).map((p) => JSON.stringify(p.name));
  if (names.length === 0) return 'an object';
  if (names.length > 4) return `an object with ${names.slice(0, 3).join(', ')} and ${names.length - 3} more required properties`;
  return `an object with ${names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`}`;
}

/** The text of a missing required value: `It is required: a whole number from 1 to 10, such as 1.` */
export function requiredText(node: TypeNode): string {
  if (trying > 0) return '';
  return `It is required: ${describe(node)}${suchAs(node)}.`;
}
