import { Int64, JsonObject, StringLiterals, Uuid, type TypeHint } from '../../decorators/hints';
import type { ValidationMetadata } from '../../decorators/foreign';
import { constraintSchemaOf } from '../../decorators/metadata';
import { fragmentProblem } from '../resolve/input-schema';
import { unwrap, type ExactRule, type PropertyModel, type SchemaConstraint, type TypeNode } from '../model';
import { isObjectLike } from '../../objects';

/**
 * The one table of class-validator rules: what each says in the listing (as our intent records) and
 * whether reading enforces exactly what it checks, so class-validator need not. The schema builder and
 * the reader both read it, so what is listed and what is skipped at run time cannot drift. A rule
 * missing here, or not enforced for its property, is left to class-validator after reading; it may be
 * stricter than the listing (DESIGN.md section 6).
 */

/** What class-validator's decorators on one property say, translated into our intent records. */
export interface ValidatorIntent {
  readonly constraints: SchemaConstraint[];
  readonly eachConstraints: SchemaConstraint[];
  hint?: TypeHint;
  /**
   * What the rules say about the type when nothing stronger does (`@IsString({ each: true })`,
   * `@IsIn([...])`, `@IsObject()`): used where the declared type is erased (an array, an interface, a union).
   */
  evidence?: TypeHint;
  /** `@IsOptional()`: may be omitted, and `null` skips every rule, as class-validator reads it. */
  optional: boolean;
  /** `@IsArray()`: the value is an array whatever the declared type. */
  array: boolean;
  /** `@ValidateNested({ each: true })`: an array where TypeScript erased the declared type (records.ts). */
  nestedEach: boolean;
  /** `@ValidateIf`: the rules hold only sometimes, so none is listed and class-validator checks them all. */
  conditional: boolean;
  uniqueItems: boolean;
}

type Args = readonly unknown[];

interface Rule {
  /** Adds what the rule means to the facts of its property. */
  readonly list?: (facts: ValidatorIntent, into: SchemaConstraint[], c: Args, decorator: string, m: ValidationMetadata) => void;
  /** Whether reading already checks exactly this (for a property of this type, not `each`). */
  readonly enforced: (type: TypeNode, c: Args, property: PropertyModel, m: ValidationMetadata) => boolean;
  /** Whether `{ each: true }` is listed on the elements. */
  readonly each?: boolean;
}

const kind =
  (...kinds: TypeNode['kind'][]) =>
  (type: TypeNode) =>
    kinds.includes(unwrap(type).kind);
const always = () => true;
const never = () => false;

/** Flags of a `@Matches` regex that leave matching alone; others are refused as definitions (OMCG0013). */
const plainRegex = (c: Args) => !c[1] && (!(c[0] instanceof RegExp) || /^[ugd]*$/.test(c[0].flags));
/**
 * Reading matches a pattern as JSON Schema does, in Unicode mode (`u`); class-validator matches the regex as given.
 * The two agree on every string only for a regex that has the `u` flag itself: without it, `.` is one UTF-16 unit
 * for class-validator (so '😀' fails `^.$`) and `\u{...}` means something else.
 */
const unicodeRegex = (c: Args) => c[0] instanceof RegExp && c[0].flags.includes('u');

// ---- exact rules: keywords, the test reading runs and its text, side by side ----

/** Numbers as class-validator sees them: a JSON number read as a `number` (not a bigint). */
const numeric = (n: TypeNode) => (n.kind === 'number' || n.kind === 'integer') && !isBigint(n);
/** Strings class-validator sees as they were sent (not converted to a Date, URL or time span). */
const text = (n: TypeNode) => n.kind === 'string' && n.as === 'string';
/** Values class-validator compares with `===` as they were sent. */
const primitive = (n: TypeNode) => numeric(n) || text(n) || n.kind === 'boolean';

/*
 * The values class-validator's built-in rules take: `@Min`/`@Max` test `typeof value === 'number'` (not a bigint),
 * the length rules and `@Matches` `typeof value === 'string'` (not the Date, URL or time span reading makes),
 * `@ArrayMinSize`/`@ArrayMaxSize` `Array.isArray` (not a Set). On any other type class-validator refuses every
 * value, so the rule is left to it.
 */
const asNumber = (type: TypeNode) => numeric(unwrap(type));
const asText = (type: TypeNode) => text(unwrap(type));
const asArray = (type: TypeNode) => {
  const t = unwrap(type);
  return t.kind === 'array' && !t.set;
};

/** A rule that lists `keywords` on a node `fits` accepts and reading enforces with `test`. */
function exact(
  fits: (n: TypeNode) => boolean,
  keywords: ExactRule['keywords'],
  test: (v: unknown) => boolean,
  expected: string,
  narrow?: ExactRule['narrow'],
  example?: unknown,
): (m: ValidationMetadata) => ExactRule {
  return (origin) => ({ origin, fits, keywords, test, expected, narrow, example });
}

/**
 * A rule that is one regular expression in validator.js, written as the `u`-mode JSON Schema pattern that
 * accepts the same strings (tested against class-validator's own function in test/schema/exact-rules.test.ts).
 * `format`, when given, names a format whose strings are exactly these, listed instead of the pattern.
 */
function pattern(source: string, expected: string, example: string | undefined, format?: string): (m: ValidationMetadata) => ExactRule {
  const regex = new RegExp(source, 'u');
  return exact(text, format ? { format } : { pattern: source }, (v) => regex.test(v as string), expected, undefined, example);
}

/** JSON values class-validator's `===` and JSON Schema's equality agree on. */
const isJsonPrimitive = (v: unknown) => typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

/** `@IsIn`, `@IsNotIn`, `@Equals` on an enum: the members whose value passes, as a narrower enum. */
function members(keep: (value: unknown) => boolean): (n: TypeNode) => TypeNode | undefined {
  return (n) => {
    if (n.kind !== 'enum') return undefined;
    const at = n.values.map((v, i) => (keep(v) ? i : -1)).filter((i) => i >= 0);
    if (at.length === 0) return undefined;
    return { kind: 'enum', names: at.map((i) => n.names[i]), values: at.map((i) => n.values[i]), listed: at.map((i) => n.listed[i]) };
  };
}

const shown = (values: readonly unknown[]) => values.map((v) => JSON.stringify(v)).join(', ');
const comparable = (n: TypeNode) => primitive(n) || n.kind === 'enum';

function isIn(values: readonly unknown[]): (m: ValidationMetadata) => ExactRule {
  const test = (v: unknown) => values.includes(v);
  const narrowEnum = members(test);
  // A plain string (nothing else said of it) becomes an enum of the strings: the type the model needs.
  const narrow = (n: TypeNode): TypeNode | undefined => {
    if (n.kind === 'enum') return narrowEnum(n);
    const strings = [...new Set(values.filter((v): v is string => typeof v === 'string'))];
    if (!text(n) || Object.keys(n).length > 2 || strings.length === 0) return undefined;
    return { kind: 'enum', names: strings, values: strings, listed: strings };
  };
  return exact(comparable, { enum: [...values] }, test, `Expected one of: ${shown(values)}.`, narrow);
}

function isNotIn(values: readonly unknown[]): (m: ValidationMetadata) => ExactRule {
  const test = (v: unknown) => !values.includes(v);
  return exact(comparable, { not: { enum: [...values] } }, test, `Expected none of: ${shown(values)}.`, members(test));
}

function equals(value: unknown): (m: ValidationMetadata) => ExactRule {
  const test = (v: unknown) => v === value;
  return exact(comparable, { const: value }, test, `Expected ${JSON.stringify(value)}.`, members(test));
}

/** `@Contains` / `@NotContains` seeds, escaped into a `u`-mode pattern. */
const escaped = (seed: string) => seed.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
const plainSeed = (seed: unknown): seed is string => typeof seed === 'string' && seed !== '' && !/[\ud800-\udfff]/.test(seed);

// validator.js 13.15: the regular expressions of its default options, with the `i` flag spelt out.
const V4 = '(?:(?:[0-9]|[1-9][0-9]|1[0-9][0-9]|2[0-4][0-9]|25[0-5])[.]){3}(?:[0-9]|[1-9][0-9]|1[0-9][0-9]|2[0-4][0-9]|25[0-5])';
const IPV4 = `^${V4}$`;
const H = '(?:[0-9a-fA-F]{1,4})';
const IPV6 =
  `^(?:(?:${H}:){7}(?:${H}|:)|(?:${H}:){6}(?:${V4}|:${H}|:)|(?:${H}:){5}(?::${V4}|(?::${H}){1,2}|:)|` +
  `(?:${H}:){4}(?:(?::${H}){0,1}:${V4}|(?::${H}){1,3}|:)|(?:${H}:){3}(?:(?::${H}){0,2}:${V4}|(?::${H}){1,4}|:)|` +
  `(?:${H}:){2}(?:(?::${H}){0,3}:${V4}|(?::${H}){1,5}|:)|(?:${H}:){1}(?:(?::${H}){0,4}:${V4}|(?::${H}){1,6}|:)|` +
  `(?::(?:(?::${H}){0,5}:${V4}|(?::${H}){1,7}|:)))(?:%[0-9a-zA-Z.]{1,})?$`;
const ISO8601 =
  '^([\\+-]?\\d{4}(?!\\d{2}\\b))((-?)((0[1-9]|1[0-2])(\\3([12]\\d|0[1-9]|3[01]))?|W([0-4]\\d|5[0-3])(-?[1-7])?|' +
  '(00[1-9]|0[1-9]\\d|[12]\\d{2}|3([0-5]\\d|6[1-6])))([T\\s]((([01]\\d|2[0-3])((:?)[0-5]\\d)?|24:?00)([\\.,]\\d+(?!:))?)?' +
  '(\\17[0-5]\\d([\\.,]\\d+)?)?([zZ]|([\\+-])([01]\\d|2[0-3]):?([0-5]\\d)?)?)?)?$';
const HEX_COLOR = '^#?(?:[0-9A-Fa-f]{3}|[0-9A-Fa-f]{4}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$';
const HEXADECIMAL = '^(?:0[xXhH])?[0-9A-Fa-f]+$';
const ALPHA = '^[A-Za-z]+$';
const ALPHANUMERIC = '^[0-9A-Za-z]+$';
const NUMBER_STRING = '^[+-]?(?:[0-9]*[.])?[0-9]+$';
const PORT = '^(?:[-+]?0|\\+?(?:[1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))$';
const MAC =
  '^(?:[0-9a-fA-F]{2}([-:\\s])(?:[0-9a-fA-F]{2}\\1){4}[0-9a-fA-F]{2}|(?:[0-9a-fA-F]{4}\\.){2}[0-9a-fA-F]{4}|' +
  '[0-9a-fA-F]{2}([-:\\s])(?:[0-9a-fA-F]{2}\\2){6}[0-9a-fA-F]{2}|(?:[0-9a-fA-F]{4}\\.){3}[0-9a-fA-F]{4})$';
const BASE64 = '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2}==)?$';

const noOptions = (o: unknown) => o === undefined || (isObjectLike(o) && Object.keys(o).length === 0);
const enLocale = (c: Args) => (c[0] === undefined || c[0] === 'en-US') && noOptions(c[1]);
const someOf = (c: Args): c is [unknown[]] => Array.isArray(c[0]) && c[0].length > 0 && c[0].every(isJsonPrimitive);

type ExactOf = (c: Args) => ((m: ValidationMetadata) => ExactRule) | undefined;

/**
 * The exact rules, by class-validator rule name, for their arguments: `undefined` where the arguments make
 * class-validator's reading something JSON Schema cannot state exactly (then nothing is listed, and
 * class-validator checks it after reading). docs/listing-contract.md has the table.
 */
const EXACT: Readonly<Record<string, ExactOf>> = {
  isPositive: () => exact(numeric, { exclusiveMinimum: 0 }, (v) => (v as number) > 0, 'Expected a number greater than 0.'),
  isNegative: () => exact(numeric, { exclusiveMaximum: 0 }, (v) => (v as number) < 0, 'Expected a number less than 0.'),
  // class-validator divides by parseInt(n): exact for a whole divisor on safe integers.
  isDivisibleBy: (c) => {
    const by = c[0];
    if (typeof by !== 'number' || !Number.isInteger(by) || by <= 0) return undefined;
    return exact(
      (n) => n.kind === 'integer' && !n.bigint,
      { multipleOf: by },
      (v) => (v as number) % by === 0,
      `Expected a multiple of ${by}.`,
    );
  },
  isIn: (c) => (someOf(c) ? isIn(c[0]) : undefined),
  isNotIn: (c) => (someOf(c) ? isNotIn(c[0]) : undefined),
  equals: (c) => (isJsonPrimitive(c[0]) ? equals(c[0]) : undefined),
  // Refuses '', null and undefined: on a string, at least one character (null is the listing's business).
  isNotEmpty: () => exact(text, { minLength: 1 }, (v) => v !== '', 'Expected at least 1 character.'),
  arrayNotEmpty: () =>
    exact(
      (n) => n.kind === 'array' && !n.set,
      { minItems: 1 },
      (v) => (v as unknown[]).length > 0,
      'Expected at least 1 item.',
    ),
  isNotEmptyObject: (c) => {
    if (!noOptions(c[0])) return undefined;
    const fits = (n: TypeNode) => n.kind === 'json' && n.shape === 'object';
    return exact(fits, { minProperties: 1 }, (v) => Object.keys(v as object).length > 0, 'Expected at least 1 property.');
  },
  isIp: (c) => {
    const version = c[0] === undefined ? undefined : String(c[0]);
    if (version === '4') return pattern(IPV4, 'Expected an IPv4 address.', '192.0.2.1', 'ipv4');
    if (version === '6') return pattern(IPV6, 'Expected an IPv6 address.', '2001:db8::1');
    return version === undefined ? pattern(`${IPV4}|${IPV6}`, 'Expected an IP address.', '192.0.2.1') : undefined;
  },
  isIso8601: (c) => (noOptions(c[0]) ? pattern(ISO8601, 'Expected an ISO 8601 date.', '2026-12-02') : undefined),
  isDateString: (c) => (noOptions(c[0]) ? pattern(ISO8601, 'Expected an ISO 8601 date.', '2026-12-02') : undefined),
  isHexColor: () => pattern(HEX_COLOR, 'Expected a hexadecimal color.', '#1e90ff'),
  isHexadecimal: () => pattern(HEXADECIMAL, 'Expected a hexadecimal number.', 'ff'),
  isAlpha: (c) => (enLocale(c) ? pattern(ALPHA, 'Expected letters A to Z only.', 'abc') : undefined),
  isAlphanumeric: (c) => (enLocale(c) ? pattern(ALPHANUMERIC, 'Expected letters A to Z and digits only.', 'abc123') : undefined),
  isNumberString: (c) => (noOptions(c[0]) ? pattern(NUMBER_STRING, 'Expected a number as text.', '42') : undefined),
  isPort: () => pattern(PORT, 'Expected a port number from 0 to 65535 as text.', '8080'),
  isMacAddress: (c) => (c[0] === undefined ? pattern(MAC, 'Expected a MAC address.', '00:1a:2b:3c:4d:5e') : undefined),
  isBase64: (c) => (c[0] === undefined ? pattern(BASE64, 'Expected base64 text.', 'aGVsbG8=') : undefined),
  contains: (c) => (plainSeed(c[0]) ? pattern(escaped(c[0]), `Expected text containing ${JSON.stringify(c[0])}.`, c[0]) : undefined),
  notContains: (c) =>
    plainSeed(c[0])
      ? pattern(`^(?![\\s\\S]*${escaped(c[0])})`, `Expected text not containing ${JSON.stringify(c[0])}.`, undefined)
      : undefined,
};

/** class-validator's rule names the table lists and reading enforces (for tests and docs). */
export const EXACT_RULE_NAMES: readonly string[] = Object.freeze(Object.keys(EXACT));

/** The test of `@IsIn`, `@IsNotIn` or `@Equals` on a class-validator value, for an enum that states it. */
function enumTest(m: ValidationMetadata): ((v: unknown) => boolean) | undefined {
  const c = m.constraints ?? [];
  if (m.name === 'isIn' && someOf(c)) return (v) => c[0].includes(v);
  if (m.name === 'isNotIn' && someOf(c)) return (v) => !c[0].includes(v);
  if (m.name === 'equals' && isJsonPrimitive(c[0])) return (v) => v === c[0];
  return undefined;
}

/**
 * Whether the type carries this metadata's exact rule, or is an enum whose every value passes it (an enum that
 * `@IsIn`, `@IsNotIn` or `@Equals` narrowed keeps no rule to point at).
 */
function carries(type: TypeNode, m: ValidationMetadata): boolean {
  const t = unwrap(type);
  // Never true after unwrap; tells the type checker that `t` has `rules`.
  if (t.kind === 'nullable') return false;
  if (t.rules?.some((r) => r.origin === m)) return true;
  if (t.kind !== 'enum') return false;
  const test = enumTest(m);
  return test !== undefined && t.values.every(test);
}

function exactRule(make: ExactOf): Rule {
  return {
    list: (_f, into, c, decorator, m) => {
      const rule = make(c);
      if (rule) into.push({ kind: 'rule', rule: rule(m), decorator });
    },
    enforced: (type, _c, _p, m) => carries(type, m),
    each: true,
  };
}

const RULE_TABLE: Readonly<Record<string, Rule>> = {
  ...Object.fromEntries(Object.entries(EXACT).map(([name, make]) => [name, exactRule(make)])),
  isOptional: { list: (facts) => void (facts.optional = true), enforced: always },
  isDefined: { enforced: (type, _c, p) => p.required && type.kind !== 'nullable' },
  min: {
    list: (_f, into, c, decorator) => void into.push({ kind: 'range', min: Number(c[0]), max: Infinity, decorator }),
    enforced: asNumber,
    each: true,
  },
  max: {
    list: (_f, into, c, decorator) => void into.push({ kind: 'range', min: -Infinity, max: Number(c[0]), decorator }),
    enforced: asNumber,
    each: true,
  },
  minLength: {
    list: (_f, into, c, decorator) => void into.push({ kind: 'length', min: Number(c[0]), decorator }),
    enforced: asText,
    each: true,
  },
  maxLength: {
    list: (_f, into, c, decorator) => void into.push({ kind: 'length', max: Number(c[0]), decorator }),
    enforced: asText,
    each: true,
  },
  isLength: {
    list: (_f, into, c) =>
      void into.push({ kind: 'length', min: Number(c[0]), max: c[1] === undefined ? undefined : Number(c[1]), decorator: '@Length' }),
    enforced: asText,
    each: true,
  },
  arrayMinSize: {
    list: (_f, into, c, decorator) => void into.push({ kind: 'length', min: Number(c[0]), decorator }),
    enforced: asArray,
  },
  arrayMaxSize: {
    list: (_f, into, c, decorator) => void into.push({ kind: 'length', max: Number(c[0]), decorator }),
    enforced: asArray,
  },
  matches: {
    list: (_f, into, c, decorator) =>
      void into.push({
        kind: 'pattern',
        pattern: c[0] instanceof RegExp ? c[0].source : String(c[0]),
        flags: c[0] instanceof RegExp ? c[0].flags : String(c[1] ?? ''),
        decorator,
      }),
    enforced: (type, c) => asText(type) && plainRegex(c) && unicodeRegex(c),
    each: true,
  },
  // class-validator's email and URL rules are stricter than the `email` and `uri` formats: they run too.
  isEmail: {
    list: (_f, into, _c, decorator) => void into.push({ kind: 'format', format: 'email', decorator }),
    enforced: never,
    each: true,
  },
  isUrl: { list: (_f, into, _c, decorator) => void into.push({ kind: 'format', format: 'uri', decorator }), enforced: never, each: true },
  isUuid: {
    list: (facts) => void (facts.hint = Uuid),
    enforced: (type, c) => kind('string')(type) && (c[0] === undefined || c[0] === 'all'),
    each: true,
  },
  // class-validator's integers are any safe integer: the Int64 range.
  isInt: { list: (facts) => void (facts.hint = Int64), enforced: (type) => unwrap(type).kind === 'integer' && !isBigint(type), each: true },
  isEnum: { list: (facts, _into, c) => void (facts.hint = c[0] as TypeHint), enforced: kind('enum'), each: true },
  // `@ArrayUnique(selector)` keeps its selector in a closure, not in the metadata: reading cannot see it, so
  // class-validator always runs (without a selector it compares by reference and never refuses more than reading).
  arrayUnique: { list: (facts) => void (facts.uniqueItems = true), enforced: never },
  isString: { enforced: (type) => isText(type), each: true },
  isBoolean: { enforced: kind('boolean'), each: true },
  isNumber: {
    enforced: (type, c) =>
      kind('number', 'integer')(type) && !isBigint(type) && (c[0] === undefined || Object.keys(c[0] as object).length === 0),
    each: true,
  },
  isDate: {
    enforced: (type) => {
      const t = unwrap(type);
      return t.kind === 'string' && t.as === 'date';
    },
    each: true,
  },
  isArray: { list: (facts) => void (facts.array = true), enforced: asArray },
  isObject: {
    list: (facts) => void (facts.evidence ??= JsonObject),
    enforced: (type) => {
      const t = unwrap(type);
      return t.kind === 'record' || t.kind === 'discriminated' || t.kind === 'dictionary' || (t.kind === 'json' && t.shape === 'object');
    },
  },
};

/**
 * The rules by class-validator rule name, in a Map: a custom decorator may be named `constructor` or `toString`,
 * which an object would answer with what its prototype holds.
 */
const RULES: ReadonlyMap<string, Rule> = new Map(Object.entries(RULE_TABLE));

function isBigint(type: TypeNode): boolean {
  const t = unwrap(type);
  return t.kind === 'integer' && t.bigint;
}

function isText(type: TypeNode): boolean {
  const t = unwrap(type);
  return (t.kind === 'string' && t.as === 'string') || (t.kind === 'enum' && t.values.every((v) => typeof v === 'string'));
}

/** The type a type rule states (of the elements with `{ each: true }`), where TypeScript erased it. */
const ELEMENT: ReadonlyMap<string, TypeHint> = new Map(
  Object.entries({ isString: String, isNumber: Number, isInt: Int64, isBoolean: Boolean, isDate: Date }),
);

/**
 * What a rule says about the type of its property (or its elements, with `each`), as weak evidence: used
 * where TypeScript erased the declared type. None under `@ValidateIf`, whose rules hold only sometimes.
 */
function typeEvidence(facts: ValidatorIntent, m: ValidationMetadata): void {
  const c = m.constraints ?? [];
  if (m.type === 'nestedValidation' && m.each) facts.nestedEach = true;
  if (facts.conditional || (m.groups?.length && !m.always)) return;
  if (m.name !== undefined) facts.evidence ??= ELEMENT.get(m.name);
  if (m.name === 'isIn' && someOf(c) && c[0].every((v) => typeof v === 'string'))
    facts.evidence ??= StringLiterals(...new Set(c[0] as string[]));
}

/**
 * A custom constraint's `@ConstraintSchema`: listed for the model, never enforced by reading (class-validator
 * runs the constraint), so its origin is the constraint class, not the metadata reading would skip.
 */
function spokenConstraint(m: ValidationMetadata): SchemaConstraint | undefined {
  if (m.type !== 'customValidation' || typeof m.constraintCls !== 'function') return undefined;
  const spoken = constraintSchemaOf(m.constraintCls);
  if (!spoken) return undefined;
  const keywords = { ...spoken.schema, ...(spoken.description === undefined ? {} : { description: spoken.description }) };
  const rule: ExactRule = {
    origin: m.constraintCls,
    keywords,
    test: always,
    expected: '',
    fits: always,
    problem: () => fragmentProblem(keywords),
  };
  return { kind: 'rule', rule, decorator: `@ConstraintSchema of ${m.constraintCls.name}` };
}

/**
 * The facts of one property's class-validator rules. Rules with groups (and not `always`) are not listed: a
 * listing holds for every caller, and a user who validates by group elsewhere may not mean them for every one
 * (reading runs class-validator without groups, so they are still checked). Under `@ValidateIf` none is: they
 * hold only when its condition does.
 */
export function validatorIntent(metadata: readonly ValidationMetadata[]): ValidatorIntent {
  const conditional = metadata.some((m) => m.type === 'conditionalValidation' && m.name !== 'isOptional');
  const facts: ValidatorIntent = {
    constraints: [],
    eachConstraints: [],
    optional: false,
    array: false,
    nestedEach: false,
    conditional,
    uniqueItems: false,
  };
  for (const m of metadata) typeEvidence(facts, m);
  for (const m of metadata) {
    const spoken = spokenConstraint(m);
    if (spoken) (m.each ? facts.eachConstraints : facts.constraints).push(spoken);
    const rule = m.name === undefined ? undefined : RULES.get(m.name);
    if (!rule?.list || (m.name !== 'isOptional' && (facts.conditional || (m.groups?.length && !m.always)))) continue;
    const decorator = `@${m.name![0].toUpperCase()}${m.name!.slice(1)}`;
    rule.list(facts, m.each ? facts.eachConstraints : facts.constraints, m.constraints ?? [], decorator, m);
  }
  return facts;
}

/**
 * Whether reading a property of this model already checks everything rule `m` checks. `ValidateNested`
 * is: nested records are read (and validated) by their own readers. Nothing under `@ValidateIf`
 * (`conditional`) is: class-validator decides when its rules apply.
 */
export function enforcedByReading(m: ValidationMetadata, property: PropertyModel | undefined, conditional: boolean): boolean {
  if (m.type === 'nestedValidation') return true;
  if (!property || conditional || m.groups?.length || m.always || m.name === undefined) return false;
  const rule = RULES.get(m.name);
  if (!rule) return false;
  if (m.each) {
    const t = unwrap(property.type);
    return rule.each === true && t.kind === 'array' && rule.enforced(t.items, m.constraints ?? [], property, m);
  }
  return rule.enforced(property.type, m.constraints ?? [], property, m);
}
