import { Int64, Uuid, type TypeHint } from '../decorators/hints';
import type { Constraint } from '../decorators/metadata';
import type { ValidationMetadata } from '../decorators/foreign';
import { unwrap, type PropertyModel, type TypeNode } from './model';

/**
 * The one table of class-validator rules: what each says in the listing (as our intent records) and
 * whether reading enforces exactly what it checks, so class-validator need not. The schema builder and
 * the reader both read it, so what is listed and what is skipped at run time cannot drift. A rule
 * missing here, or not enforced for its property, is left to class-validator after reading; it may be
 * stricter than the listing (DESIGN.md section 6).
 */

/** What class-validator's decorators on one property say, translated into our intent records. */
export interface ValidatorIntent {
  readonly constraints: Constraint[];
  readonly eachConstraints: Constraint[];
  hint?: TypeHint;
  optional: boolean;
  uniqueItems: boolean;
}

interface Rule {
  /** Adds what the rule means to the facts of its property. */
  readonly list?: (facts: ValidatorIntent, into: Constraint[], c: readonly unknown[], decorator: string) => void;
  /** Whether reading already checks exactly this (for a property of this type, not `each`). */
  readonly enforced: (type: TypeNode, c: readonly unknown[], property: PropertyModel) => boolean;
}

const kind =
  (...kinds: TypeNode['kind'][]) =>
  (type: TypeNode) =>
    kinds.includes(unwrap(type).kind);
const always = () => true;
const never = () => false;

/** Flags of a `@Matches` regex that leave matching alone; others are refused as definitions (OMCG0013). */
const plainRegex = (c: readonly unknown[]) => !c[1] && (!(c[0] instanceof RegExp) || /^[ugd]*$/.test(c[0].flags));

const RULES: Readonly<Record<string, Rule>> = {
  isOptional: { list: (facts) => void (facts.optional = true), enforced: always },
  isDefined: { enforced: (type, _c, p) => p.required && type.kind !== 'nullable' },
  min: {
    list: (_f, into, c, decorator) => void into.push({ kind: 'range', min: Number(c[0]), max: Infinity, decorator }),
    enforced: kind('number', 'integer'),
  },
  max: {
    list: (_f, into, c, decorator) => void into.push({ kind: 'range', min: -Infinity, max: Number(c[0]), decorator }),
    enforced: kind('number', 'integer'),
  },
  minLength: {
    list: (_f, into, c, decorator) => void into.push({ kind: 'length', min: Number(c[0]), decorator }),
    enforced: kind('string'),
  },
  maxLength: {
    list: (_f, into, c, decorator) => void into.push({ kind: 'length', max: Number(c[0]), decorator }),
    enforced: kind('string'),
  },
  isLength: {
    list: (_f, into, c) =>
      void into.push({ kind: 'length', min: Number(c[0]), max: c[1] === undefined ? undefined : Number(c[1]), decorator: '@Length' }),
    enforced: kind('string'),
  },
  arrayMinSize: {
    list: (_f, into, c, decorator) => void into.push({ kind: 'length', min: Number(c[0]), decorator }),
    enforced: kind('array'),
  },
  arrayMaxSize: {
    list: (_f, into, c, decorator) => void into.push({ kind: 'length', max: Number(c[0]), decorator }),
    enforced: kind('array'),
  },
  matches: {
    list: (_f, into, c, decorator) =>
      void into.push({
        kind: 'pattern',
        pattern: c[0] instanceof RegExp ? c[0].source : String(c[0]),
        flags: c[0] instanceof RegExp ? c[0].flags : String(c[1] ?? ''),
        decorator,
      }),
    enforced: (type, c) => kind('string')(type) && plainRegex(c),
  },
  // class-validator's email and URL rules are stricter than the `email` and `uri` formats: they run too.
  isEmail: { list: (_f, into, _c, decorator) => void into.push({ kind: 'format', format: 'email', decorator }), enforced: never },
  isUrl: { list: (_f, into, _c, decorator) => void into.push({ kind: 'format', format: 'uri', decorator }), enforced: never },
  isUuid: {
    list: (facts) => void (facts.hint = Uuid),
    enforced: (type, c) => kind('string')(type) && (c[0] === undefined || c[0] === 'all'),
  },
  // class-validator's integers are any safe integer: the Int64 range.
  isInt: { list: (facts) => void (facts.hint = Int64), enforced: (type) => unwrap(type).kind === 'integer' && !isBigint(type) },
  isEnum: { list: (facts, _into, c) => void (facts.hint = c[0] as TypeHint), enforced: kind('enum') },
  arrayUnique: { list: (facts) => void (facts.uniqueItems = true), enforced: (type, c) => kind('array')(type) && c[0] === undefined },
  isString: { enforced: (type) => isText(type) },
  isBoolean: { enforced: kind('boolean') },
  isNumber: {
    enforced: (type, c) =>
      kind('number', 'integer')(type) && !isBigint(type) && (c[0] === undefined || Object.keys(c[0] as object).length === 0),
  },
  isDate: {
    enforced: (type) => {
      const t = unwrap(type);
      return t.kind === 'string' && t.as === 'date';
    },
  },
  isArray: {
    enforced: (type) => {
      const t = unwrap(type);
      return t.kind === 'array' && !t.set;
    },
  },
  isObject: {
    enforced: (type) => {
      const t = unwrap(type);
      return t.kind === 'record' || t.kind === 'dictionary' || (t.kind === 'json' && t.shape === 'object');
    },
  },
};

function isBigint(type: TypeNode): boolean {
  const t = unwrap(type);
  return t.kind === 'integer' && t.bigint;
}

function isText(type: TypeNode): boolean {
  const t = unwrap(type);
  return (t.kind === 'string' && t.as === 'string') || (t.kind === 'enum' && t.values.every((v) => typeof v === 'string'));
}

/** Rules checked against each element (`{ each: true }`) that the listing states on `items`. */
const EACH = new Set(['min', 'max', 'minLength', 'maxLength', 'isLength', 'matches', 'isEmail', 'isUrl']);

/** The facts of one property's class-validator rules. */
export function validatorIntent(metadata: readonly ValidationMetadata[]): ValidatorIntent {
  const facts: ValidatorIntent = { constraints: [], eachConstraints: [], optional: false, uniqueItems: false };
  for (const m of metadata) {
    const rule = m.name === undefined ? undefined : RULES[m.name];
    if (!rule?.list) continue;
    const decorator = `@${m.name![0].toUpperCase()}${m.name!.slice(1)}`;
    rule.list(facts, m.each ? facts.eachConstraints : facts.constraints, m.constraints ?? [], decorator);
  }
  return facts;
}

/**
 * Whether reading a property of this model already checks everything rule `m` checks. `ValidateNested`
 * is: nested records are read (and validated) by their own readers.
 */
export function enforcedByReading(m: ValidationMetadata, property: PropertyModel | undefined): boolean {
  if (m.type === 'nestedValidation') return true;
  if (!property || m.groups?.length || m.always || m.name === undefined) return false;
  const rule = RULES[m.name];
  if (!rule) return false;
  if (m.each) {
    const t = unwrap(property.type);
    return EACH.has(m.name) && t.kind === 'array' && rule.enforced(t.items, m.constraints ?? [], property);
  }
  return rule.enforced(property.type, m.constraints ?? [], property);
}
