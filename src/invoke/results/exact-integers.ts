import { OneModelContextError } from '../../errors';
import { formatPath } from '../reading/failure';
import { isObjectLike } from '../../objects';

/**
 * Bigints in results. JSON numbers are IEEE doubles for most clients (JavaScript, Python's json with
 * floats, jq ...), so a whole number beyond ±(2^53 − 1) cannot be sent as a number that every client reads
 * back exactly: `Number(2n ** 53n + 1n)` is 9007199254740992. A bigint is written as a number only where
 * that number is exact; any other bigint is refused with its path, never rounded (the reader refuses the
 * same values as arguments: bigint parameters have the safe range).
 */

const MAX = BigInt(Number.MAX_SAFE_INTEGER);

/** The exact JSON number of a bigint, or the bigint itself when no JSON number is exact. */
export function exactNumber(v: bigint): number | bigint {
  return v >= -MAX && v <= MAX ? Number(v) : v;
}

/** `true` when `v` is a bigint that cannot be written as an exact JSON number. */
function inexact(v: unknown): boolean {
  return typeof v === 'bigint' && (v > MAX || v < -MAX);
}

/**
 * `value` with every bigint inside plain objects and arrays written as its exact number (a JSON value a
 * method built by hand); bigints without one stay, to be refused. The same object when nothing changed.
 */
export function jsonWithExactNumbers(value: unknown, ancestors: Set<object> = new Set()): unknown {
  if (typeof value === 'bigint') return exactNumber(value);
  if (!isObjectLike(value) || ancestors.has(value)) return value;
  ancestors.add(value);
  const out = Array.isArray(value)
    ? arrayWithExactNumbers(value, ancestors)
    : objectWithExactNumbers(value as Record<string, unknown>, ancestors);
  ancestors.delete(value);
  return out;
}

function arrayWithExactNumbers(value: unknown[], ancestors: Set<object>): unknown[] {
  let out: unknown[] | undefined;
  for (let i = 0; i < value.length; i++) {
    const x = jsonWithExactNumbers(value[i], ancestors);
    if (x !== value[i]) (out ??= value.slice())[i] = x;
  }
  return out ?? value;
}

function objectWithExactNumbers(value: Record<string, unknown>, ancestors: Set<object>): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const k of Object.keys(value)) {
    const x = jsonWithExactNumbers(value[k], ancestors);
    if (x !== value[k]) (out ??= { ...value })[k] = x;
  }
  return out ?? value;
}

type Steps = (string | number)[];

/** The entries JSON text would hold of a value: `Map` keys as strings, `Set` members as indices. */
function entriesOf(value: object): Iterable<readonly [string | number, unknown]> {
  if (value instanceof Map) return [...value].map(([k, v]) => [String(k), v] as const);
  if (value instanceof Set) return [...value].map((v, i) => [i, v] as const);
  if (Array.isArray(value)) return value.map((v, i) => [i, v] as const);
  return Object.keys(value).map((k) => [k, (value as Record<string, unknown>)[k]] as const);
}

/**
 * Where the first bigint without an exact JSON number sits in `value`, as a failure path holds its steps
 * (innermost first), or `undefined`. Only walked once writing a result has already failed.
 */
export function inexactIntegerSteps(value: unknown, ancestors: Set<object> = new Set()): Steps | undefined {
  if (inexact(value)) return [];
  if (!isObjectLike(value) || ancestors.has(value)) return undefined;
  ancestors.add(value);
  try {
    for (const [key, x] of entriesOf(value)) {
      const steps = inexactIntegerSteps(x, ancestors);
      if (steps) return [...steps, key];
    }
    return undefined;
  } finally {
    ancestors.delete(value);
  }
}

/**
 * A result holding a bigint that no JSON number carries exactly. The client gets an `isError` result
 * naming the path (no value, no internals); the developer gets this message in the log.
 */
export class InexactIntegerError extends OneModelContextError {
  readonly code = 'RESULT_INEXACT';
  /** `'(result)'` for the whole result, else the path inside it, such as `totals[2].grams`. */
  readonly path: string;

  constructor(
    readonly tool: string,
    steps: readonly (string | number)[],
  ) {
    const path = formatPath(steps) || '(result)';
    super(
      `The result of ${tool} holds a bigint at '${path}' beyond ±${Number.MAX_SAFE_INTEGER}, which no JSON number carries exactly: ` +
        'declare that value a string to send its digits, or keep it in the safe range.',
    );
    this.path = path;
  }

  /** What the client is told. */
  get answer(): string {
    const where = this.path === '(result)' ? 'The result' : `The result at '${this.path}'`;
    return `${where} is a whole number beyond ±${Number.MAX_SAFE_INTEGER}, which a JSON number cannot carry exactly; it was not sent.`;
  }
}
