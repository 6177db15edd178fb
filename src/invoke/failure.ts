/**
 * Readers report the first invalid value without throwing: they return `INVALID` and fill the call's
 * `Failure`, and each container on the way out adds its step to the path. Valid input pays nothing.
 */
export const INVALID: unique symbol = Symbol('invalid');

export interface Failure {
  /** Steps from the innermost value outwards: property names and array indexes. */
  readonly path: (string | number)[];
  expected: string;
}

export function newFailure(): Failure {
  return { path: [], expected: '' };
}

export function fail(f: Failure, expected: string): typeof INVALID {
  f.expected = expected;
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

/** The model-visible text of an argument error. */
export function argumentMessage(f: Failure): string {
  return `Argument '${formatPath(f.path)}' is not valid.${f.expected ? ` ${f.expected}` : ''}`;
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
    return ((() => {
      throw error;
    }) as unknown) as T;
  }
}
