import { execFileSync, spawn } from 'node:child_process';
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

/**
 * A stdio server whose record is a class-validator DTO (`@IsEmail`, `@IsInt` + `@Min`, `@IsPhoneNumber`,
 * `@ValidateNested` with `@Type`), the decorators applied as tsc applies them; its argument says which loads first.
 */
const SERVER = `
if (process.argv[1] === 'package-first') require(${DIST});
const cv = require('class-validator');
const ct = require('class-transformer');
const { McpServer, Tool } = require(${DIST});
const field = (target, key, type, ...rules) => {
  Reflect.defineMetadata('design:type', type, target.prototype, key);
  for (const rule of rules) rule(target.prototype, key);
};
class Address {}
field(Address, 'street', String, cv.IsString());
class NewUser {}
field(NewUser, 'email', String, cv.IsEmail());
field(NewUser, 'age', Number, cv.IsInt(), cv.Min(13));
field(NewUser, 'phone', String, cv.IsPhoneNumber('US'));
field(NewUser, 'address', Address, cv.ValidateNested(), ct.Type(() => Address));
class SignupTools { signUp(user) { return user.email + ' ' + user.address.street; } }
Reflect.defineMetadata('design:paramtypes', [NewUser], SignupTools.prototype, 'signUp');
Reflect.defineMetadata('design:returntype', String, SignupTools.prototype, 'signUp');
Tool({ description: 'Signs a user up' })(SignupTools.prototype, 'signUp', Object.getOwnPropertyDescriptor(SignupTools.prototype, 'signUp'));
void new McpServer({ name: 'signup', version: '1.0.0' }).add(new SignupTools()).serveStdio();`;

const call = (id: number, user: unknown) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'sign_up', arguments: { user } },
});
const MESSAGES = [
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/list' },
  call(3, { email: 'x', age: 12.5, phone: '12', address: { street: 3 } }),
  call(4, { email: 'a@b.co', age: 20, phone: '+12025550123', address: { street: 'Main' } }),
];

/** Every line the server writes until it answered the last call, in a real process over its stdin and stdout. */
function serve(order: 'package-first' | 'class-validator-first'): Promise<string[]> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['-e', SERVER, order], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d;
      if (out.includes('"id":4}')) child.stdin.end();
    });
    child.once('exit', (code) => (code === 0 ? done(out.trim().split('\n')) : fail(new Error(`exited with ${code}: ${out}`))));
    for (const message of MESSAGES) child.stdin.write(`${JSON.stringify(message)}\n`);
  });
}

describe('a stdio server with class-validator DTOs', () => {
  it('lists and answers byte for byte the same whichever of class-validator and the package loads first', async () => {
    const [first, after] = await Promise.all([serve('package-first'), serve('class-validator-first')]);
    expect(first).toEqual(after);
    expect(first).toHaveLength(4);
    expect(first[2]).toContain('phone must be a valid phone number');
    expect(first[3]).toBe('{"result":{"content":[{"type":"text","text":"a@b.co Main"}]},"jsonrpc":"2.0","id":4}');
  });
});
