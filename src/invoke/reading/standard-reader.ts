import type { StandardIssue, StandardResult } from '../../decorators/standard-schema';
import type { JsonSchema, SlotModel, StandardNode } from '../../schema/model';
import { isThenable } from '../../schema/resolve/standard';
import { validatorOf } from '../../schema/resolve/input-schema';
import { INVALID, fail, newFailure, type Failure, type OneFailure } from './failure';
import type { Reader } from './record-reader';
import { isObjectLike } from '../../objects';

/**
 * Reading a Standard Schema node (DESIGN.md section 2): the library's own `~standard.validate` judges the JSON value,
 * and its output value (transforms and defaults applied) is what the method receives. Each issue is one line of the
 * argument error, at its exact path (`items[2].qty`), all of them at once (section 6).
 *
 * `validate` may answer a promise (zod's async refinements): the reader then returns a {@link Pending} in the value's
 * place, and the tool's async checks (async-checks.ts) wait for it after the synchronous reading, putting the output
 * value where the marker stands, or reporting the issues at the path it stands at.
 */

/** At most this many issues of one value are reported, then how many more. */
const MAX_ISSUES = 100;

/** A value whose Standard Schema answered a promise: settled by the tool's async checks before the method runs. */
export class Pending {
  /** The library's answer; a `validate` that throws or rejects settles as `{ thrown }`, the masked tool failure. */
  readonly settled: Promise<StandardResult<unknown> | { readonly thrown: unknown }>;

  constructor(answer: PromiseLike<StandardResult<unknown>>) {
    this.settled = Promise.resolve(answer).then(
      (result) => result,
      (thrown: unknown) => ({ thrown }),
    );
  }
}

/** An issue's path as a failure holds it: innermost step first. */
function stepsOf(issue: StandardIssue): (string | number)[] {
  const path = issue.path ?? [];
  const out: (string | number)[] = [];
  for (let i = path.length - 1; i >= 0; i--) {
    const segment = path[i];
    const key = isObjectLike(segment) ? (segment as { key: PropertyKey }).key : segment;
    out.push(typeof key === 'number' ? key : String(key));
  }
  return out;
}

function sentence(message: unknown): string {
  const text = typeof message === 'string' && message.trim() !== '' ? message.trim() : 'It does not match its schema';
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** The issues of one value as failures, innermost step first, relative to the value. */
export function issueFailures(issues: readonly StandardIssue[]): OneFailure[] {
  const shown = issues.length > MAX_ISSUES ? issues.slice(0, MAX_ISSUES) : issues;
  const out: OneFailure[] = shown.map((issue) => ({ path: stepsOf(issue), expected: sentence(issue?.message) }));
  if (out.length === 0) out.push({ path: [], expected: 'It does not match its schema.' });
  if (issues.length > MAX_ISSUES) out.push({ path: [], expected: `${issues.length - MAX_ISSUES} more problems are not listed.` });
  return out;
}

/** Fills `f` with the issues: the first as the failure, the rest as others (each container adds its step). */
function failWith(f: Failure, issues: readonly StandardIssue[]): typeof INVALID {
  const [first, ...rest] = issueFailures(issues);
  f.path.push(...first.path);
  f.expected = first.expected;
  if (rest.length > 0) (f.others ??= []).push(...rest);
  return INVALID;
}

/** Reads one value with the library's `validate`: its output value, a {@link Pending}, or `INVALID`. */
export function standardRead(node: StandardNode, v: unknown, f: Failure): unknown {
  const answer = node.schema['~standard'].validate(v);
  if (isThenable(answer)) return new Pending(answer as PromiseLike<StandardResult<unknown>>);
  return answer.issues ? failWith(f, answer.issues) : answer.value;
}

/**
 * The reader of a Standard Schema node. `check` (a result against its `outputSchema`) judges the JSON written by the
 * output JSON Schema the library gives, which is what is listed (a validator never sees the output type otherwise).
 */
export function standardReader(node: StandardNode, mode: 'read' | 'lenient' | 'check'): Reader {
  if (mode !== 'check') return (v, f) => standardRead(node, v, f);
  if ('problem' in node.output) return (v) => v;
  let validate: (value: unknown) => boolean;
  try {
    validate = validatorOf(node.output as JsonSchema);
  } catch (error) {
    // Where code generation is forbidden Ajv compiles nothing: the result is sent unchecked, as the library made it.
    if (error instanceof EvalError) return (v) => v;
    throw error;
  }
  return (v, f) => (validate(v) ? v : fail(f, 'It does not match the output schema.'));
}

/**
 * A slot's value when its argument or property is missing: a fresh copy of its default for each call, so one call cannot
 * change another's (reader.ts); or, without one, what a Standard Schema that accepts `undefined` makes of it.
 */
export function fallbackOf(slot: SlotModel): (() => unknown) | undefined {
  if (!slot.default) {
    // A Standard Schema that accepts `undefined` gives its own value for a missing one (`.default(3)`).
    const type = slot.type;
    if (type.kind !== 'standard' || !type.absent) return undefined;
    return () => {
      const value = standardRead(type, undefined, newFailure());
      return value === INVALID ? undefined : value;
    };
  }
  const value = slot.default.value;
  if (!isObjectLike(value)) return () => value;
  return () => structuredClone(value);
}
