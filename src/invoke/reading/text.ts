import { unwrap, type ParamModel, type TypeNode } from '../../schema/model';
import { describe, expectation } from './examples';
import { fail, type Failure, type INVALID } from './failure';
import { argumentsReader, readerOf, type Reader } from './reader';

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
  const bare = unwrap(node);
  const read = readerOf(bare);
  const parse = parserOf(bare);
  if (!parse) return (v, f) => (typeof v === 'string' ? read(v, f) : fail(f, 'Expected text.'));
  const words = bare.kind === 'boolean' ? 'true or false' : describe(bare);
  return (v, f) => {
    if (typeof v !== 'string') return fail(f, 'Expected text.');
    const parsed = parse(v);
    return parsed === undefined ? fail(f, bare.kind === 'boolean' ? `Expected ${words}.` : expectation(words, bare)) : read(parsed, f);
  };
}

/**
 * Reads named text arguments into a method's argument list: the tool argument reader with text readers.
 * Unknown names are ignored, because clients may send more than was listed.
 */
export function textArgumentsReader(
  params: readonly ParamModel[],
  arity: number,
): (args: unknown, f: Failure) => unknown[] | typeof INVALID {
  return argumentsReader(params, arity, { readerOf: textReaderOf, ignoreUnknown: true });
}
