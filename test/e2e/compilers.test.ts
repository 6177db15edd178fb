import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { hardServer } from '../fixtures/compilers/src/hard';
import { BUILD_HOOK_TIMEOUT_MS, ROOT, ensureBuilt, link } from './support/build';

/**
 * Issue 23: TypeScript 5.9, 6.0 and 7.0 (the native compiler) side by side, installed through npm aliases in
 * devDependencies. Each compiles test/fixtures/compilers (the hard cases of decorator metadata: unions,
 * nullables, enums, arrays, Promise and async results, records with inheritance, optional and default
 * parameters) and the server it builds must list and read arguments byte for byte alike; each type-checks
 * every sample and the test fixture with their tsconfigs unchanged.
 */
jest.setTimeout(300_000);

/** The compilers, by the devDependency that installs each, and the folder each compiles into. */
const COMPILERS = [
  ['5.9', 'typescript-5.9/bin/tsc'],
  ['6.0', 'typescript-6.0/bin/tsc'],
  ['7.0', '@typescript/native/bin/tsc'],
] as const;

const PROJECTS = ['samples/weather', 'samples/nest-docket', 'samples/cluster', 'samples/conformance', 'test/e2e/fixture'];

function node(args: string[], input?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

const tsc = (compiler: string, args: string[]) => node([join(ROOT, 'node_modules', compiler), ...args]);

/** What `tsc -b --verbose` prints on its way (timestamped steps, the list of projects, blank lines), not a diagnostic. */
const BUILD_PROGRESS =
  /^\s*$|^\S.* - (Projects in this build:|Project '[^']+' is being forcibly rebuilt|Building project '[^']+'\.\.\.)\s*$|^ {4}\* \S+\s*$/;

/** The calls made to each build: accepted and refused arguments of every tool. */
const CALLS: [string, Record<string, unknown>][] = [
  ['mode', { mode: 'air', note: null, label: 'x' }],
  ['mode', { mode: 'sea', note: 'x', label: 'x' }],
  ['mode', { mode: 'road', note: 'x' }],
  ['enums', { priority: 'High', colour: 'green' }],
  ['enums', { priority: 1, colour: 'green' }],
  ['arrays', { counts: [1, 2], stops: [{ street: 'a', city: null }] }],
  ['arrays', { counts: [1.5], stops: [] }],
  [
    'customer',
    {
      customer: {
        name: 'Ada',
        age: 36,
        born: '1815-12-10T00:00:00.000Z',
        address: { street: 's', city: 'London' },
        tags: ['x'],
        colour: 'red',
      },
    },
  ],
  ['customer', { customer: { name: 'Ada', age: 36, born: 'yesterday', address: { street: 's' }, tags: [], colour: 'red' } }],
  ['later', { when: '2026-01-01T00:00:00.000Z', flag: true }],
];

const DESIGN_ONLY_WARNING =
  "WARN onemodelcontext definition.warning: 2 properties are typed only by design metadata, which says String or Number for an enum or a union of literals too, so they are listed as any string or number: Address, property 'street' (String); Contact, property 'name' (String). If one is an enum or a union of literals, give its type (@Field({ type: Unit }), @Field({ type: StringLiterals('a', 'b') })), or run `npx onemodelcontext generate` and import the facts module, which reads every declared type. A hint on a plain one (@Field({ type: String })) or a constraint silences this; it is said once.\n";

/** What a server lists and answers to CALLS, as one string. */
async function observe(server: {
  listTools(): unknown;
  callTool(name: string, args: Record<string, unknown>): Promise<unknown>;
}): Promise<string> {
  const results = [];
  for (const [name, args] of CALLS) results.push(await server.callTool(name, args));
  return JSON.stringify({ listing: server.listTools(), results });
}

/** Runs `observe` in a fresh process on the fixture as `compiler` compiled it, against the built package. */
async function observeBuild(folder: string): Promise<string> {
  const script = `require('reflect-metadata');
const { hardServer } = require(${JSON.stringify(join(ROOT, folder, 'hard.js'))});
const CALLS = ${JSON.stringify(CALLS)};
${observe.toString()}
observe(hardServer()).then((text) => process.stdout.write(text));`;
  const { code, stdout, stderr } = await node(['-'], script);
  // The one line every compiler's build says: two plain string properties of the fixture typed by design
  // metadata alone (the design-only warning). Anything else on stderr fails.
  expect(stderr.replace(/^\S+ /, '')).toBe(DESIGN_ONLY_WARNING);
  expect(code).toBe(0);
  return stdout;
}

beforeAll(async () => {
  await ensureBuilt();
  // Each project imports the package by name, as a user's does (the build links only the ones it compiles).
  for (const project of PROJECTS) link(project);
}, BUILD_HOOK_TIMEOUT_MS);

describe.each(COMPILERS)('TypeScript %s', (version, compiler) => {
  const out = `test/.tscompat/${version}`;

  it('reports its own version', async () => {
    const { stdout } = await tsc(compiler, ['--version']);
    expect(stdout).toMatch(new RegExp(`^Version ${version.replace('.', '\\.')}\\.\\d+\\n$`));
  });

  it('compiles the hard cases into a server that lists and reads arguments exactly as the other compilers’ builds do', async () => {
    const compiled = await tsc(compiler, ['-p', 'test/fixtures/compilers', '--outDir', out]);
    expect(compiled.stdout + compiled.stderr).toBe('');
    // The reference: the same fixture compiled in process by ts-jest (the classic API of @typescript/typescript6).
    expect(await observeBuild(out)).toBe(await observe(hardServer()));
  });

  it('type-checks every sample and the end-to-end fixture with their tsconfigs as committed', async () => {
    // In one build (`tsc -b`, every project rebuilt by --force, none emitted): the compiler reads the declaration
    // files the projects share (its lib, @types/node, Nest's, the package's) once, where one `tsc -p` per project
    // read them five times (two and a half to three times the CPU time). --verbose names each project it checks.
    const { code, stdout, stderr } = await tsc(compiler, ['-b', '--force', '--noEmit', '--verbose', ...PROJECTS]);
    // Build mode keeps a tsconfig.tsbuildinfo beside each tsconfig (ignored by git); this check leaves none behind.
    for (const project of PROJECTS) rmSync(join(ROOT, project, 'tsconfig.tsbuildinfo'), { force: true });
    const printed = (stdout + stderr).split('\n');
    const checked = printed.flatMap((line) => /Building project '(.+)'\.\.\.$/.exec(line.trimEnd())?.[1] ?? []);
    expect(checked.map((config) => relative(ROOT, resolve(ROOT, config)))).toEqual(
      PROJECTS.map((project) => join(project, 'tsconfig.json')),
    );
    // Anything else it printed would be a diagnostic.
    expect([code, printed.filter((line) => !BUILD_PROGRESS.test(line))]).toEqual([0, []]);
  });
});

describe('the hard cases', () => {
  it('are served as the metadata says, so the comparison above compares something', async () => {
    const { listing, results } = JSON.parse(await observe(hardServer())) as {
      listing: { name: string; inputSchema: { required: string[] }; outputSchema?: unknown }[];
      results: { content: { text: string }[]; isError?: boolean; structuredContent?: unknown }[];
    };
    expect(listing.map((tool) => tool.name)).toEqual(['mode', 'enums', 'arrays', 'customer', 'later']);
    // An optional parameter is invisible to the metadata: it is required unless a hint or the facts say otherwise.
    expect(listing[0].inputSchema.required).toEqual(['mode', 'note', 'label']);
    expect(results.map((r) => [r.isError === true, r.content[0].text])).toEqual([
      [false, 'air|null|x'],
      [true, 'Argument \'mode\' is not valid. Expected one of: "road", "air".'],
      [true, 'Argument \'label\' is not valid. It is required: a string, such as "text".'],
      [false, '1|green'],
      [true, expect.stringMatching(/^Argument 'priority' is not valid/)],
      [false, '7'],
      [true, expect.stringMatching(/^Argument 'counts\[0\]' is not valid/)],
      [
        false,
        '{"name":"Ada","age":37,"born":"1815-12-10T00:00:00.000Z","address":{"street":"s","city":"London"},"tags":["x"],"colour":"red"}',
      ],
      [true, expect.stringMatching(/^Argument 'customer\.born' is not valid/)],
      [false, '2026-01-01T00:00:00.000Z|true'],
    ]);
  });
});
