import { INVALID, fail, park, restore, step as stepOut, type Failure, type OneFailure } from './failure';
import type { UnknownProperties } from '../../schema/records/validation-options';
import { isObject } from '../../objects';

/**
 * Reading one record, in two interchangeable forms built from the same plan: a generated function (fast)
 * and an interpreted loop (for runtimes that forbid code generation). A test holds the two to the same
 * answers on every input.
 */

/** Reads one value (a property's own reader). */
export type Reader = (value: unknown, f: Failure) => unknown;

/** One property of a record, as reading needs it. */
export interface PropertyStep {
  /** The wire name. */
  readonly name: string;
  /** The property on the instance. */
  readonly key: string;
  readonly read: Reader;
  readonly required: boolean;
  /** A fresh default for an omitted property, when one is known. */
  readonly fallback?: () => unknown;
  /** class-transformer `@Transform`s (plain to class), in order. */
  readonly transforms: readonly ((value: unknown, obj: object) => unknown)[];
  /** Read and counted, not set on the instance (a discriminator class-transformer removes). */
  readonly dropped?: boolean;
  /** The text when a required property is missing (`It is required.` when not given). */
  readonly missing?: () => string;
}

/** Everything a record reader does, as data: what the generated source and the interpreter both run. */
export interface RecordPlan {
  readonly steps: readonly PropertyStep[];
  /** A new instance (or a plain object when only checking). */
  readonly construct: () => Record<string, unknown>;
  /** What becomes of a property the record does not know: refused (closed), stripped or kept as sent. */
  readonly unknown: UnknownProperties;
  /**
   * class-validator on the built instance, when the class has rules reading does not enforce: each failing
   * rule, by wire name (`skip`: properties reading refused already).
   */
  readonly validate?: (out: Record<string, unknown>, skip?: ReadonlySet<string>) => readonly OneFailure[];
  /** The refusal of a value that is no object (`Expected an object, got ...` when not given). */
  readonly notObject?: (v: unknown, f: Failure) => typeof INVALID;
}

/** What the generated source reaches through `plan`: the plan and its collecting reader. */
interface CompiledPlan extends RecordPlan {
  /** Reads the record again after a first failure, collecting every failure (the slow path only). */
  readonly collect: (v: Record<string, unknown>, f: Failure) => typeof INVALID;
}

const hasOwn = Object.prototype.hasOwnProperty;

/** `null`, `an array`, `an object`, `a string` ...: what arrived, for error messages. */
export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return isObject(value) ? 'an object' : `a ${typeof value}`;
}

function notObject(v: unknown, f: Failure): typeof INVALID {
  return fail(f, `Expected an object, got ${typeName(v)}.`);
}

/** A name `Object.prototype` also has (constructor, toString, __proto__ ...) counts only when it is own. */
function inherited(name: string): boolean {
  return name in Object.prototype;
}

/** The own, defined keys of `v` that are not properties of the record, in order. */
function unknownKeys(v: Record<string, unknown>, steps: readonly { readonly name: string }[]): string[] {
  const known = new Set(steps.map((s) => s.name));
  const keys: string[] = [];
  for (const k in v) if (hasOwn.call(v, k) && v[k] !== undefined && !known.has(k)) keys.push(k);
  return keys;
}

/** Without `whitelist`, unknown properties reach the instance as sent, as class-transformer copies them. */
function keepUnknown(v: Record<string, unknown>, out: Record<string, unknown>, steps: readonly { readonly name: string }[]): void {
  for (const k of unknownKeys(v, steps))
    Object.defineProperty(out, k, { value: v[k], enumerable: true, writable: true, configurable: true });
}

/**
 * The slow path, after a first failure: the record read again, every property, every unknown property and
 * every rule left to class-validator reported, in property order.
 */
function collectingReader(plan: RecordPlan): CompiledPlan['collect'] {
  const { steps, construct, validate } = plan;
  const order = new Map(steps.map((s, i) => [s.name, i]));
  return (v, f) => {
    park(f);
    const out = construct();
    const found: { at: number; failure: OneFailure }[] = [];
    const refused = new Set<string>();
    for (let i = 0; i < steps.length; i++) {
      const s = steps[i];
      let x = inherited(s.name) && !hasOwn.call(v, s.name) ? undefined : v[s.name];
      if (x !== undefined) {
        x = s.read(x, f);
        if (x === INVALID) {
          stepOut(f, s.name);
          for (const failure of park(f)) found.push({ at: i, failure });
          refused.add(s.key);
          continue;
        }
        for (const transform of s.transforms) x = transform(x, v);
        out[s.key] = x;
      } else if (s.required) {
        found.push({ at: i, failure: { path: [s.name], expected: s.missing ? s.missing() : 'It is required.' } });
        refused.add(s.key);
      } else if (s.fallback) {
        out[s.key] = s.fallback();
      }
    }
    if (plan.unknown === 'refuse') {
      for (const k of unknownKeys(v, steps))
        found.push({ at: steps.length, failure: { path: [k], expected: 'There is no such property.' } });
    }
    if (validate) {
      for (const failure of validate(out, refused))
        found.push({ at: order.get(failure.path[failure.path.length - 1] as string) ?? steps.length, failure });
    }
    // Stable: within a property, reading's failures, then class-validator's.
    found.sort((a, b) => a.at - b.at);
    return (
      restore(
        f,
        found.map((x) => x.failure),
      ) ?? INVALID
    );
  };
}

/** The instance, or the collected failures of class-validator's rules. */
function validated(plan: CompiledPlan, v: Record<string, unknown>, out: Record<string, unknown>, f: Failure): unknown {
  const failures = plan.validate!(out);
  return failures.length === 0 ? out : plan.collect(v, f);
}

/** Whether every own, defined key of `v` was matched: unknown properties are refused (the object is closed). */
function onlyKnown(v: Record<string, unknown>, matched: number): boolean {
  let total = 0;
  for (const _ in v) total++;
  if (total === matched) return true;
  total = 0;
  for (const k in v) if (hasOwn.call(v, k) && v[k] !== undefined) total++;
  return total === matched;
}

/**
 * The body of a generated record reader, as text: pure and printable (tests and curious readers can look
 * at it). Only wire and property names are embedded, each as a JSON string literal (so no name can close
 * the literal or inject code); everything else (readers, transforms, defaults, the constructor) is
 * reached through the `plan` argument by index, never written into the source.
 */
export function recordReaderSource(plan: Pick<RecordPlan, 'steps' | 'validate' | 'unknown'>): string {
  const lines = [
    'if (typeof v !== "object" || v === null || Array.isArray(v)) return notObject(v, f);',
    'const out = plan.construct();',
    'let matched = 0, x;',
  ];
  plan.steps.forEach((step, i) => {
    const name = JSON.stringify(step.name);
    const key = JSON.stringify(step.key);
    const transforms = step.transforms.map((_, t) => ` x = plan.steps[${i}].transforms[${t}](x, v);`).join('');
    const missing = step.required
      ? ` else { return plan.collect(v, f); }`
      : step.fallback
        ? ` else { out[${key}] = plan.steps[${i}].fallback(); }`
        : '';
    lines.push(
      inherited(step.name) ? `x = hasOwn.call(v, ${name}) ? v[${name}] : undefined;` : `x = v[${name}];`,
      `if (x !== undefined) { matched++; x = plan.steps[${i}].read(x, f); if (x === INVALID) return plan.collect(v, f);${transforms}${step.dropped ? '' : ` out[${key}] = x;`} }${missing}`,
    );
  });
  if (plan.unknown === 'refuse') lines.push('if (!onlyKnown(v, matched)) return plan.collect(v, f);');
  if (plan.unknown === 'keep') lines.push('if (!onlyKnown(v, matched)) keepUnknown(v, out, plan.steps);');
  lines.push(plan.validate ? 'return validated(plan, v, out, f);' : 'return out;');
  return lines.join('\n');
}

/**
 * Why generate code: a record's reader is the hot path of most tools, and a straight-line function with
 * the property names as literals keeps every property access monomorphic; the interpreted loop below
 * costs a few times more (`npm run bench` prints both). Runtimes that forbid code generation
 * (`--disallow-code-generation-from-strings`, a strict CSP, Cloudflare Workers) make `new Function` throw
 * an `EvalError`; the first such refusal switches every later record to the interpreted reader.
 */
let generation: 'unknown' | 'allowed' | 'forbidden' = 'unknown';

function generatedReader(plan: CompiledPlan): Reader | undefined {
  if (generation === 'forbidden') return undefined;
  let factory: Function;
  try {
    factory = new Function(
      'plan',
      'notObject',
      'keepUnknown',
      'onlyKnown',
      'validated',
      'INVALID',
      'hasOwn',
      `return function readRecord(v, f) {\n${recordReaderSource(plan)}\n};`,
    );
  } catch (error) {
    if (!(error instanceof EvalError)) throw error;
    generation = 'forbidden';
    return undefined;
  }
  generation = 'allowed';
  return factory(plan, plan.notObject ?? notObject, keepUnknown, onlyKnown, validated, INVALID, hasOwn) as Reader;
}

/** The same reading as the generated source, one property at a time. */
export function interpretedReader(plan: RecordPlan): Reader {
  return interpreted(compiled(plan));
}

function compiled(plan: RecordPlan): CompiledPlan {
  return { ...plan, collect: collectingReader(plan) };
}

function interpreted(plan: CompiledPlan): Reader {
  const { steps, construct, validate } = plan;
  const refuse = plan.notObject ?? notObject;
  const own = steps.map((s) => inherited(s.name));
  return (v, f) => {
    if (!isObject(v)) return refuse(v, f);
    const source = v as Record<string, unknown>;
    const out = construct();
    let matched = 0;
    for (let i = 0; i < steps.length; i++) {
      const step = steps[i];
      let x = own[i] && !hasOwn.call(source, step.name) ? undefined : source[step.name];
      if (x !== undefined) {
        matched++;
        x = step.read(x, f);
        if (x === INVALID) return plan.collect(source, f);
        for (const transform of step.transforms) x = transform(x, source);
        if (!step.dropped) out[step.key] = x;
      } else if (step.required) {
        return plan.collect(source, f);
      } else if (step.fallback) {
        out[step.key] = step.fallback();
      }
    }
    if (plan.unknown !== 'strip' && !onlyKnown(source, matched)) {
      if (plan.unknown === 'refuse') return plan.collect(source, f);
      keepUnknown(source, out, steps);
    }
    return validate ? validated(plan, source, out, f) : out;
  };
}

/** How record readers are built: `generated` when the runtime allows it, else `interpreted`. */
export type RecordStrategy = 'generated' | 'interpreted';

let forced: RecordStrategy | undefined;

/** For tests and the bench: build every later record reader one way. `undefined` restores detection. */
export function forceRecordStrategy(strategy: RecordStrategy | undefined): void {
  forced = strategy;
}

/** The strategy in use: what was forced, else generated until the runtime refuses code generation. */
export function recordStrategy(): RecordStrategy {
  return forced ?? (generation === 'forbidden' ? 'interpreted' : 'generated');
}

/** The reader of one record plan, generated when the runtime allows it. */
export function recordReaderOf(plan: RecordPlan): Reader {
  const full = compiled(plan);
  if (forced === 'interpreted') return interpreted(full);
  return generatedReader(full) ?? interpreted(full);
}
