/**
 * Readers report the first invalid value without throwing: they return `INVALID` and fill the call's
 * `Failure`, and each container on the way out adds its step to the path. Valid input pays nothing.
 */
export const INVALID: unique symbol = Symbol('invalid');

export interface Failure {
  /** Steps from the innermost value outwards: property names and array indexes. */
  readonly path: (string | number)[];
  expected: string;
  /**
   * Every other invalid value and failing rule found, each with its own path (innermost step first): filled
   * only once a first failure is found, so a valid call never makes it.
   */
  others?: OneFailure[];
}

/** One invalid value or failing rule, as `Failure` holds its first one. */
export interface OneFailure {
  readonly path: (string | number)[];
  readonly expected: string;
}

export function newFailure(): Failure {
  return { path: [], expected: '' };
}

export function fail(f: Failure, expected: string): typeof INVALID {
  f.expected = expected;
  return INVALID;
}

/** Fails with every expectation given, each on its own line: the first as the failure, the rest as others. */
export function failAll(f: Failure, expected: readonly string[]): typeof INVALID {
  f.expected = expected[0];
  if (expected.length > 1) (f.others ??= []).push(...expected.slice(1).map((e) => ({ path: [], expected: e })));
  return INVALID;
}

/** A container's step on the way out, added to the failure and to every other one found inside. */
export function step(f: Failure, s: string | number): typeof INVALID {
  f.path.push(s);
  if (f.others) for (const o of f.others) o.path.push(s);
  return INVALID;
}

/** Takes every failure out of `f` (which is left empty, for the next value to be read with). */
export function park(f: Failure): OneFailure[] {
  const all = [{ path: [...f.path], expected: f.expected }, ...(f.others ?? [])];
  f.path.length = 0;
  f.expected = '';
  f.others = undefined;
  return all;
}

/** Puts collected failures back into `f`: `INVALID` when there are any, else `undefined`. */
export function restore(f: Failure, found: readonly OneFailure[]): typeof INVALID | undefined {
  if (found.length === 0) return undefined;
  f.path.length = 0;
  f.path.push(...found[0].path);
  f.expected = found[0].expected;
  f.others = found.length > 1 ? found.slice(1).map((o) => ({ path: [...o.path], expected: o.expected })) : undefined;
  return INVALID;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const MAX_KEY = 64;

/** `items[2].qty`: the parameter name, `.property`, `[index]`; odd or long keys are quoted and cut. */
export function formatPath(steps: readonly (string | number)[]): string {
  let out = '';
  for (let i = steps.length - 1; i >= 0; i--) {
    const step = steps[i];
    if (typeof step === 'number') out += `[${step}]`;
    else if (out === '' && i === steps.length - 1) out += step.length > MAX_KEY ? `${step.slice(0, MAX_KEY)}…` : step;
    else if (IDENTIFIER.test(step) && step.length <= MAX_KEY) out += `.${step}`;
    else out += `[${JSON.stringify(step.length > MAX_KEY ? `${step.slice(0, MAX_KEY)}…` : step)}]`;
  }
  return out;
}

function argumentLine(path: readonly (string | number)[], expected: string): string {
  return `Argument '${formatPath(path)}' is not valid.${expected ? ` ${expected}` : ''}`;
}

/**
 * The model-visible text of an argument error: the first invalid argument, then every other invalid argument
 * and failing rule, one line each, so that a model can fix all of them in one retry.
 */
export function argumentMessage(f: Failure): string {
  const first = argumentLine(f.path, f.expected);
  if (!f.others?.length) return first;
  const lines = [first];
  for (const o of f.others) {
    const line = argumentLine(o.path, o.expected);
    if (!lines.includes(line)) lines.push(line);
  }
  return lines.join('\n');
}

/**
 * A reader or writer built once per tool. If building it throws, the result throws the same error on
 * every call instead, where the call's own handling masks it (`The tool failed.`, published): nothing is
 * thrown where the tool is registered, and no builder text reaches a client.
 */
export function buildOrDefer<T extends (...args: never[]) => unknown>(build: () => T): T {
  try {
    return build();
  } catch (error) {
    return (() => {
      throw error;
    }) as unknown as T;
  }
}
