import { isObject } from '../objects';

/**
 * What changed between two JSON values, one line per change, each at its JSON path: a property `removed` or
 * `added`, a value `changed`, a member of a list of values (`required`, `enum`, `type`) `removed "days"` or
 * `added "hail"`, and an order that changed (key order and enum order are part of the contract). Lists of named
 * entries (tools, prompts, prompt arguments, resources) are matched by name or URI, not by position.
 */

/** The keys that name a list's entries, tried in this order: resources by URI, everything else by name. */
const IDENTITIES = ['uri', 'uriTemplate', 'name'];

/** Longest JSON text shown inline; a longer value is only said to be there. */
const SHOWN = 80;

export function diffJson(before: unknown, after: unknown, path = ''): string[] {
  const lines: string[] = [];
  walk(before, after, path, lines);
  return lines;
}

function walk(before: unknown, after: unknown, path: string, lines: string[]): void {
  if (isObject(before) && isObject(after)) return objects(before, after, path, lines);
  if (Array.isArray(before) && Array.isArray(after)) return arrays(before, after, path, lines);
  if (!same(before, after)) lines.push(`${path}: changed ${show(before)} -> ${show(after)}`);
}

function objects(before: Record<string, unknown>, after: Record<string, unknown>, path: string, lines: string[]): void {
  const was = Object.keys(before);
  const is = Object.keys(after);
  for (const key of was) if (!Object.hasOwn(after, key)) lines.push(`${join(path, key)}: removed${inline(before[key])}`);
  for (const key of is) if (!Object.hasOwn(before, key)) lines.push(`${join(path, key)}: added${inline(after[key])}`);
  for (const key of was) if (Object.hasOwn(after, key)) walk(before[key], after[key], join(path, key), lines);
  const kept = was.filter((key) => Object.hasOwn(after, key));
  const keptNow = is.filter((key) => Object.hasOwn(before, key));
  if (!same(kept, keptNow)) lines.push(`${path || '(root)'}: key order changed ${show(kept)} -> ${show(keptNow)}`);
}

function arrays(before: readonly unknown[], after: readonly unknown[], path: string, lines: string[]): void {
  const identity = identityOf(before, after);
  if (identity !== undefined) return named(before as Record<string, unknown>[], after as Record<string, unknown>[], identity, path, lines);
  if ([...before, ...after].every((item) => !isObject(item) && !Array.isArray(item))) return members(before, after, path, lines);
  const shared = Math.min(before.length, after.length);
  for (let i = 0; i < shared; i++) walk(before[i], after[i], `${path}[${i}]`, lines);
  for (let i = shared; i < before.length; i++) lines.push(`${path}[${i}]: removed${inline(before[i])}`);
  for (let i = shared; i < after.length; i++) lines.push(`${path}[${i}]: added${inline(after[i])}`);
}

/** Entries matched by their identity key: removed, added, changed, and the order of those kept. */
function named(before: Record<string, unknown>[], after: Record<string, unknown>[], key: string, path: string, lines: string[]): void {
  const was = new Map(before.map((entry) => [String(entry[key]), entry]));
  const is = new Map(after.map((entry) => [String(entry[key]), entry]));
  for (const id of was.keys()) if (!is.has(id)) lines.push(`${join(path, id)}: removed`);
  for (const id of is.keys()) if (!was.has(id)) lines.push(`${join(path, id)}: added`);
  for (const [id, entry] of was) if (is.has(id)) walk(entry, is.get(id), join(path, id), lines);
  const kept = [...was.keys()].filter((id) => is.has(id));
  const keptNow = [...is.keys()].filter((id) => was.has(id));
  if (!same(kept, keptNow)) lines.push(`${path}: order changed ${show(kept)} -> ${show(keptNow)}`);
}

/** A list of plain values as the set it is (`required`, `enum`, `type`), then its order. */
function members(before: readonly unknown[], after: readonly unknown[], path: string, lines: string[]): void {
  const was = before.map((item) => JSON.stringify(item));
  const is = after.map((item) => JSON.stringify(item));
  for (const item of was) if (!is.includes(item)) lines.push(`${path}: removed ${item}`);
  for (const item of is) if (!was.includes(item)) lines.push(`${path}: added ${item}`);
  const kept = was.filter((item) => is.includes(item));
  const keptNow = is.filter((item) => was.includes(item));
  if (!same(kept, keptNow)) lines.push(`${path}: order changed [${kept.join(',')}] -> [${keptNow.join(',')}]`);
}

/** The key every entry of both lists has, as a string unique within each list; none for other lists. */
function identityOf(before: readonly unknown[], after: readonly unknown[]): string | undefined {
  const all = [...before, ...after];
  if (all.length === 0 || !all.every(isObject)) return undefined;
  return IDENTITIES.find((key) =>
    [before, after].every((list) => {
      const ids = list.map((entry) => (entry as Record<string, unknown>)[key]);
      return ids.every((id) => typeof id === 'string') && new Set(ids).size === ids.length;
    }),
  );
}

/** `a.b`, or `a["x y"]` for a key that is not a plain word (so every path reads back unambiguously). */
function join(path: string, key: string): string {
  if (/^[A-Za-z_][\w-]*$/.test(key)) return path === '' ? key : `${path}.${key}`;
  return `${path}[${JSON.stringify(key)}]`;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  if (text.length <= SHOWN) return text;
  return Array.isArray(value) ? '[...]' : isObject(value) ? '{...}' : `${text.slice(0, SHOWN)}...`;
}

/** ` <value>` when it is short enough to read in the line, else nothing. */
function inline(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length <= SHOWN ? ` ${text}` : '';
}
