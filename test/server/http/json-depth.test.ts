import { MAX_BODY_DEPTH, textNestsDeeperThan, valueNestsDeeperThan } from '../../../src/server/http/wire/json-depth';

/** The body-depth check: a cheap count of opening brackets first, the scan that skips strings when it cannot decide. */
describe('textNestsDeeperThan', () => {
  const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

  it.each([
    ['a small body', '{"a":[1,{"b":2}]}', false],
    ['exactly the limit', nested(MAX_BODY_DEPTH), false],
    ['one level past the limit', nested(MAX_BODY_DEPTH + 1), true],
    ['many brackets side by side, none deep', `[${Array.from({ length: 3000 }, () => '[]').join(',')}]`, false],
    ['brackets inside a string', JSON.stringify({ text: '['.repeat(5000) }), false],
    ['an escaped quote before brackets in a string', JSON.stringify({ text: `\\"${'{'.repeat(2000)}` }), false],
    ['deep nesting after a string of brackets', `[${JSON.stringify('['.repeat(2000))},${nested(MAX_BODY_DEPTH + 5)}]`, true],
  ])('%s', (_label, text, deeper) => {
    expect(textNestsDeeperThan(text, MAX_BODY_DEPTH)).toBe(deeper);
    // The text is JSON: the parsed value agrees (brackets inside strings are not nesting).
    expect(valueNestsDeeperThan(JSON.parse(text), MAX_BODY_DEPTH)).toBe(deeper);
  });
});
