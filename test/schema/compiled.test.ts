import {
  compiledParamsOf,
  initializersOf,
  parsedInitializersOf,
  parsedParamsOf,
  plainInitializersOf,
  plainParamsOf,
} from '../../src/schema/resolve/compiled';

/**
 * Plain parameter lists and plain record classes are read without acorn (`plainParamsOf`,
 * `plainInitializersOf`); whatever they read must be exactly what the parser reads, and whatever is not
 * plain must be left to the parser.
 */

enum Unit {
  Celsius,
  Fahrenheit,
}

class Compiled {
  plain(city: string, days = 3, unit: Unit = Unit.Celsius, from?: Date): string {
    return `${city}${days}${unit}${String(from)}`;
  }
  async literals(
    a = 'light rain',
    b = 'x=y',
    c = -1.5,
    d = true,
    e = false,
    f: null | number = null,
    g = undefined,
    h = 0,
  ): Promise<unknown[]> {
    return [a, b, c, d, e, f, g, h];
  }
  none(): void {}
  *generator(x: number): Generator<number> {
    yield x;
  }
  multi(first: string, second: number = 12): string {
    return first + second;
  }
}

const PLAIN: readonly string[] = [
  ...(['plain', 'literals', 'none', 'generator', 'multi'] as const).map((key) => Function.prototype.toString.call(Compiled.prototype[key])),
  'm(a, b = 3, c = dto_1.Unit.Celsius) { return a; }',
  'async m(a = null) { }',
  'async *m(a) { }',
  'function named(a, b = "s") { return a; }',
  'async function (x = Infinity) { }',
  'function* (x = NaN) { }',
  'm(\n  a,\n  b = 2\n) {\n}',
  'delete$(a) { }',
  'm(a = "") { }',
];

const NOT_PLAIN: readonly string[] = [
  'm({ a, b }) { }',
  'm([a]) { }',
  'm(...rest) { }',
  'm(a /* comment */) { }',
  'm(a, // note\n b) { }',
  'm(a = f()) { }',
  'm(a = "x, y") { }',
  'm(a = "x\\"y") { }',
  'm(a = `t`) { }',
  'm(a = +1) { }',
  'm(a = - 1) { }',
  'm(a = 01) { }',
  'm(a = .5) { }',
  'm(a = 0x10) { }',
  'm(a = 1e3) { }',
  'm(a = this.x) { }',
  'm(a = Unit.default) { }',
  'm(a = new Date()) { }',
  'm(a = { x: 1 }) { }',
  'm(a = [1]) { }',
  'm(a, a) { }',
  'm(eval) { }',
  'm(yield) { }',
  'm(a,) { }',
  'get x() { }',
  'set x(v) { }',
  'delete(a) { }',
  'async(a) { }',
  '[Symbol.iterator](a) { }',
  '"quoted"(a) { }',
  'm\\u0061(a) { }',
  'mé(a) { }',
  'function () { [native code] }',
  '(a, b) => a',
  'a => a',
  'async (a) => a',
  'm(a) /* c */ { }',
  "m(a = '(') { }",
];

describe('plainParamsOf reads exactly what the parser reads', () => {
  it.each(PLAIN)('%s', (code) => {
    const plain = plainParamsOf(code);
    expect(plain).toBeDefined();
    expect(JSON.stringify(plain)).toBe(JSON.stringify(parsedParamsOf(code)));
  });
});

describe('and leaves everything else to the parser', () => {
  it.each(NOT_PLAIN)('%s', (code) => {
    expect(plainParamsOf(code)).toBeUndefined();
  });
});

it('compiledParamsOf gives the same answers either way, defaults included', () => {
  expect(JSON.stringify(compiledParamsOf(Compiled.prototype.plain))).toBe(
    JSON.stringify([
      { name: 'city' },
      { name: 'days', default: { kind: 'literal', value: 3 } },
      { name: 'unit', default: { kind: 'reference', object: 'Unit', property: 'Celsius' } },
      { name: 'from' },
    ]),
  );
  expect(compiledParamsOf(Compiled.prototype.literals)).toEqual(
    parsedParamsOf(Function.prototype.toString.call(Compiled.prototype.literals)),
  );
});

/** A record as tsc writes it: fields, initialisers, doc comments. */
class Record {
  /** The city. */
  city!: string;
  days = 3;
  // a line comment
  unit: Unit = Unit.Fahrenheit;
  /**
   * A longer comment { with braces } and "quotes" = 1;
   */
  label = 'light; rain';
  ratio = -0.5;
  flag = false;
  nothing: string | null = null;
  later = undefined;
}

class Derived extends Record {
  extra = 'x';
}

const PLAIN_CLASSES: readonly string[] = [
  Function.prototype.toString.call(Record),
  Function.prototype.toString.call(Derived),
  'class {}',
  'class A extends mod_1.Base {\n    a;\n    /**/\n    b = mod_1.Unit.A;\n}',
  'class A {\n    a = 1;\n    a = 2;\n}',
];

const NOT_PLAIN_CLASSES: readonly string[] = [
  'class A {\n    a = 1;\n    m() { }\n}',
  'class A {\n    constructor() {\n        this.a = 1;\n    }\n}',
  'class A {\n    static a = 1;\n}',
  'class A {\n    #a = 1;\n}',
  'class A {\n    [k] = 1;\n}',
  "class A {\n    'a-b' = 1;\n}",
  'class A {\n    a = 1; // trailing\n}',
  'class A {\n    a = f();\n}',
  'class A {\n    a = 1 /* c */;\n}',
  'class A {\n    /* c */ a = 1;\n}',
  'class A {\n    /* c\n    */ a = 1;\n}',
  'class A {\n    /* unclosed\n}',
  'class A {\n    a = "x\\"";\n}',
  'class A {\n    a\n    = 1;\n}',
  'class A {\n    static;\n}',
  'class A {\n    static {\n    }\n}',
  'class A extends mixin(B) {\n    a;\n}',
  'class A {\n    accessor a = 1;\n}',
];

describe('plainInitializersOf reads exactly what the parser reads', () => {
  it.each(PLAIN_CLASSES)('%s', (code) => {
    const plain = plainInitializersOf(code);
    expect(plain).toBeDefined();
    expect(JSON.stringify([...plain!])).toBe(JSON.stringify([...parsedInitializersOf(code)]));
  });
});

describe('and leaves every other class to the parser', () => {
  it.each(NOT_PLAIN_CLASSES)('%s', (code) => {
    expect(plainInitializersOf(code)).toBeUndefined();
  });
});

it('initializersOf of a record as tsc writes it', () => {
  expect(JSON.stringify([...initializersOf(Record)])).toBe(
    JSON.stringify([
      ['days', { kind: 'literal', value: 3 }],
      ['unit', { kind: 'reference', object: 'Unit', property: 'Fahrenheit' }],
      ['label', { kind: 'literal', value: 'light; rain' }],
      ['ratio', { kind: 'literal', value: -0.5 }],
      ['flag', { kind: 'literal', value: false }],
      ['nothing', { kind: 'literal', value: null }],
      ['later', { kind: 'other' }],
    ]),
  );
});
