import type { ParamModel, TypeNode } from '../schema/model';
import { INVALID, fail, type Failure } from './failure';
import { fallbackOf, readerOf, type Reader } from './reader';

/**
 * Readers for resource template variables and prompt arguments, which arrive as text: the text is parsed
 * into the JSON value the type's schema describes, then read by the same compiled reader as a tool
 * argument, so every check (ranges, formats, enums) is the tool reader's own.
 */

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const INTEGER = /^-?(?:0|[1-9]\d*)$/;

function parserOf(node: TypeNode): ((text: string) => unknown) | undefined {
  switch (node.kind) {
    case 'number':
      return (t) => (NUMBER.test(t) ? Number(t) : undefined);
    case 'integer':
      return (t) => (INTEGER.test(t) ? Number(t) : undefined);
    case 'boolean':
      return (t) => (t === 'true' ? true : t === 'false' ? false : undefined);
    default:
      return undefined;
  }
}

/** The reader of one text value of a text-like type. */
export function textReaderOf(node: TypeNode): Reader {
  const bare = node.kind === 'nullable' ? node.inner : node;
  const read = readerOf(bare);
  const parse = parserOf(bare);
  if (!parse) return (v, f) => (typeof v === 'string' ? read(v, f) : fail(f, 'Expected text.'));
  const expected = bare.kind === 'boolean' ? 'Expected true or false.' : bare.kind === 'integer' ? 'Expected a whole number.' : 'Expected a number.';
  return (v, f) => {
    if (typeof v !== 'string') return fail(f, 'Expected text.');
    const parsed = parse(v);
    return parsed === undefined ? fail(f, expected) : read(parsed, f);
  };
}

/**
 * Reads named text arguments into a method's argument list. Missing optional arguments take their default
 * (or `null` when nullable); unknown names are ignored, because clients may send more than was listed.
 */
export function textArgumentsReader(
  params: readonly ParamModel[],
  arity: number,
): (args: Readonly<Record<string, unknown>> | undefined, f: Failure) => unknown[] | typeof INVALID {
  const steps = params.map((p) => ({
    name: p.name,
    index: p.index,
    read: textReaderOf(p.type),
    required: p.required,
    fallback: fallbackOf(p) ?? (p.type.kind === 'nullable' ? () => null : undefined),
  }));
  return (args, f) => {
    const out = new Array(arity);
    for (const step of steps) {
      const given = args && Object.prototype.hasOwnProperty.call(args, step.name) ? args[step.name] : undefined;
      if (given !== undefined) {
        const x = step.read(given, f);
        if (x === INVALID) {
          f.path.push(step.name);
          return INVALID;
        }
        out[step.index] = x;
      } else if (step.required) {
        f.path.push(step.name);
        return fail(f, 'It is required.');
      } else if (step.fallback) {
        out[step.index] = step.fallback();
      }
    }
    return out;
  };
}
