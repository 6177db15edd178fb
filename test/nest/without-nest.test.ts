import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, ensureBuilt } from '../e2e/support/build';

/**
 * A project with the built package and its own dependencies, but without NestJS or rxjs: the package's
 * root still loads, and `onemodelcontext/nest` says in one sentence what to install.
 */
jest.setTimeout(120_000);

describe('onemodelcontext/nest without NestJS installed', () => {
  let project: string;

  beforeAll(async () => {
    await ensureBuilt();
    project = mkdtempSync(join(tmpdir(), 'omc-no-nest-'));
    const modules = join(project, 'node_modules');
    const copy = join(modules, 'onemodelcontext');
    mkdirSync(copy, { recursive: true });
    cpSync(join(ROOT, 'package.json'), join(copy, 'package.json'));
    cpSync(join(ROOT, 'dist'), join(copy, 'dist'), { recursive: true });
    for (const entry of readdirSync(join(ROOT, 'node_modules'))) {
      if (entry === '@nestjs' || entry === 'rxjs' || entry.startsWith('.')) continue;
      symlinkSync(join(ROOT, 'node_modules', entry), join(modules, entry), 'dir');
    }
  }, 300_000);

  afterAll(() => rmSync(project, { recursive: true, force: true }));

  const run = (code: string) => spawnSync(process.execPath, ['-e', code], { cwd: project, encoding: 'utf8' });

  it('loads the package root', () => {
    const result = run("const { McpServer } = require('onemodelcontext'); console.log(typeof McpServer);");
    expect(result.stderr).toBe('');
    expect(result.stdout.trim()).toBe('function');
  });

  it('throws one sentence naming the packages to install', () => {
    const result = run("try { require('onemodelcontext/nest'); } catch (e) { console.log(e.message); process.exit(3); }");
    expect(result.status).toBe(3);
    expect(result.stdout.trim()).toBe(
      'onemodelcontext/nest needs NestJS, but @nestjs/common, @nestjs/core, rxjs are not installed: run npm install @nestjs/common @nestjs/core rxjs.',
    );
  });
});
