import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { BUILD_HOOK_TIMEOUT_MS, ensureBuilt, ROOT } from './support/build';

/**
 * stdio keeps stdout for the protocol: a server script of a user's (plain JavaScript against the built package,
 * in a directory of its own with a dependency under node_modules) is served to the real v2 client over the
 * child's stdin and stdout. `console.log` in a tool, at the top level of a module loaded while serving, at the
 * top level of an ES module entry after `serveStdio()`, and a dependency's `process.stdout.write` all reach
 * stderr; stdout holds nothing but JSON-RPC messages, the calls are answered exactly, and stderr holds one
 * warning naming the first stray write's caller. `serveStdio({ guardStdout: false })` leaves stdout as it is.
 */
jest.setTimeout(120_000);

const DIST = JSON.stringify(join(ROOT, 'dist/index.js'));

/** Each file with the line and column of the write in it that the warning must name. */
const APP = `const { McpServer } = require(${DIST});
const chatty = require('chatty');

const server = new McpServer({ name: 'guarded', version: '1.0.0' });
server.tool('shout', { description: 'Logs to stdout.' }, () => {
  console.log('the tool says hello');
  return 'shouted';
});
server.tool('plugin', { description: 'Loads a plugin module.' }, () => {
  require('./plugin.js');
  return 'loaded';
});
server.tool('dependency', { description: 'Calls a chatty dependency.' }, () => chatty.greet('ledger'));
server.tool('close', { description: 'Closes the server, then logs.' }, () => {
  setImmediate(() => void server.close().then(() => console.log('after close')));
  return 'closing';
});
void server.serveStdio(process.env.GUARD === 'off' ? { guardStdout: false } : {});
`;
const PLUGIN = `console.log('plugin loaded');\nmodule.exports = {};\n`;
const CHATTY = `exports.greet = (name) => {\n  process.stdout.write('chatty: hello ' + name + '\\n');\n  return 'greeted ' + name;\n};\n`;
const MODULE_MAIN = `import { createRequire } from 'node:module';
const { McpServer } = createRequire(import.meta.url)(${DIST});

const server = new McpServer({ name: 'guarded-esm', version: '1.0.0' });
server.tool('shout', { description: 'Says nothing.' }, () => 'quiet');
await server.serveStdio();
console.log('serving now');
`;

let dir: string;

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'omc-stdout-'));
  writeFileSync(join(dir, 'app.js'), APP);
  writeFileSync(join(dir, 'plugin.js'), PLUGIN);
  writeFileSync(join(dir, 'main.mjs'), MODULE_MAIN);
  mkdirSync(join(dir, 'node_modules/chatty'), { recursive: true });
  writeFileSync(join(dir, 'node_modules/chatty/package.json'), JSON.stringify({ name: 'chatty', version: '1.0.0', main: 'index.js' }));
  writeFileSync(join(dir, 'node_modules/chatty/index.js'), CHATTY);
}, BUILD_HOOK_TIMEOUT_MS);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Served {
  readonly client: Client;
  /** Closes the client, waits for the child's stdout and stderr to end, and gives what each carried. */
  finish(): Promise<{ readonly stdout: string; readonly stderr: string }>;
}

/** The script served to the v2 client from `dir`, every byte of its stdout and stderr recorded. */
async function serve(script: string, env: Record<string, string> = {}): Promise<Served> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [script],
    cwd: dir,
    stderr: 'pipe',
    env: { ...process.env, ...env } as Record<string, string>,
  });
  let stderr = '';
  let stdout = '';
  const stderrEnded = new Promise<void>((resolve) => transport.stderr!.on('end', resolve));
  transport.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  let stdoutEnded: Promise<void> | undefined;
  const start = transport.start.bind(transport);
  // Tapped as the child spawns, before it can write anything: the client itself skips lines that are not JSON.
  transport.start = async () => {
    await start();
    const child = (transport as unknown as { _process?: ChildProcess })._process!;
    stdoutEnded = new Promise<void>((resolve) => child.stdout!.on('end', resolve));
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  };
  const client = new Client({ name: 'stdout-guard', version: '1' });
  await client.connect(transport);
  return {
    client,
    finish: async () => {
      await client.close();
      await Promise.all([stderrEnded, stdoutEnded]);
      return { stdout, stderr };
    },
  };
}

/** Every stdout line, parsed: each must be a JSON-RPC message. */
function messages(stdout: string): Record<string, unknown>[] {
  const lines = stdout.split('\n');
  expect(lines.pop()).toBe('');
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
}

const warning = (caller: string) =>
  `WARN onemodelcontext stdout.redirected: A write to stdout from ${caller} went to stderr: over stdio, stdout carries only protocol messages. ` +
  'Later ones go there unannounced. Log to stderr (console.error), or leave stdout unguarded with serveStdio({ guardStdout: false }).';

/** The stderr lines of the guard's warning, the timestamp cut off. */
const warnings = (stderr: string) =>
  stderr
    .split('\n')
    .filter((line) => line.includes('stdout.redirected'))
    .map((line) => line.replace(/^\d{4}-\d\d-\d\dT[\d:.]+Z /, ''));

const text = (value: string) => ({ content: [{ type: 'text', text: value }] });

describe('stdio keeps stdout for the protocol', () => {
  it("sends a tool's console.log to stderr, warning once with the tool's line", async () => {
    const served = await serve('app.js');
    expect(await served.client.callTool({ name: 'shout', arguments: {} })).toEqual(text('shouted'));
    expect(await served.client.callTool({ name: 'shout', arguments: {} })).toEqual(text('shouted'));
    const { stdout, stderr } = await served.finish();

    expect(messages(stdout).map((m) => m.jsonrpc)).toEqual(['2.0', '2.0', '2.0']);
    expect(stdout).not.toContain('hello');
    expect(stderr.split('\n').filter((line) => line === 'the tool says hello')).toHaveLength(2);
    expect(warnings(stderr)).toEqual([warning('app.js:6:11')]);
  });

  it('sends the top-level console.log of a module loaded while serving to stderr, naming the module', async () => {
    const served = await serve('app.js');
    expect(await served.client.callTool({ name: 'plugin', arguments: {} })).toEqual(text('loaded'));
    const { stdout, stderr } = await served.finish();

    expect(messages(stdout)).toHaveLength(2);
    expect(stderr).toContain('plugin loaded\n');
    expect(warnings(stderr)).toEqual([warning('plugin.js:1:9')]);
  });

  it("sends an ES module entry's top-level console.log after serveStdio() to stderr, naming the entry", async () => {
    const served = await serve('main.mjs');
    expect(await served.client.callTool({ name: 'shout', arguments: {} })).toEqual(text('quiet'));
    const { stdout, stderr } = await served.finish();

    expect(messages(stdout)).toHaveLength(2);
    expect(stderr).toContain('serving now\n');
    expect(warnings(stderr)).toEqual([warning('main.mjs:7:9')]);
  });

  it("sends a dependency's process.stdout.write to stderr, naming the dependency's file", async () => {
    const served = await serve('app.js');
    expect(await served.client.callTool({ name: 'dependency', arguments: {} })).toEqual(text('greeted ledger'));
    expect(await served.client.callTool({ name: 'shout', arguments: {} })).toEqual(text('shouted'));
    const { stdout, stderr } = await served.finish();

    expect(messages(stdout)).toHaveLength(3);
    expect(stderr).toContain('chatty: hello ledger\n');
    expect(stderr).toContain('the tool says hello\n');
    expect(warnings(stderr)).toEqual([warning('node_modules/chatty/index.js:2:18')]);
  });

  it('gives stdout back when the server closes', async () => {
    const served = await serve('app.js');
    expect(await served.client.callTool({ name: 'close', arguments: {} })).toEqual(text('closing'));
    const { stdout, stderr } = await served.finish();

    const lines = stdout.split('\n');
    expect(lines.slice(-2)).toEqual(['after close', '']);
    expect(lines.slice(0, -2).map((line) => (JSON.parse(line) as { jsonrpc: unknown }).jsonrpc)).toEqual(['2.0', '2.0']);
    expect(stderr).not.toContain('after close');
    expect(warnings(stderr)).toEqual([]);
  });

  it('leaves stdout as it is with serveStdio({ guardStdout: false }): the stray line sits between the messages', async () => {
    const served = await serve('app.js', { GUARD: 'off' });
    // The v2 client skips a line that is not JSON, so the call still succeeds; a stricter client would fail.
    expect(await served.client.callTool({ name: 'shout', arguments: {} })).toEqual(text('shouted'));
    const { stdout, stderr } = await served.finish();

    const lines = stdout.split('\n');
    expect(lines).toHaveLength(4);
    expect(JSON.parse(lines[0]!)).toMatchObject({ jsonrpc: '2.0', id: 0, result: { serverInfo: { name: 'guarded' } } });
    expect(lines[1]).toBe('the tool says hello');
    expect(JSON.parse(lines[2]!)).toEqual({ jsonrpc: '2.0', id: 1, result: text('shouted') });
    expect(lines[3]).toBe('');
    expect(stderr).not.toContain('the tool says hello');
    expect(warnings(stderr)).toEqual([]);
  });
});
