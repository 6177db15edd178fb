import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { run } from '../support/generate';

/**
 * Issue 23: the generator reads sources with TypeScript's classic compiler API, which TypeScript 7's
 * `typescript` package no longer has. It takes the project's `typescript` when that has it, else
 * `@typescript/typescript6`, else says the one command that fixes it; `--typescript` or
 * ONEMODELCONTEXT_TYPESCRIPT choose the module. Whichever compiler reads, the facts are byte for byte the same:
 * each run below checks the committed module with `--check`.
 */
const ROOT = resolve(__dirname, '../..');
const MODULES = join(ROOT, 'node_modules');
const OUT = 'src/onemodelcontext.facts.ts';
const UP_TO_DATE = { code: 0, stdout: `${OUT} is up to date.`, stderr: '', written: new Map() };

/**
 * The classic compilers installed side by side (devDependencies), by package name or path. The default run,
 * with the `typescript` devDependency (the API package of TypeScript 7, @typescript/typescript6), is
 * test/generate/check.test.ts.
 */
const CLASSIC = ['typescript-5.9', join(MODULES, 'typescript-6.0')];

describe.each(['documented', 'runners'])('the facts of test/fixtures/%s', (fixture) => {
  it.each(CLASSIC)('are the committed ones when --typescript %s reads the sources', (module) => {
    expect(run(fixture, ['generate', '--check', '--typescript', module])).toEqual(UP_TO_DATE);
  });
});

it('takes the compiler from ONEMODELCONTEXT_TYPESCRIPT; --typescript wins over it', () => {
  expect(run('documented', ['generate', '--check'], {}, { ONEMODELCONTEXT_TYPESCRIPT: 'typescript-6.0' })).toEqual(UP_TO_DATE);
  const overridden = run(
    'documented',
    ['generate', '--check', '--typescript', 'typescript-6.0'],
    {},
    { ONEMODELCONTEXT_TYPESCRIPT: 'missing' },
  );
  expect(overridden).toEqual(UP_TO_DATE);
});

describe('a compiler module without the classic API', () => {
  it('is refused by --typescript with the command that fixes it', () => {
    const result = run('documented', ['generate', '--check', '--typescript', '@typescript/native']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `The compiler module '@typescript/native' (${join(MODULES, '@typescript/native/lib/version.cjs')}, version 7.0.2) has no classic TypeScript compiler API (5.x or 6.x); ` +
        'npm install --save-dev @typescript/typescript6 and pass --typescript @typescript/typescript6, or leave the option out.',
    );
  });

  it('is refused by name when it cannot be found', () => {
    const result = run('documented', ['generate', '--typescript', 'typescript-4.0']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `The compiler module 'typescript-4.0' given by --typescript or ONEMODELCONTEXT_TYPESCRIPT cannot be found from ${join(ROOT, 'test/fixtures/documented')}; ` +
        'npm install --save-dev @typescript/typescript6 and pass --typescript @typescript/typescript6.',
    );
  });
});

describe('a TypeScript 7 project', () => {
  // A project whose `typescript` is TypeScript 7 (no classic API), reading the documented fixture's sources;
  // inside the repository (in git-ignored test/.tscompat) so that its `types: ["node"]` finds @types/node.
  let project: string;
  beforeEach(() => {
    mkdirSync(join(ROOT, 'test/.tscompat'), { recursive: true });
    project = mkdtempSync(join(ROOT, 'test/.tscompat/ts7-project-'));
    mkdirSync(join(project, 'node_modules/@typescript'), { recursive: true });
    symlinkSync(join(MODULES, '@typescript/native'), join(project, 'node_modules/typescript'), 'dir');
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ extends: join(ROOT, 'test/fixtures/documented/tsconfig.json') }));
  });
  afterEach(() => rmSync(project, { recursive: true, force: true }));

  const check = () => run('documented', ['generate', '--check', '--project', join(project, 'tsconfig.json'), '--out', OUT]);

  it('gets one sentence with the command that fixes it', () => {
    const result = check();
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "onemodelcontext generate reads sources with TypeScript's classic compiler API, which TypeScript 7.0.2 no longer ships; " +
        'add the package that does, beside it: npm install --save-dev @typescript/typescript6',
    );
  });

  it('reads with @typescript/typescript6 once it is installed, writing the same facts', () => {
    // The devDependency `typescript` is @typescript/typescript6 under an alias (the layout ts-jest documents).
    symlinkSync(join(MODULES, 'typescript'), join(project, 'node_modules/@typescript/typescript6'), 'dir');
    expect(check()).toEqual(UP_TO_DATE);
  });
});
