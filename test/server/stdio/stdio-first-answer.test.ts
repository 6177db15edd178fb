import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, ROOT } from '../../e2e/support/build';

/**
 * Issue 27: a stdio server built against the package (samples/weather, `node dist/main.js --stdio`, as a client
 * spawns it) serves its opening, its lists, `ping` and `tools/call` without loading a module of the MCP SDK or
 * zod; the first message the stdio loop hands over loads them, and is answered.
 */
jest.setTimeout(120_000);

beforeAll(() => ensureBuilt(), 300_000);

let scratch: string;
let preload: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'omc-first-answer-'));
  preload = join(scratch, 'sdk-modules-at-exit.js');
  // At exit, the last stderr line: the SDK and zod modules the process loaded, as paths below node_modules.
  writeFileSync(
    preload,
    `process.on('exit', () => {
      const loaded = Object.keys(require.cache).filter((f) => /node_modules[\\\\/](@modelcontextprotocol|zod)[\\\\/]/.test(f));
      process.stderr.write('\\n' + JSON.stringify(loaded.map((f) => f.slice(f.lastIndexOf('node_modules') + 13))) + '\\n');
    });`,
  );
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Writes `lines` to a fresh weather server, ends its stdin once `answers` answers arrived; its stdout lines and SDK modules. */
function run(lines: readonly object[], answers: number): Promise<{ stdout: string[]; sdkModules: string[]; code: number | null }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['-r', preload, join(ROOT, 'samples/weather/dist/main.js'), '--stdio'], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const stdout: string[] = [];
    let buffered = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.stdout.on('data', (d: Buffer) => {
      buffered += d;
      let at: number;
      while ((at = buffered.indexOf('\n')) !== -1) {
        stdout.push(buffered.slice(0, at));
        buffered = buffered.slice(at + 1);
      }
      if (stdout.length >= answers) child.stdin.end();
    });
    child.once('error', fail);
    child.once('exit', (code) => {
      const last = stderr.trim().split('\n').pop() ?? '[]';
      done({ stdout, sdkModules: JSON.parse(last) as string[], code });
    });
    for (const line of lines) child.stdin.write(`${JSON.stringify(line)}\n`);
  });
}

const opening = [
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
  { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_forecast', arguments: { city: 'Paris', days: 1 } } },
  { jsonrpc: '2.0', id: 4, method: 'ping' },
];

describe('stdio, the first answers', () => {
  it('initialize, tools/list, tools/call and ping load no module of the SDK or zod', async () => {
    const { stdout, sdkModules, code } = await run(opening, 4);
    expect(code).toBe(0);
    expect(stdout.map((l) => (JSON.parse(l) as { id: number }).id).sort()).toEqual([1, 2, 3, 4]);
    expect(stdout.find((l) => l.endsWith('"id":4}'))).toBe('{"result":{},"jsonrpc":"2.0","id":4}');
    expect(stdout.find((l) => l.endsWith('"id":3}'))).toMatch(/^\{"result":\{"content":\[\{"type":"text","text":"Forecast for Paris:\\n/);
    expect(sdkModules).toEqual([]);
  });

  it('logging/setLevel loads the SDK, which answers it', async () => {
    const { stdout, sdkModules, code } = await run(
      [...opening, { jsonrpc: '2.0', id: 5, method: 'logging/setLevel', params: { level: 'info' } }],
      5,
    );
    expect(code).toBe(0);
    expect(stdout.find((l) => l.endsWith('"id":5}'))).toBe('{"result":{},"jsonrpc":"2.0","id":5}');
    expect(sdkModules).toEqual(expect.arrayContaining(['@modelcontextprotocol/server/dist/index.cjs']));
  });
});
