import { unwrap, type SlotModel, type ToolModel, type TypeNode } from '../../schema/model';
import { isObjectLike, isPlainObject } from '../../objects';
import { liftedParamsOf } from '../../schema/profiles';

/**
 * Reading under `'openai-strict'`: its listing requires every property and lists an optional one as nullable, so a
 * `null` there means absent. This drops each such `null` (of a parameter or record property that may be left out
 * and does not admit `null` itself) before the usual reading; a `null` where the type admits it stays `null`.
 * Copies only what changes; anything it does not understand is left for the reader to refuse.
 */
export function absentNulls(tool: ToolModel, args: unknown): unknown {
  if (tool.rawInput || !isPlainObject(args)) return args;
  // A Standard Schema input is listed by its restated properties (profiles/index.ts); so is its `null` read.
  if (tool.standardInput) {
    const params = liftedParamsOf(tool.standardInput);
    return params ? slots(params, args) : args;
  }
  return slots(tool.params, args);
}

/** Whether a slot's type admits `null` itself (a Standard Schema's as restated for the profiles). */
function admitsNull(type: TypeNode): boolean {
  if (type.kind === 'standard') return !('problem' in type.lifted) && admitsNull(type.lifted);
  return type.kind === 'nullable';
}

function slots(list: readonly SlotModel[], value: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  let out: Record<string, unknown> | undefined;
  for (const slot of list) {
    if (!Object.hasOwn(value, slot.name)) continue;
    const v = value[slot.name];
    if (v === null && !slot.required && !admitsNull(slot.type)) {
      out ??= copy(value);
      delete out[slot.name];
      continue;
    }
    const read = node(slot.type, v);
    if (read !== v) {
      out ??= copy(value);
      out[slot.name] = read;
    }
  }
  return out ?? value;
}

function copy(value: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value)) {
    if (k === '__proto__') Object.defineProperty(out, k, { value: value[k], enumerable: true, writable: true, configurable: true });
    else out[k] = value[k];
  }
  return out;
}

function node(type: TypeNode, value: unknown): unknown {
  if (!isObjectLike(value)) return value;
  const bare = unwrap(type);
  if (bare.kind === 'standard') return 'problem' in bare.lifted ? value : node(bare.lifted, value);
  switch (bare.kind) {
    case 'record':
      return isPlainObject(value) ? slots(bare.properties, value) : value;
    case 'discriminated': {
      if (!isPlainObject(value)) return value;
      const sub = bare.subtypes.find((s) => s.name === value[bare.property]);
      return sub ? slots(sub.record.properties, value) : value;
    }
    case 'array': {
      if (!Array.isArray(value)) return value;
      let out: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const read = node(bare.items, value[i]);
        if (read !== value[i]) (out ??= [...value])[i] = read;
      }
      return out ?? value;
    }
    default:
      return value;
  }
}
