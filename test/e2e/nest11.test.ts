import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { McpServer } from '../../src';
import { DocketRepository } from '../../samples/nest-docket/src/docket.repository';
import { DocketService } from '../../samples/nest-docket/src/docket.service';
import { ROOT, ensureBuilt } from './support/build';

/**
 * NestJS 12 (ESM-only, loaded by the CommonJS package through require(esm)) is what the project develops and
 * tests against; Nest 11 (CommonJS) is still supported. This installs Nest 11 into test/.nest11 with a copy
 * of the built package (so there is one Nest), compiles samples/nest-docket there with tsc, and runs it over
 * HTTP and stdio.
 */
jest.setTimeout(180_000);

const DIR = join(ROOT, 'test/.nest11');
const NEST = '11.2.10';

function run(command: string, args: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} failed:\n${output}`))));
  });
}

async function prepare(): Promise<void> {
  await ensureBuilt();
  const installed = join(DIR, 'node_modules/@nestjs/core/package.json');
  if (!existsSync(installed) || JSON.parse(readFileSync(installed, 'utf8')).version !== NEST) {
    mkdirSync(DIR, { recursive: true });
    const dependencies = { '@nestjs/common': NEST, '@nestjs/core': NEST, '@nestjs/platform-express': NEST, rxjs: '7.8.2' };
    writeFileSync(join(DIR, 'package.json'), JSON.stringify({ private: true, dependencies }));
    await run('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock'], DIR);
  }
  const copy = join(DIR, 'node_modules/onemodelcontext');
  rmSync(copy, { recursive: true, force: true });
  mkdirSync(copy, { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(copy, 'package.json'));
  cpSync(join(ROOT, 'dist'), join(copy, 'dist'), { recursive: true });
  await run(
    process.execPath,
    [join(ROOT, 'node_modules/@typescript/native/bin/tsc'), '-p', 'samples/nest-docket', '--outDir', join(DIR, 'dist')],
    ROOT,
  );
}

const outside = new McpServer({ name: 'nest-docket', version: '1.0.0' }).add(new DocketService(new DocketRepository()));

describe('nest-docket on NestJS 11', () => {
  beforeAll(prepare);

  it('runs on Nest 11 itself', () => {
    const core = JSON.parse(readFileSync(join(DIR, 'node_modules/@nestjs/core/package.json'), 'utf8'));
    expect(core.version).toBe(NEST);
    expect(core.type).toBeUndefined(); // CommonJS, unlike Nest 12
  });

  it('serves HTTP on the Express adapter', async () => {
    const child: ChildProcess = spawn(process.execPath, [join(DIR, 'dist/main.js')], {
      env: { ...process.env, PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d: Buffer) => {
        out += d;
        const match = /serves MCP at (\S+)/.exec(out);
        if (match) resolve(match[1]);
      });
      child.on('close', (code) => reject(new Error(`exited ${code}: ${out}`)));
    });
    const client = new Client({ name: 'nest11', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    expect(JSON.stringify((await client.listTools()).tools)).toBe(JSON.stringify(outside.listTools()));
    const result = await client.callTool({ name: 'get_docket', arguments: { id: 1 } });
    expect((result.structuredContent as { title: string }).title).toBe('Acme v. Widget');
    // Nest 11's own guards and exception filters, through the sample's SealedCaseGuard and CaseNotFoundFilter.
    const sealed = await client.callTool({ name: 'get_docket', arguments: { id: 7 } });
    expect([sealed.isError, sealed.content]).toEqual([true, [{ type: 'text', text: "The call to tool 'get_docket' was refused." }]]);
    const missing = await client.callTool({ name: 'get_docket', arguments: { id: 99 } });
    expect([missing.isError, missing.content]).toEqual([true, [{ type: 'text', text: 'There is no case 99.' }]]);
    await client.close();
    child.kill();
  });

  it('serves stdio with the logs on stderr', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [join(DIR, 'dist/stdio.js')], stderr: 'pipe' });
    const client = new Client({ name: 'nest11', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(transport);
    const result = await client.callTool({ name: 'list_open_cases', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: '2026-CV-0001 Acme v. Widget (urgent)' }]);
    await client.close();
  });
});
