import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { BUILD_HOOK_TIMEOUT_MS, ensureBuilt, ROOT } from './support/build';

/**
 * Issue 39: loaded before class-validator, the package defers validator.js and libphonenumber-js until a rule
 * first runs (src/decorators/lazy-validator-internals.ts). Real Node.js processes, since jest's module system
 * does not go through Node.js's loader: the lever is active, and every verdict and message equals those of a
 * process that loads class-validator alone.
 */
jest.setTimeout(120_000);

beforeAll(() => ensureBuilt(), BUILD_HOOK_TIMEOUT_MS);

const DIST = JSON.stringify(join(ROOT, 'dist/index.js'));

/** Decorates a class with rules of every deferred kind and validates good and bad values of each. */
const VERDICTS = `
const cv = require('class-validator');
const before = Object.keys(require.cache).filter((f) => /node_modules[\\\\/](validator|libphonenumber-js)[\\\\/]/.test(f)).length;
class A {}
const rules = [
  ['email', cv.IsEmail(), ['x', 'a@b.co', 3]],
  ['password', cv.IsStrongPassword(), ['abc', 'Abcdef1!x']],
  ['phone', cv.IsPhoneNumber('US'), ['12', '+12025550123']],
  ['url', cv.IsUrl(), ['nope', 'https://example.com']],
  ['uuid', cv.IsUUID('4'), ['1', '3b241101-e2bb-4255-8caf-4136c566a962']],
  ['len', cv.Length(2, 3), ['a', 'ab']],
  ['min', cv.Min(13), [12, 13]],
  ['plan', cv.IsEnum({ A: 'a' }), ['b', 'a']],
];
for (const [key, rule] of rules) rule(A.prototype, key);
const out = [];
for (let i = 0; i < 3; i++) {
  const a = new A();
  for (const [key, , values] of rules) a[key] = values[Math.min(i, values.length - 1)];
  out.push(cv.validateSync(a).map((e) => [e.property, e.constraints]));
}
process.stdout.write(JSON.stringify({ before, out }));`;

function run(script: string): { before: number; out: unknown } {
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' })) as { before: number; out: unknown };
}

describe('class-validator with the package loaded first', () => {
  it('loads neither validator.js nor libphonenumber-js until a rule runs, and judges exactly as class-validator alone', () => {
    const deferred = run(`require(${DIST});${VERDICTS}`);
    const alone = run(VERDICTS);
    expect(deferred.before).toBe(0);
    expect(alone.before).toBeGreaterThan(100);
    expect(deferred.out).toEqual(alone.out);
    expect(JSON.stringify(deferred.out)).toContain('must be a valid phone number');
  });

  it("leaves the application's own require('validator') the real module", () => {
    const script = `require(${DIST}); require('class-validator'); const v = require('validator');
process.stdout.write(JSON.stringify({ before: typeof v.isEmail, out: v.isEmail('a@b.co') }));`;
    expect(run(script)).toEqual({ before: 'function', out: true });
  });
});

/**
 * What `require('class-validator')` exports, name by name in order, with each value's kind, name and source
 * text, and how many of its decorator files (cjs/decorator/<group>/<file>) were loaded before any was read.
 */
const EXPORTS = `
const cv = require('class-validator');
const decorators = () => Object.keys(require.cache).filter((f) => /class-validator[\\\\/]cjs[\\\\/]decorator[\\\\/][\\w-]+[\\\\/]/.test(f)).length;
const before = decorators();
const out = Object.keys(cv).map((k) => [k, typeof cv[k], cv[k] && cv[k].name, String(cv[k])]);
const same = cv.IsEmail === require('class-validator/cjs/decorator/string/IsEmail').IsEmail;
process.stdout.write(JSON.stringify({ before, out: { out, same, after: decorators() } }));`;

describe("class-validator's decorator files with the package loaded first", () => {
  it('loads none until one of their exports is read, and exports exactly what class-validator alone exports', () => {
    const deferred = run(`require(${DIST});${EXPORTS}`);
    const alone = run(EXPORTS);
    expect(deferred.before).toBe(0);
    expect(alone.before).toBeGreaterThan(100);
    expect(JSON.stringify(deferred.out)).toBe(JSON.stringify(alone.out));
    expect((deferred.out as { same: boolean }).same).toBe(true);
  });

  it('loads only the decorator files a DTO uses', () => {
    const script = `require(${DIST});
const cv = require('class-validator');
class A {}
cv.IsEmail()(A.prototype, 'email');
cv.Min(1)(A.prototype, 'count');
const loaded = Object.keys(require.cache).filter((f) => /class-validator[\\\\/]cjs[\\\\/]decorator[\\\\/][\\w-]+[\\\\/]/.test(f));
const a = Object.assign(new A(), { email: 'x', count: 0 });
process.stdout.write(JSON.stringify({ before: loaded.length, out: cv.validateSync(a).map((e) => e.constraints) }));`;
    expect(run(script)).toEqual({
      // ValidateBy, required by both, is a decorator file of its own.
      before: 3,
      out: [{ isEmail: 'email must be an email' }, { min: 'count must not be less than 1' }],
    });
  });
});
