import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BUILD_HOOK_TIMEOUT_MS, ensureBuilt, ROOT } from './support/build';

/**
 * The built package is bundled (scripts/bundle.mjs): one file per entry, `onemodelcontext` holding the runtime
 * and `onemodelcontext/nest` and `onemodelcontext/redis` holding their own modules and requiring the main
 * entry for the rest. These run the package as a user's project does, by name from a project that links it
 * (test/e2e/fixture), in fresh processes. (What is loaded lazily: test/e2e/start-up.test.ts, on the same built
 * package; an application bundling the package with esbuild: test/e2e/runners.test.ts.)
 */
jest.setTimeout(120_000);

beforeAll(() => ensureBuilt(), BUILD_HOOK_TIMEOUT_MS);

const PROJECT = join(ROOT, 'test/e2e/fixture');

/** Runs `script` in a fresh Node.js process inside the linked project; returns what it printed, parsed. */
function run(script: string, type: 'commonjs' | 'module'): unknown {
  const out = execFileSync(process.execPath, [`--input-type=${type}`, '-'], { cwd: PROJECT, encoding: 'utf8', input: script });
  return JSON.parse(out);
}

/** The files under `folder` whose names end with `suffix`, relative to it. */
function filesOf(folder: string, suffix: string, dir = join(ROOT, folder)): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesOf(folder, suffix, path);
    return entry.name.endsWith(suffix) ? [relative(join(ROOT, folder), path)] : [];
  });
}

describe('the bundled package', () => {
  it('ships one file per entry and the generator, and none of tsc’s modules', () => {
    expect(filesOf('dist', '.js').sort()).toEqual(['cli/main.js', 'index.js', 'nest/index.js', 'redis/index.js']);
  });

  it('carries only the version of the package’s own package.json, which the telemetry scope names', () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const main = readFileSync(join(ROOT, 'dist/index.js'), 'utf8');
    expect(main).toContain(`.exports = { version: ${JSON.stringify(version)} };`);
    expect(main).not.toContain('devDependencies');
  });

  it('keeps tsc’s declarations, one per source module', () => {
    const sources = filesOf('src', '.ts').filter((file) => !file.endsWith('.d.ts'));
    expect(filesOf('dist', '.d.ts').sort()).toEqual(sources.map((file) => file.replace(/\.ts$/, '.d.ts')).sort());
  });

  it('loads one copy of each module for all three entries: the Nest module serves tools decorated through the main entry, as its McpServer', () => {
    const result = run(
      `
require('reflect-metadata');
const main = require('onemodelcontext');
const nest = require('onemodelcontext/nest');
const redis = require('onemodelcontext/redis');
const { Module, Injectable } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
(async () => {
  class Greeter { hello(name) { return 'hello ' + name; } }
  Reflect.defineMetadata('design:paramtypes', [String], Greeter.prototype, 'hello');
  Reflect.defineMetadata('design:returntype', String, Greeter.prototype, 'hello');
  main.Tool({ description: 'Says hello.' })(Greeter.prototype, 'hello', Object.getOwnPropertyDescriptor(Greeter.prototype, 'hello'));
  main.Param('name')(Greeter.prototype, 'hello', 0);
  Injectable()(Greeter);
  class AppModule {}
  Module({ imports: [nest.McpModule.forRoot({ name: 'bundle', version: '1', transport: 'none' })], providers: [Greeter] })(AppModule);
  const app = await NestFactory.createApplicationContext(AppModule, { logger: false });
  const server = app.get(main.McpServer);
  const called = await server.callTool('hello', { name: 'bundle' });
  const files = Object.keys(require.cache).filter((file) => !file.includes('node_modules')).map((file) => require('path').relative(${JSON.stringify(ROOT)}, file)).sort();
  await app.close();
  process.stdout.write(JSON.stringify({
    tools: server.listTools().map((tool) => tool.name),
    called: called.content,
    sameServerClass: server instanceof main.McpServer,
    redis: typeof redis.connectRedis,
    files,
  }));
})().catch((error) => { console.error(error); process.exit(1); });`,
      'commonjs',
    );
    expect(result).toEqual({
      tools: ['hello'],
      called: [{ type: 'text', text: 'hello bundle' }],
      sameServerClass: true,
      redis: 'function',
      files: ['dist/index.js', 'dist/nest/index.js', 'dist/redis/index.js'],
    });
  });

  it.each(['onemodelcontext', 'onemodelcontext/nest', 'onemodelcontext/redis'])(
    'offers ES modules a named import for everything %s exports to CommonJS',
    (entry) => {
      const { esm, cjs } = run(
        `
import { createRequire } from 'node:module';
const namespace = await import(${JSON.stringify(entry)});
const exported = createRequire(process.cwd() + '/')(${JSON.stringify(entry)});
process.stdout.write(JSON.stringify({
  // 'module.exports': the whole CommonJS object, which Node 23 and later also offer by that name.
  esm: Object.keys(namespace).filter((name) => !['default', '__esModule', 'module.exports'].includes(name)).map((name) => [name, namespace[name] === exported[name]]),
  cjs: Object.keys(exported).sort().map((name) => [name, true]),
}));`,
        'module',
      ) as { esm: [string, boolean][]; cjs: [string, boolean][] };
      expect(cjs.length).toBeGreaterThan(3);
      expect(esm).toEqual(cjs);
    },
  );

  it('serves a server written as an ES module with named imports from both entries', () => {
    const result = run(
      `
import 'reflect-metadata';
import { Int32, McpServer, Param, Tool } from 'onemodelcontext';
import { McpModule, StderrLogger } from 'onemodelcontext/nest';
class Calculator { add(a, b) { return a + b; } }
Reflect.defineMetadata('design:paramtypes', [Number, Number], Calculator.prototype, 'add');
Reflect.defineMetadata('design:returntype', Number, Calculator.prototype, 'add');
Tool()(Calculator.prototype, 'add', Object.getOwnPropertyDescriptor(Calculator.prototype, 'add'));
Param('a', { type: Int32 })(Calculator.prototype, 'add', 0);
Param('b', { type: Int32 })(Calculator.prototype, 'add', 1);
const server = new McpServer({ name: 'esm', version: '1' }).add(new Calculator());
const sum = await server.callTool('add', { a: 2, b: 3 });
process.stdout.write(JSON.stringify({ listed: server.listTools()[0].inputSchema, sum: sum.content, nest: [typeof McpModule.forRoot, typeof StderrLogger] }));`,
      'module',
    );
    expect(JSON.stringify(result)).toBe(
      JSON.stringify({
        listed: {
          type: 'object',
          properties: {
            a: { type: 'integer', minimum: -2147483648, maximum: 2147483647 },
            b: { type: 'integer', minimum: -2147483648, maximum: 2147483647 },
          },
          required: ['a', 'b'],
          additionalProperties: false,
        },
        sum: [{ type: 'text', text: '5' }],
        nest: ['function', 'function'],
      }),
    );
  });
});
