import { fragmentOf, writtenDefault } from '../write';
import { CLOSED, type ValidationPolicy } from '../records/validation-options';
import type { JsonSchema, ParamModel, PropertyModel, SlotModel, TypeNode } from '../model';
import { STRUCTURAL, appended, wordsOf } from './words';

/**
 * The walk both provider profiles share: a tool's parameters written from the type model by a {@link Dialect}
 * (gemini.ts, openai-strict.ts) that says which keywords it states, in which order, and how it spells `null`,
 * objects, dictionaries and free JSON. A constraint keyword the dialect cannot state is said in words
 * (words.ts) in the fragment's description; with `describe`, every constraint is.
 */

export type Keywords = Record<string, unknown>;

export interface Dialect {
  readonly name: 'gemini' | 'openai-strict';
  /** The keywords written, in the order written. */
  readonly order: readonly string[];
  /** The keywords that stand for a constraint keyword of the exact fragment (none: it is said in words). */
  stated(keyword: string, value: unknown, exact: JsonSchema): Keywords | undefined;
  nullable(keywords: Keywords): Keywords;
  /** An object of these properties; `required` as the model says (the dialect may require more). */
  object(properties: Record<string, JsonSchema>, required: readonly string[], names: readonly string[]): Keywords;
  /** What stands for a dictionary of these values (it cannot be stated: definition-time warning). */
  dictionary(values: JsonSchema): Keywords;
  /** What stands for free JSON (`Json`, `JsonObject`, `JsonArray`). */
  json(shape: 'any' | 'object' | 'array'): Keywords;
  /** A slot that may be left out (strict: nullable instead, and required). */
  optional(keywords: Keywords, nullable: boolean): Keywords;
}

/** A node as a dialect writes it: its keywords (no description), the description of its type and its words. */
interface Written {
  readonly keywords: Keywords;
  readonly description?: string;
  readonly words: readonly string[];
}

export function ordered(keywords: Keywords, order: readonly string[]): JsonSchema {
  const out: Record<string, unknown> = {};
  for (const k of order) if (keywords[k] !== undefined) out[k] = keywords[k];
  return out;
}

const memo = new Map<string, WeakMap<object, unknown>>();

function cached<K extends object, V>(key: string, node: K, build: () => V): V {
  let cache = memo.get(key);
  if (!cache) memo.set(key, (cache = new WeakMap()));
  let value = cache.get(node) as V | undefined;
  if (value === undefined) cache.set(node, (value = build()));
  return value;
}

class Walk {
  private readonly key: string;

  constructor(
    private readonly d: Dialect,
    private readonly policy: ValidationPolicy,
    private readonly describe: boolean,
  ) {
    this.key = `${d.name} ${describe} ${policy.key}`;
  }

  fragment(node: TypeNode): JsonSchema {
    return cached(`${this.key} fragment`, node, () => {
      const w = this.node(node);
      return ordered({ ...w.keywords, description: appended(w.description, w.words) }, this.d.order);
    });
  }

  private node(node: TypeNode): Written {
    return cached(`${this.key} node`, node, () => this.build(node));
  }

  private build(node: TypeNode): Written {
    const { d } = this;
    if (node.kind === 'nullable') {
      const inner = this.node(node.inner);
      return { ...inner, keywords: d.nullable(inner.keywords) };
    }
    if (node.kind === 'json') return { keywords: d.json(node.shape), words: [] };
    if (node.kind === 'standard') {
      // Written from the library's JSON Schema restated in the model (resolve/standard.ts). One that cannot be was a
      // definition diagnostic wherever this profile may list (profileProblemsOf); an endpoint added later is checked
      // when it starts. Free JSON here keeps the listing one the provider takes.
      if ('problem' in node.lifted) return { keywords: d.json('any'), words: [`A value its ${node.vendor} schema accepts.`] };
      const inner = this.node(node.lifted);
      const own = typeof node.json.description === 'string' ? node.json.description : undefined;
      return inner.description === undefined && own !== undefined ? { ...inner, description: own } : inner;
    }
    const exact = fragmentOf(node, this.policy);
    const keywords: Keywords = {};
    const lost = new Set<string>();
    for (const k of Object.keys(exact)) {
      if (k === 'type') keywords.type = exact.type;
      if (STRUCTURAL.has(k)) continue;
      const stated = d.stated(k, exact[k], exact);
      if (stated) for (const [s, v] of Object.entries(stated)) keywords[s] ??= v;
      else lost.add(k);
    }
    const words = wordsOf(exact, (k) => this.describe || lost.has(k));
    switch (node.kind) {
      case 'array':
        keywords.items = this.fragment(node.items);
        break;
      case 'dictionary':
        Object.assign(keywords, d.dictionary(this.fragment(node.values)));
        words.unshift(`An object of any property names, each value ${valueInWords(node.values)}.`);
        break;
      case 'record':
        Object.assign(keywords, this.object(node.properties, true));
        return { keywords, description: node.description, words };
      case 'discriminated':
        delete keywords.type;
        keywords.anyOf = node.subtypes.map((s) => this.fragment(s.record));
        break;
      default:
        break;
    }
    return { keywords, words };
  }

  /** The fragment of a parameter or property: its type's, with the slot's description, default and examples. */
  private slot(slot: SlotModel, optional: boolean, skipped: boolean): JsonSchema {
    const w = this.node(slot.type);
    const extra: string[] = [];
    const value = slot.default ? writtenDefault(slot.type, slot.default.value) : undefined;
    if (value !== undefined) extra.push(...wordsOf({ default: value }));
    if (slot.examples !== undefined) extra.push(...wordsOf({ examples: slot.examples }));
    const nullable = slot.type.kind === 'nullable';
    let keywords = skipped && !nullable ? this.d.nullable(w.keywords) : w.keywords;
    if (optional) keywords = this.d.optional(keywords, nullable || skipped);
    return ordered({ ...keywords, description: appended(slot.description ?? w.description, [...w.words, ...extra]) }, this.d.order);
  }

  object(slots: readonly SlotModel[], record: boolean): Keywords {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    const names: string[] = [];
    for (const slot of slots) {
      // As write.ts: under `skipMissingProperties` a record property without `@IsDefined` is optional and nullable.
      const skipped = record && this.policy.skipMissing && (slot as PropertyModel).defined !== true;
      const isRequired = slot.required && !skipped;
      const fragment = this.slot(slot, !isRequired, skipped);
      if (slot.name === '__proto__')
        Object.defineProperty(properties, slot.name, { value: fragment, enumerable: true, writable: true, configurable: true });
      else properties[slot.name] = fragment;
      names.push(slot.name);
      if (isRequired) required.push(slot.name);
    }
    return this.d.object(properties, required, names);
  }
}

/** A tool's `inputSchema` under a dialect: written once per parameter list, policy and `describe`. */
export function inputSchemaUnder(
  d: Dialect,
  params: readonly ParamModel[],
  policy: ValidationPolicy = CLOSED,
  describe = true,
): JsonSchema {
  return cached(`${d.name} ${describe} ${policy.key} input`, params, () =>
    ordered(new Walk(d, policy, describe).object(params, false), d.order),
  );
}

/** A tool's `inputSchema` under a dialect for a Standard Schema that is the whole input: its restated properties. */
export function standardInputSchemaUnder(d: Dialect, lifted: readonly ParamModel[], describe = true): JsonSchema {
  return cached(`${d.name} ${describe} standard input`, lifted, () =>
    ordered(new Walk(d, CLOSED, describe).object(lifted, false), d.order),
  );
}

/**
 * Walks the types under a tool's parameters, each reached once, with its path (`parameter 'order'.lines[]`):
 * `at` is told every node and answers whether to go on below it (through nullables, arrays, dictionary values,
 * record and subtype properties, and a Standard Schema's restated type).
 */
function walkParams(params: readonly ParamModel[], at: (node: TypeNode, path: string) => boolean): void {
  const seen = new Set<TypeNode>();
  const visit = (node: TypeNode, path: string): void => {
    if (seen.has(node)) return;
    seen.add(node);
    if (!at(node, path)) return;
    switch (node.kind) {
      case 'nullable':
        return visit(node.inner, path);
      case 'array':
        return visit(node.items, `${path}[]`);
      case 'dictionary':
        return visit(node.values, `${path}{}`);
      case 'record':
        for (const p of node.properties) visit(p.type, `${path}.${p.name}`);
        return;
      case 'discriminated':
        for (const s of node.subtypes) for (const p of s.record.properties) visit(p.type, `${path}.${p.name}`);
        return;
      case 'standard':
        if (!('problem' in node.lifted)) visit(node.lifted, path);
        return;
      default:
        return;
    }
  };
  for (const p of params) visit(p.type, `parameter '${p.name}'`);
}

/** Where a model holds a type a provider profile cannot state: `parameter 'tags'` and what it is. */
export interface Unstatable {
  readonly path: string;
  readonly kind: 'dictionary' | 'json';
}

/** The dictionaries and free JSON under a tool's parameters (not what lies inside them), each named by its path. */
export function unstatableIn(params: readonly ParamModel[]): Unstatable[] {
  const out: Unstatable[] = [];
  walkParams(params, (node, path) => {
    if (node.kind !== 'dictionary' && node.kind !== 'json') return true;
    out.push({ path, kind: node.kind });
    return false;
  });
  return out;
}

/** A Standard Schema under a tool's parameters that the provider profiles cannot list, and why. */
export interface UnliftedStandard {
  readonly path: string;
  readonly vendor: string;
  readonly problem: string;
}

/** The Standard Schemas under a tool's parameters that the provider profiles cannot restate, each named by its path. */
export function unliftedIn(params: readonly ParamModel[]): UnliftedStandard[] {
  const out: UnliftedStandard[] = [];
  walkParams(params, (node, path) => {
    if (node.kind === 'standard' && 'problem' in node.lifted) out.push({ path, vendor: node.vendor, problem: node.lifted.problem });
    return true;
  });
  return out;
}

/** What a dictionary's values are, in a few words (the profile cannot state them as a schema). */
function valueInWords(node: TypeNode): string {
  switch (node.kind) {
    case 'nullable':
      return `${valueInWords(node.inner)} or null`;
    case 'boolean':
      return 'true or false';
    case 'number':
      return 'a number';
    case 'integer':
      return 'a whole number';
    case 'string':
    case 'bytes':
      return 'a string';
    case 'enum':
      return `one of: ${node.listed.join(', ')}`;
    case 'array':
      return 'an array';
    case 'dictionary':
    case 'record':
      return 'an object';
    default:
      return 'any JSON value';
  }
}
