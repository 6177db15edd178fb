import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INIT_USAGE, init, packageName } from '../../src/cli/init';
import { TEMPLATE_VERSIONS } from '../../src/cli/init-templates';
import { folderHost } from '../support/init-host';

/**
 * `onemodelcontext init` on real folders: what it writes, what it refuses. test/e2e/init.test.ts installs what
 * it writes and runs its tests.
 */
const ROOT = join(__dirname, '../..');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'omc-init-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const read = (file: string) => readFileSync(join(dir, file), 'utf8');
const PLAIN = [
  'package.json',
  'tsconfig.json',
  '.gitignore',
  'README.md',
  'src/greeter.ts',
  'src/server.ts',
  'src/main.ts',
  'test/server.test.ts',
];

describe('init', () => {
  it('writes the plain project into the current folder and says what to do next', () => {
    const host = folderHost(join(dir, 'My Greeter'));
    mkdirSync(host.cwd);
    expect(init([], host)).toBe(0);
    expect(host.err).toEqual([]);
    expect(host.out).toEqual([`Wrote a new MCP server project: ${PLAIN.join(', ')}.\nNext: npm install && npm test`]);
    for (const file of PLAIN) expect([file, existsSync(join(host.cwd, file))]).toEqual([file, true]);
    const manifest = JSON.parse(readFileSync(join(host.cwd, 'package.json'), 'utf8'));
    const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
    expect(manifest).toEqual({
      name: 'my-greeter',
      version: '0.1.0',
      private: true,
      type: 'commonjs',
      scripts: {
        generate: 'onemodelcontext generate',
        build: 'onemodelcontext generate && tsc',
        start: 'node dist/main.js',
        test: 'onemodelcontext generate && vitest run',
      },
      dependencies: { onemodelcontext: `^${version}` },
      devDependencies: { '@types/node': '20.19.43', '@typescript/typescript6': '6.0.2', typescript: '7.0.2', vitest: '4.1.12' },
    });
  });

  it('writes the files docs/getting-started.md shows, and its tsconfig', () => {
    expect(init([], folderHost(dir))).toBe(0);
    const page = readFileSync(join(ROOT, 'docs/getting-started.md'), 'utf8');
    for (const file of ['src/greeter.ts', 'src/server.ts', 'src/main.ts', 'test/server.test.ts']) {
      expect([file, page.includes(read(file))]).toEqual([file, true]);
    }
    expect(page).toContain(`\`\`\`json\n${read('tsconfig.json')}\`\`\``);
  });

  it('writes the Nest project into a folder it creates', () => {
    const host = folderHost(dir);
    expect(init(['docket', '--nest'], host)).toBe(0);
    const files = [
      'package.json',
      'tsconfig.json',
      '.gitignore',
      'README.md',
      'src/greeter.ts',
      'src/app.module.ts',
      'src/main.ts',
      'test/app.test.ts',
    ];
    expect(host.out).toEqual([`Wrote a new NestJS MCP server project: ${files.join(', ')}.\nNext: cd docket && npm install && npm test`]);
    const manifest = JSON.parse(read('docket/package.json'));
    expect(manifest.name).toBe('docket');
    expect(Object.keys(manifest.dependencies)).toEqual(['@nestjs/common', '@nestjs/core', 'onemodelcontext', 'reflect-metadata', 'rxjs']);
    expect(read('docket/src/app.module.ts')).toContain("McpModule.forRoot({ name: 'greeter', version: '1.0.0', transport })");
    expect(read('docket/src/greeter.ts')).toContain('@Injectable()\nexport class Greeter {\n  @Tool(');
  });

  it('pins the versions this repository builds and tests with', () => {
    const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    const used: Record<string, string> = {
      ...root.devDependencies,
      ...root.dependencies,
      typescript: root.devDependencies['@typescript/native'],
    };
    const typescript6 = JSON.parse(readFileSync(join(ROOT, 'node_modules/typescript/package.json'), 'utf8')).version;
    for (const [name, version] of Object.entries(TEMPLATE_VERSIONS)) {
      const expected = name === '@typescript/typescript6' ? typescript6 : used[name].replace(/^npm:typescript@/, '');
      expect([name, version]).toEqual([name, expected]);
    }
  });

  it.each([
    ['package.json', 'This folder already has a package.json'],
    ['src', 'This folder already has a src/ folder'],
  ])('refuses a folder that has %s, and writes nothing', (taken, message) => {
    if (taken === 'src') mkdirSync(join(dir, 'src'));
    else writeFileSync(join(dir, taken), '{}');
    const host = folderHost(dir);
    expect(init(['--nest'], host)).toBe(1);
    expect(host.err).toEqual([`${message}; init writes only into a new project (--force writes anyway).`]);
    expect(existsSync(join(dir, 'tsconfig.json'))).toBe(false);
  });

  it('names both, and the folder given', () => {
    mkdirSync(join(dir, 'app/src'), { recursive: true });
    writeFileSync(join(dir, 'app/package.json'), '{}');
    const host = folderHost(dir);
    expect(init(['app'], host)).toBe(1);
    expect(host.err).toEqual([
      "'app' already has a package.json and a src/ folder; init writes only into a new project (--force writes anyway).",
    ]);
  });

  it('writes over its own files with --force and leaves the others', () => {
    writeFileSync(join(dir, 'package.json'), '{}');
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    expect(init(['--force'], folderHost(dir))).toBe(0);
    expect(JSON.parse(read('package.json')).scripts.test).toBe('onemodelcontext generate && vitest run');
    expect(read('notes.txt')).toBe('mine');
  });

  it.each([
    [['--nets'], "Unknown option '--nets'."],
    [['a', 'b'], "One folder only: 'a' and 'b' were given."],
  ])('refuses %j with the usage', (args, message) => {
    const host = folderHost(dir);
    expect(init(args, host)).toBe(1);
    expect(host.err).toEqual([`${message}\n${INIT_USAGE}`]);
    expect(existsSync(join(dir, 'package.json'))).toBe(false);
  });

  it('prints its usage for --help and writes nothing', () => {
    const host = folderHost(dir);
    expect(init(['--nest', '--help'], host)).toBe(0);
    expect(host.out).toEqual([INIT_USAGE]);
    expect(INIT_USAGE.split('\n')[0]).toBe('Usage: onemodelcontext init [folder] [--nest] [--force]');
    expect(existsSync(join(dir, 'package.json'))).toBe(false);
  });
});

describe('packageName', () => {
  it.each([
    ['/x/Greeter MCP', 'greeter-mcp'],
    ['/x/_private.Tools', 'private.tools'],
    ['/x/ünï', 'n'],
    ['/x/!!!', 'mcp-server'],
    ['/x/node_modules', 'mcp-server'],
  ])('%s is %s', (folder, name) => {
    expect(packageName(folder)).toBe(name);
  });
});
