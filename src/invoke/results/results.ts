import { isObject, isObjectLike } from '../../objects';
import { OneModelContextError } from '../../errors';
import { transformsOf } from '../../decorators/foreign';
import { perNode } from '../../schema/resolve/memo';
import { isStructuredStandard } from '../../schema/write';
import { unwrap, type RecordNode, type ResultModel, type TypeNode } from '../../schema/model';
import { INVALID, formatPath, newFailure } from '../reading/failure';
import { InexactIntegerError, exactNumber, inexactIntegerSteps, jsonWithExactNumbers } from './exact-integers';
import { msToTimeSpan } from '../reading/formats';
import { readerOf } from '../reading/reader';

/** A `CallToolResult` as sent. */
export interface CallToolResult {
  readonly content: readonly Readonly<Record<string, unknown>>[];
  readonly structuredContent?: Readonly<Record<string, unknown>>;
  readonly isError?: boolean;
  readonly [key: string]: unknown;
}

/** Thrown when a result does not match its own output schema: a tool failure, masked and published. */
export class ResultMismatchError extends OneModelContextError {
  readonly code = 'RESULT_MISMATCH';

  constructor(
    readonly tool: string,
    readonly path: string,
    expected: string,
  ) {
    super(`The result of ${tool} does not match its output schema at '${path}': ${expected}`);
  }
}

type Writer = (value: unknown) => unknown;

export function textResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }] };
}

export function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

function bytesToBase64(v: unknown): unknown {
  return v instanceof Uint8Array ? Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64') : v;
}

/** Turns what a method returned into the JSON its schema describes (enums in their listed form, ISO dates ...). */
export const writerOf: (node: TypeNode) => Writer = perNode((node: TypeNode) => compileWriter(node));

function compileWriter(node: TypeNode): Writer {
  switch (node.kind) {
    case 'integer':
    case 'number':
      return (v) => (typeof v === 'bigint' ? exactNumber(v) : v);
    case 'string':
      if (node.as === 'date') return (v) => (v instanceof Date ? (Number.isNaN(v.getTime()) ? v : v.toISOString()) : v);
      if (node.as === 'url') return (v) => (v instanceof URL ? v.href : v);
      if (node.as === 'timespan') return (v) => (typeof v === 'number' && Number.isFinite(v) ? msToTimeSpan(v) : v);
      // A bigint declared as text is written as its digits, exact at any size.
      return (v) => (typeof v === 'bigint' ? String(v) : v);
    case 'bytes':
      return bytesToBase64;
    case 'enum': {
      const listed = new Map(node.values.map((value, i) => [value, node.listed[i]] as const));
      return (v) => listed.get(v as string | number) ?? v;
    }
    case 'nullable': {
      const inner = writerOf(node.inner);
      return (v) => (v === null ? null : inner(v));
    }
    case 'array': {
      const item = writerOf(node.items);
      return (v) => (v instanceof Set ? [...v].map(item) : Array.isArray(v) ? v.map(item) : v);
    }
    case 'dictionary': {
      const value = writerOf(node.values);
      return (v) => {
        if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [k, value(x)]));
        if (!isObjectLike(v)) return v;
        return Object.fromEntries(Object.keys(v).map((k) => [k, value((v as Record<string, unknown>)[k])]));
      };
    }
    case 'record':
      return recordWriter(node);
    case 'discriminated':
      return discriminatedWriter(node);
    case 'json':
      return (v) => jsonWithExactNumbers(v);
    default:
      return (v) => v;
  }
}

/** A record written as class-transformer writes it to plain: renames, exclusions and `toPlain` transforms. */
function recordWriter(node: RecordNode): Writer {
  const steps = node.properties.map((p) => ({
    name: p.name,
    key: p.key,
    write: writerOf(p.type),
    transforms: transformsOf(node.ctor, p.key, 'output'),
  }));
  return (v) => {
    if (!isObjectLike(v)) return v;
    const source = v as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const step of steps) {
      let x = source[step.key];
      for (const transform of step.transforms) x = transform(x, source);
      if (x !== undefined) out[step.name] = step.write(x);
    }
    return out;
  };
}

/**
 * A subtype written as class-transformer writes it to plain: the subtype whose class the value is, with
 * its name as the discriminator; a plain object is written as the subtype its discriminator names.
 */
function discriminatedWriter(node: Extract<TypeNode, { kind: 'discriminated' }>): Writer {
  const { property } = node;
  const subtypes = node.subtypes.map((s) => ({ name: s.name, ctor: s.record.ctor, write: writerOf(s.record) }));
  return (v) => {
    if (!isObject(v)) return v;
    const tag = (v as Record<string, unknown>)[property];
    const subtype =
      subtypes.find((s) => s.ctor === v.constructor) ?? (v.constructor === Object ? subtypes.find((s) => s.name === tag) : undefined);
    if (!subtype) return v;
    const out: Record<string, unknown> = { [property]: subtype.name };
    Object.assign(out, subtype.write(v));
    out[property] = subtype.name;
    return out;
  };
}

const CONTENT_TYPES = new Set(['text', 'image', 'audio', 'resource_link', 'resource']);

function isContentBlock(v: unknown): v is Record<string, unknown> {
  return isObject(v) && CONTENT_TYPES.has((v as { type?: unknown }).type as string);
}

function isCallToolResult(v: unknown): v is CallToolResult {
  return isObject(v) && Array.isArray(v.content) && !('type' in v);
}

/**
 * JSON text of a value not described by a model: `Map`, `Set`, `bigint` and bytes made JSON. A bigint
 * without an exact JSON number is left one, so that stringify throws and the result is refused.
 */
function looseJson(value: unknown, tool: string): string {
  return (
    jsonText(value, tool, (_k, v) => {
      if (typeof v === 'bigint') return exactNumber(v);
      if (v instanceof Map) return Object.fromEntries(v);
      if (v instanceof Set) return [...v];
      if (v instanceof Uint8Array) return bytesToBase64(v);
      return v;
    }) ?? 'null'
  );
}

/** `JSON.stringify`, except that a bigint it could not write is refused with its path. */
function jsonText(value: unknown, tool: string, replacer?: (key: string, v: unknown) => unknown): string {
  try {
    return JSON.stringify(value, replacer);
  } catch (error) {
    throw inexactOr(error, value, tool);
  }
}

/** An `InexactIntegerError` when `value` holds a bigint with no exact JSON number, else `error`. */
function inexactOr(error: unknown, value: unknown, tool: string): unknown {
  const steps = inexactIntegerSteps(value);
  return steps ? new InexactIntegerError(tool, steps) : error;
}

/** A result whose type is only known at run time (undeclared async and `Object` results). */
function autoResult(value: unknown, tool: string): CallToolResult {
  if (value === undefined) return { content: [] };
  if (typeof value === 'string') return textResult(value);
  if (isCallToolResult(value)) return value;
  if (isContentBlock(value)) return { content: [value] };
  if (Array.isArray(value) && value.length > 0 && value.every(isContentBlock)) return { content: value };
  return textResult(looseJson(value, tool));
}

/**
 * Writes results of one tool; built once per tool. An error result (`isError: true`) is sent as it is
 * whatever the declared type, so that a hook or a Nest exception filter can answer any tool with one.
 */
export function resultWriter(result: ResultModel, tool: string): (value: unknown) => CallToolResult {
  const write = declaredWriter(result, tool);
  return result.kind === 'auto' ? write : (v) => (isCallToolResult(v) && v.isError === true ? v : write(v));
}

function declaredWriter(result: ResultModel, tool: string): (value: unknown) => CallToolResult {
  if (result.kind === 'void') return () => ({ content: [] });
  if (result.kind === 'auto') return (v) => autoResult(v, tool);
  const type = result.type;
  const bare = unwrap(type);
  if (bare.kind === 'string' && bare.as === 'string' && bare.format === undefined && bare.minLength === undefined) {
    return (v) => textResult(v === null || v === undefined ? 'null' : String(v));
  }
  if (bare.kind === 'enum') {
    const write = writerOf(type);
    return (v) => textResult(v === null || v === undefined ? 'null' : String(write(v)));
  }
  const write = writerOf(type);
  const check = readerOf(type, 'check');
  const structured = bare.kind === 'record' || bare.kind === 'dictionary' || (bare.kind === 'standard' && isStructuredStandard(bare));
  return (v) => {
    if ((v === undefined || v === null) && type.kind === 'nullable') return textResult('null');
    const json = write(v);
    const f = newFailure();
    if (check(json, f) === INVALID)
      throw inexactOr(new ResultMismatchError(tool, formatPath(f.path) || '(result)', f.expected), json, tool);
    const text = jsonText(json, tool);
    return structured ? { content: [{ type: 'text', text }], structuredContent: json as Record<string, unknown> } : textResult(text);
  };
}
