import { StringLength } from '../../src';

describe('constraint decorator signatures', () => {
  // Issue 11: @StringLength(1, 200) compiled to a confusing TS2559; now it is a compile error that names
  // the signature (test/types/decorators.types.ts), and plain JavaScript callers get the same words.
  it('refuses StringLength(min, max) at run time, naming the signature and both ways to write it', () => {
    const misuse = StringLength as unknown as (max: number, min: number) => unknown;
    expect(() => misuse(1, 200)).toThrow(
      new TypeError('@StringLength(1, 200): StringLength takes (max, { min }); write @StringLength(200, { min: 1 }) or @Length(1, 200).'),
    );
  });
});
