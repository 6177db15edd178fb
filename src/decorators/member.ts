import { addMember, type MemberIntent, type MemberRecord } from './metadata';

/** The decorator signature shared by `@Tool`, `@Resource` and `@Prompt`: accepts any member, diagnosed later. */
export type MemberDecorator = (target: object, key: string | symbol, descriptor?: PropertyDescriptor) => void;

function shapeOf(target: object, descriptor: PropertyDescriptor | undefined): MemberRecord['shape'] {
  if (typeof target === 'function') return 'static';
  if (!descriptor) return 'field';
  if (descriptor.get || descriptor.set) return 'accessor';
  return typeof descriptor.value === 'function' ? 'method' : 'field';
}

/** Refuses `@Tool` written without parentheses, which hands the decorator a prototype as its options. */
export function refuseBareUse(decorator: string, first: unknown, second: unknown): void {
  if (typeof first === 'object' && first !== null && (typeof second === 'string' || typeof second === 'symbol')) {
    throw new TypeError(`@${decorator} is a decorator factory. Did you forget to call it? Use @${decorator}() instead of @${decorator}.`);
  }
}

/** The decorator that records `intent`; its options must be the decorator's own copy (they are frozen). */
export function memberDecorator(intent: MemberIntent): MemberDecorator {
  Object.freeze(intent.options);
  return (target, key, descriptor) => addMember(target, { ...intent, key, shape: shapeOf(target, descriptor) });
}

export function checkString(decorator: string, option: string, value: unknown): void {
  if (value !== undefined && typeof value !== 'string') {
    throw new TypeError(`@${decorator}(): '${option}' must be a string, got ${typeof value}.`);
  }
}

export function checkBoolean(decorator: string, option: string, value: unknown): void {
  if (value !== undefined && typeof value !== 'boolean') {
    throw new TypeError(`@${decorator}(): '${option}' must be true or false, got ${typeof value}.`);
  }
}
