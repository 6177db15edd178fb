import { deepFreeze, isObject, isObjectLike, isPlainObject, ownKeysAre } from '../src/objects';

describe('isObjectLike', () => {
  it('accepts objects and arrays alike', () => {
    for (const value of [{}, { a: 1 }, [], [1, 2], new Date(0), new Map(), Object.create(null)]) expect(isObjectLike(value)).toBe(true);
  });

  it('refuses null, functions and every primitive', () => {
    for (const value of [null, undefined, () => 1, class {}, 'text', 0, 1n, true, Symbol('s')]) expect(isObjectLike(value)).toBe(false);
  });

  it('differs from isObject only on arrays', () => {
    expect([isObjectLike([]), isObject([])]).toEqual([true, false]);
    expect([isObjectLike({}), isObject({})]).toEqual([true, true]);
  });
});

describe('the helpers built on it', () => {
  it('keeps isPlainObject to plain objects', () => {
    expect([{}, Object.create(null), [], new Date(0), null, 'x'].map(isPlainObject)).toEqual([true, true, false, false, false, false]);
  });

  it('freezes arrays inside objects with deepFreeze, and leaves functions alone', () => {
    const fn = () => 1;
    const value = deepFreeze({ list: [{ a: 1 }], fn });
    expect([Object.isFrozen(value), Object.isFrozen(value.list), Object.isFrozen(value.list[0]), Object.isFrozen(fn)]).toEqual([
      true,
      true,
      true,
      false,
    ]);
  });
});

describe('ownKeysAre', () => {
  it('holds for exactly those own keys in that order, and for nothing else', () => {
    expect(ownKeysAre({ a: 1, b: 2 }, ['a', 'b'])).toBe(true);
    expect(ownKeysAre({}, [])).toBe(true);
    expect(ownKeysAre({ b: 2, a: 1 }, ['a', 'b'])).toBe(false);
    expect(ownKeysAre({ a: 1 }, ['a', 'b'])).toBe(false);
    expect(ownKeysAre({ a: 1, b: 2, c: 3 }, ['a', 'b'])).toBe(false);
    expect(ownKeysAre(Object.assign(Object.create({ b: 2 }), { a: 1 }), ['a', 'b'])).toBe(false);
    expect(ownKeysAre(Object.defineProperty({ a: 1 }, 'b', { value: 2, enumerable: false }), ['a', 'b'])).toBe(false);
  });
});
