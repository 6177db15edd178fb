import { classChainOf } from '../../decorators/classes';
import { descriptionOf, designType, propertyRecordsOf, type PropertyRecord } from '../../decorators/metadata';
import {
  apiPropertyOf,
  discriminatorOf,
  exposureOf,
  foreignPropertiesOf,
  strategyOf,
  transformerTypeOf,
  validationOf,
  type ApiPropertyFacts,
  type Direction,
  type ValidationMetadata,
} from '../../decorators/foreign';
import { HINT, StringLiterals, type TypeHint } from '../../decorators/hints';
import { propertyFactsOf, type SourcePropertyFacts } from '../../facts/registry';
import { defaultOf, resolveSlot } from '../resolve/slots';
import { acceptsAbsence, unwrap, type PropertyModel, type RecordNode, type TypeNode } from '../model';
import { discriminatedHint, type Site } from '../resolve/resolve';
import { initializersOf, type CompiledValue } from '../resolve/compiled';
import { validatorIntent, type ValidatorIntent } from './validator-rules';
import { isObjectLike, isPlainObject } from '../../objects';

/**
 * Restores declaration order across three metadata stores. Without the generator's facts, nothing at run
 * time says in which order properties were declared: each library keeps its own list, in the order its
 * decorators ran, and property decorators run top to bottom. So when a property first gets one of our
 * decorators, its record snapshots the properties class-validator and class-transformer already knew
 * (`PropertyRecord.after`, taken in `paramOrProperty`): those were declared above it and come before it.
 * A property only the other libraries know goes just before the first of ours that saw it, or at the end
 * when none did; among themselves they keep the other libraries' order. Within one property, decorators
 * run bottom to top, which does not matter: only the first sighting of a property counts.
 */
function orderedKeys(ctor: Function, ours: readonly PropertyRecord[]): readonly string[] {
  const foreign = foreignPropertiesOf(ctor);
  const seen = new Set<string>();
  const order: string[] = [];
  const emit = (key: string) => {
    if (!seen.has(key)) {
      seen.add(key);
      order.push(key);
    }
  };
  for (const record of ours) {
    const before = new Set(record.after);
    foreign.filter((k) => before.has(k)).forEach(emit);
    emit(record.key);
  }
  foreign.forEach(emit);
  return order;
}

/**
 * With source facts, every declared property in declaration order, then any other the metadata knows; a
 * property with no decorator at all is left out when class-transformer exposes only `@Expose()`d ones.
 */
function keysWithFacts(ctor: Function, known: readonly string[], facts: readonly SourcePropertyFacts[] | undefined): readonly string[] {
  if (!facts) return known;
  const declared = strategyOf(ctor) === 'excludeAll' ? facts.filter((f) => known.includes(f.key)) : facts;
  return [...new Set([...declared.map((f) => f.key), ...known])];
}

const cache = { input: new WeakMap<Function, RecordNode>(), output: new WeakMap<Function, RecordNode>() };

/**
 * Resolves a record class into a closed object model: the properties that carry any decorator of this
 * library, class-validator or class-transformer, base class first, then declaration order.
 */
export function recordOf(ctor: Function, site: Site, direction: Direction): RecordNode | undefined {
  const cached = cache[direction].get(ctor);
  if (cached) return cached;
  if (site.stack.includes(ctor)) {
    return site.problems.add(
      'OMCG0006',
      site.where,
      `${ctor.name} refers to itself (${[...site.stack, ctor].map((c) => c.name).join(' -> ')}).`,
      'break the cycle: JSON Schema is written inline, so a record cannot contain itself; use Json or an id instead.',
    );
  }
  const before = site.problems.count;
  // A derived class's property replaces its base's in place: the Map keeps the first position of a key.
  const byKey = new Map<string, PropertyModel>();
  const excluded = new Set<string>();
  for (const c of classChainOf(ctor)) {
    const declared = declaredBy(c, ctor.length === 0);
    for (const key of keysWithFacts(c, orderedKeys(c, declared.records), declared.facts)) {
      const exposure = exposureOf(ctor, key, direction);
      if (exposure.excluded) {
        excluded.add(key);
        continue;
      }
      const model = propertyModel(ctor, declared, key, exposure.name ?? key, site);
      if (model) byKey.set(key, model);
    }
  }
  const properties = [...byKey.values()];
  checkWireNames(ctor, properties, site);
  if (properties.length === 0 && excluded.size === 0 && site.problems.count === before) {
    return site.problems.add(
      'OMCG0005',
      site.where,
      `${ctor.name} has no discoverable properties: TypeScript keeps only decorated properties.`,
      `decorate each property of ${ctor.name} with @Field() (or a class-validator decorator).`,
    );
  }
  if (site.problems.count > before) return undefined;
  const node: RecordNode = Object.freeze({ kind: 'record', ctor, description: descriptionOf(ctor), properties: Object.freeze(properties) });
  cache[direction].set(ctor, node);
  return node;
}

/** What one class of a record's chain says about the properties it declares, read once per class. */
interface DeclaredProperties {
  readonly ctor: Function;
  readonly records: readonly PropertyRecord[];
  /** Initialisers read from the compiled class; only for a record built with no constructor arguments. */
  readonly initializers: ReadonlyMap<string, CompiledValue>;
  readonly validations: readonly ValidationMetadata[];
  readonly facts?: readonly SourcePropertyFacts[];
  /** The record is built with `new ctor()`, so initialisers and source defaults apply. */
  readonly constructible: boolean;
}

function declaredBy(c: Function, constructible: boolean): DeclaredProperties {
  return {
    ctor: c,
    records: propertyRecordsOf(c),
    initializers: constructible ? initializersOf(c) : new Map(),
    validations: validationOf(c),
    facts: propertyFactsOf(c),
    constructible,
  };
}

/** The property's design type: `design:type`, else the generator's facts, else a mapped type's `@ApiProperty` type. */
function designOf(
  declared: DeclaredProperties,
  key: string,
  fact: SourcePropertyFacts | undefined,
  api: ReturnType<typeof apiPropertyOf>,
): ReturnType<typeof designType> {
  const found = designType(declared.ctor.prototype, key);
  if (found.found) return found;
  if (fact !== undefined) return { found: true, type: fact.design };
  // A mapped type (PartialType ...) of @nestjs/swagger keeps @ApiProperty's type, not design:type.
  return { found: api?.type !== undefined, type: api?.type };
}

/** Whether the declaration itself lets the property be left out: optional, or given a default. */
function omittable(record: PropertyRecord | undefined, initializer: unknown, fact: SourcePropertyFacts | undefined): boolean {
  return Boolean(record?.optional || record?.hasDefault || initializer || fact?.optional);
}

/**
 * The model of one property declared by `declared.ctor` on the record `ctor`: our record, then
 * class-validator's and class-transformer's decorators, then the generator's facts, then `design:type`.
 * `undefined` with its problems recorded.
 */
function propertyModel(ctor: Function, declared: DeclaredProperties, key: string, name: string, site: Site): PropertyModel | undefined {
  const record = declared.records.find((p) => p.key === key);
  const rules = declared.validations.filter((m) => m.propertyName === key);
  const validator = validatorIntent(rules);
  const fact = declared.facts?.find((f) => f.key === key);
  const api = apiPropertyOf(ctor, key);
  const design = designOf(declared, key, fact, api);
  const where = `${site.where}, property '${name}'`;
  const inner: Site = { ...site, where, stack: [...site.stack, ctor] };
  if (!design.found && record?.type === undefined) {
    inner.problems.add('OMCG0002', where, `${declared.ctor.name}.${key} has no design:type metadata.`, metadataFix);
    return undefined;
  }
  // What @ApiProperty says of the values counts only where class-validator says nothing of the property:
  // otherwise class-validator's reading is the listing's (an enum it does not check would refuse values it accepts).
  const apiValues = rules.length === 0 ? api : undefined;
  const resolved = resolveSlot(
    {
      hint:
        record?.type ??
        validator.hint ??
        transformerHint(ctor, key, validator, design.type) ??
        apiEnum(apiValues) ??
        evidence(validator, fact, design.type),
      source: fact?.type,
      design: design.type,
      constraints: [...(record?.constraints ?? []), ...validator.constraints],
      eachConstraints: validator.eachConstraints,
      uniqueItems: validator.uniqueItems,
      // Under `@ValidateIf` a `null` reaches the condition, which decides (with `@Field({ type })`, the type does).
      nullable:
        record?.nullable ||
        validator.optional ||
        apiValues?.nullable ||
        (validator.conditional && (record?.type === undefined || isNullableHint(fact?.type))),
    },
    inner,
  );
  if (!resolved) return undefined;
  // What the app's pipe makes of a nested class it never looks inside (only class-validator DTOs: our own
  // `@Field` records are read as declared).
  const built = transformerTypeOf(ctor, key);
  const type = record === undefined && rules.length > 0 ? asThePipeSeesIt(resolved, rules, built !== undefined) : resolved;
  const initializer = declared.initializers.get(key);
  return {
    key,
    name,
    type,
    ...(rules.some((m) => m.name === 'isDefined') && { defined: true }),
    ...(validator.conditional && { conditional: true }),
    ...(type !== resolved && built !== undefined && !rules.some((m) => m.type === 'nestedValidation') && { builds: built }),
    description: record?.description ?? api?.description ?? fact?.description,
    // Under `@ValidateIf` the condition decides: the property is never required (docs/listing-contract.md).
    required: !(
      validator.optional ||
      validator.conditional ||
      passesMissing(record, rules) ||
      apiValues?.required === false ||
      omittable(record, initializer, fact) ||
      acceptsAbsence(type)
    ),
    // A source default applies only where `new ctor()` builds the record and so runs the initialisers.
    default: defaultOf(record, declared.constructible ? fact?.default : undefined, initializer, type),
    examples: api && api.example !== undefined && isJson(api.example) ? [api.example] : undefined,
  };
}

/**
 * A class-validator DTO's property whose every rule passes a missing value: `@ValidateNested()` skips
 * `undefined`, `@Allow()` checks nothing. The app's pipe accepts it left out, so it is not required.
 */
function passesMissing(record: PropertyRecord | undefined, rules: readonly ValidationMetadata[]): boolean {
  return record === undefined && rules.length > 0 && rules.every((m) => m.type === 'nestedValidation' || m.type === 'whitelistValidation');
}

/**
 * `@Type(() => C)`: the class class-transformer builds; an array of it under `@IsArray()` or
 * `@ValidateNested({ each: true })` whatever the declared type (an interface, for one).
 */
function transformerHint(ctor: Function, key: string, validator: ValidatorIntent, design: unknown): TypeHint | undefined {
  const discriminator = discriminatorOf(ctor, key);
  const type = discriminator ? discriminatedHint(discriminator) : (transformerTypeOf(ctor, key) as TypeHint | undefined);
  if (type === undefined || !arrayIntent(validator, design) || design === Array || design === Set) return type;
  return [type];
}

/**
 * Whether the rules make the value an array whatever the declared type: `@IsArray()`, or
 * `@ValidateNested({ each: true })` where TypeScript erased the type (a property declared as one class is one
 * object: class-validator validates it as one, `each` or not).
 */
function arrayIntent(validator: ValidatorIntent, design: unknown): boolean {
  return validator.array || (validator.nestedEach && ERASED.has(design));
}

/**
 * A nested record (or array of them) as the app's pipe handles it, for a class-validator DTO's property:
 * without `@ValidateNested`, class-validator never looks inside, so any JSON value of the property's own
 * rules passes (an object under `@IsObject()`), built into the class by `@Type` when it is an object; with
 * `@ValidateNested` but no `@Type`, class-transformer leaves a plain object, which class-validator finds no
 * rule of: a record of no properties (closed, stripped or kept as the policy says).
 */
function asThePipeSeesIt(type: TypeNode, rules: readonly ValidationMetadata[], typed: boolean): TypeNode {
  const nested = rules.some((m) => m.type === 'nestedValidation');
  const swap = (node: TypeNode): TypeNode => {
    if (node.kind === 'nullable') {
      const inner = swap(node.inner);
      return inner === node.inner ? node : Object.freeze({ ...node, inner });
    }
    if (node.kind === 'array' && unwrap(node.items).kind === 'record') {
      const items = swap(node.items);
      return items === node.items ? node : Object.freeze({ ...node, items });
    }
    if (node.kind !== 'record') return node;
    if (!nested) return rules.some((m) => m.name === 'isObject') ? LOOSE_OBJECT : LOOSE_ANY;
    return typed ? node : plainRecord(node);
  };
  return swap(type);
}

const LOOSE_OBJECT: TypeNode = Object.freeze({ kind: 'json', shape: 'object' });
const LOOSE_ANY: TypeNode = Object.freeze({ kind: 'json', shape: 'any' });
const plainRecords = new WeakMap<RecordNode, RecordNode>();

/** The record class-validator sees in a plain object: no properties, built as a plain object. */
function plainRecord(node: RecordNode): RecordNode {
  let plain = plainRecords.get(node);
  if (!plain)
    plainRecords.set(
      node,
      (plain = Object.freeze({ kind: 'record', ctor: Object, description: node.description, properties: Object.freeze([]) })),
    );
  return plain;
}

/**
 * `@ApiProperty({ enum })` of strings as the property's type, below our hints and class-validator's
 * (an array of them when the property is one).
 */
function apiEnum(api: ApiPropertyFacts | undefined): TypeHint | undefined {
  const values = api?.enum;
  if (!values || values.length === 0 || !values.every((v): v is string => typeof v === 'string')) return undefined;
  return StringLiterals(...new Set(values));
}

/** Plain JSON (what `examples` can hold): no functions, dates, class instances, cycles or non-finite numbers. */
function isJson(value: unknown, depth = 0): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (depth > 16) return false;
  if (Array.isArray(value)) return value.every((v) => isJson(v, depth + 1));
  return isPlainObject(value) && Object.values(value).every((v) => isJson(v, depth + 1));
}

/**
 * A source type written `| null` (the generator's `Nullable(...)`). Under `@ValidateIf` it keeps the
 * property nullable even when `@Type` gives the type: the condition, not the rules, decides about `null`.
 */
function isNullableHint(hint: TypeHint | undefined): boolean {
  return isObjectLike(hint) && HINT in hint && hint[HINT] === 'nullable';
}

/** Declared types TypeScript erased: an array's elements, an interface, a union, a type alias. */
const ERASED = new Set<unknown>([Array, Set, Object, undefined]);

/** What class-validator's rules say of the type, where nothing stronger does (DESIGN.md section 6). */
function evidence(validator: ValidatorIntent, fact: SourcePropertyFacts | undefined, design: unknown): TypeHint | undefined {
  if (validator.evidence === undefined || fact?.type !== undefined || !ERASED.has(design)) return undefined;
  return arrayIntent(validator, design) && design !== Array && design !== Set ? [validator.evidence] : validator.evidence;
}

/** OMCG0007: two properties that reach the same wire name (`@Expose({ name })` onto another property). */
function checkWireNames(ctor: Function, properties: readonly PropertyModel[], site: Site): void {
  const names = new Map<string, string>();
  for (const p of properties) {
    const other = names.get(p.name);
    if (other !== undefined) {
      site.problems.add(
        'OMCG0007',
        `${site.where}, property '${p.name}'`,
        `${ctor.name}.${other} and ${ctor.name}.${p.key} are both named '${p.name}' on the wire.`,
        'rename one with @Expose({ name }) or remove one with @Exclude().',
      );
    }
    names.set(p.name, p.key);
  }
}

export const metadataFix =
  'run `npx onemodelcontext generate` and import the facts module it writes (then any runner works: tsx, vitest, esbuild), ' +
  'or compile with tsc, ts-jest or SWC with "experimentalDecorators" and "emitDecoratorMetadata" enabled.';
