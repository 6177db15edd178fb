import { classChainOf } from '../decorators/classes';
import { Int64, Uuid, type TypeHint } from '../decorators/hints';
import { descriptionOf, designType, propertyRecordsOf, type Constraint, type PropertyRecord } from '../decorators/metadata';
import {
  exposureOf,
  foreignPropertiesOf,
  strategyOf,
  transformerTypeOf,
  validationOf,
  type Direction,
  type ValidationMetadata,
} from '../decorators/foreign';
import { propertyFactsOf, type SourcePropertyFacts } from '../facts/registry';
import { resolveSlot, compiledDefault } from './slots';
import type { PropertyModel, RecordNode } from './model';
import type { Site } from './resolve';
import { initializersOf } from './compiled';

/** What class-validator's decorators on one property say, translated into our intent records. */
interface ValidatorIntent {
  readonly constraints: Constraint[];
  readonly eachConstraints: Constraint[];
  hint?: TypeHint;
  optional: boolean;
  uniqueItems: boolean;
}

function validatorIntent(metadata: readonly ValidationMetadata[]): ValidatorIntent {
  const intent: ValidatorIntent = { constraints: [], eachConstraints: [], optional: false, uniqueItems: false };
  for (const m of metadata) {
    const c = m.constraints ?? [];
    const into = m.each ? intent.eachConstraints : intent.constraints;
    const decorator = `@${m.name ? m.name[0].toUpperCase() + m.name.slice(1) : 'Validate'}`;
    switch (m.name) {
      case 'isOptional':
        intent.optional = true;
        break;
      case 'min':
        into.push({ kind: 'range', min: Number(c[0]), max: Infinity, decorator });
        break;
      case 'max':
        into.push({ kind: 'range', min: -Infinity, max: Number(c[0]), decorator });
        break;
      case 'minLength':
      case 'arrayMinSize':
        into.push({ kind: 'length', min: Number(c[0]), decorator });
        break;
      case 'maxLength':
      case 'arrayMaxSize':
        into.push({ kind: 'length', max: Number(c[0]), decorator });
        break;
      case 'isLength':
        into.push({ kind: 'length', min: Number(c[0]), max: c[1] === undefined ? undefined : Number(c[1]), decorator: '@Length' });
        break;
      case 'matches':
        into.push({ kind: 'pattern', pattern: c[0] instanceof RegExp ? c[0].source : String(c[0]), decorator });
        break;
      case 'isEmail':
        into.push({ kind: 'format', format: 'email', decorator });
        break;
      case 'isUrl':
        into.push({ kind: 'format', format: 'uri', decorator });
        break;
      case 'isUuid':
        intent.hint = Uuid;
        break;
      case 'isInt':
        // class-validator's integers are any safe integer: the Int64 range.
        intent.hint = Int64;
        break;
      case 'isEnum':
        intent.hint = c[0] as TypeHint;
        break;
      case 'arrayUnique':
        intent.uniqueItems = true;
        break;
    }
  }
  return intent;
}

/**
 * Restores declaration order across three metadata stores. Each of our property records remembers which
 * properties class-validator and class-transformer already knew when it was first decorated; those come
 * before it. Properties only the other libraries know keep their own relative order.
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
  const constructible = ctor.length === 0;
  const byKey = new Map<string, PropertyModel>();
  const excluded = new Set<string>();
  for (const c of classChainOf(ctor)) {
    const ours = propertyRecordsOf(c);
    const initializers = initializersOf(c);
    const validations = validationOf(c);
    const facts = propertyFactsOf(c);
    for (const key of keysWithFacts(c, orderedKeys(c, ours), facts)) {
      const exposure = exposureOf(ctor, key, direction);
      if (exposure.excluded) {
        excluded.add(key);
        continue;
      }
      const record = ours.find((p) => p.key === key);
      const validator = validatorIntent(validations.filter((m) => m.propertyName === key));
      const fact = facts?.find((f) => f.key === key);
      const found = designType(c.prototype, key);
      const design = found.found ? found : { found: fact !== undefined, type: fact?.design };
      const where = `${site.where}, property '${exposure.name ?? key}'`;
      const inner: Site = { ...site, where, stack: [...site.stack, ctor] };
      if (!design.found && record?.type === undefined) {
        inner.problems.add('OMCG0002', where, `${c.name}.${key} has no design:type metadata.`, metadataFix);
        continue;
      }
      const transformerType = transformerTypeOf(ctor, key) as TypeHint | undefined;
      const hint = record?.type ?? validator.hint ?? transformerType;
      const type = resolveSlot(
        {
          hint,
          source: fact?.type,
          design: design.type,
          constraints: [...(record?.constraints ?? []), ...validator.constraints],
          eachConstraints: validator.eachConstraints,
          uniqueItems: validator.uniqueItems,
          nullable: record?.nullable,
        },
        inner,
      );
      if (!type) continue;
      const initializer = constructible ? initializers.get(key) : undefined;
      const fallback = record?.hasDefault
        ? { value: record.default }
        : constructible && fact?.default !== undefined ? { value: fact.default } : initializer && compiledDefault(initializer, type);
      byKey.set(key, {
        key,
        name: exposure.name ?? key,
        type: type,
        description: record?.description ?? fact?.description,
        required: !(record?.optional || validator.optional || record?.hasDefault || initializer || fact?.optional),
        default: fallback,
      });
    }
  }
  const properties = [...byKey.values()];
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

export const metadataFix =
  'compile with tsc or ts-jest with "experimentalDecorators" and "emitDecoratorMetadata" enabled; esbuild-based runners (tsx, vitest, esbuild) emit no design:* metadata.';
