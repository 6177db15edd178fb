import * as fs from 'node:fs';
import * as path from 'node:path';
import { ensureBuilt } from '../e2e/support/build';
import { typeCheck } from '../support/typecheck';

// The public types are part of the contract (issue 11): the `*.types.ts` files here hold `expectType`
// assertions and `@ts-expect-error` lines, and this test fails when one of them stops compiling or an
// expected error stops being one (TS2578).
describe('type tests', () => {
  const files = fs
    .readdirSync(__dirname)
    .filter((f) => f.endsWith('.types.ts'))
    .map((f) => path.join(__dirname, f));

  beforeAll(() => ensureBuilt(), 300_000);

  it('finds the type test files', () => {
    expect(files.map((f) => path.basename(f))).toEqual(expect.arrayContaining(['quick-path.types.ts']));
  });

  it('compiles every type test under strict with no unexpected or missing errors', () => {
    expect(typeCheck(files)).toEqual([]);
  });
});
