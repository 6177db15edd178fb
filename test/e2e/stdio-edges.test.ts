import { spawn } from 'node:child_process';
import { ensureBuilt } from './support/build';
import { FIXTURE_MAIN } from './support/clients';

/**
 * The edges of stdio, as a raw peer writing lines to a real child process: a line that is not JSON is
 * answered with a parse error and the server goes on; a message over the limit stops it with exit code 1 and
 * one stderr line naming the limit and the option.
 */
jest.setTimeout(60_000);

beforeAll(() => ensureBuilt(), 300_000);

interface Child {
  write(text: string): void;
  /** Writes raw bytes (not always UTF-8). */
  stdin(bytes: Buffer): void;
  /** Resolves with the first `count` stdout lines that satisfy `match`, parsed. */
  lines(match: (message: Record<string, unknown>) => boolean, count: number): Promise<Record<string, unknown>[]>;
  /** Resolves with the first stdout line that satisfies `match`, parsed. */
  line(match: (message: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  exited: Promise<number | null>;
  stderr(): string;
  /** Resolves with stderr once it holds `text`: stderr is its own pipe, which may deliver after stdout. */
  stderrWith(text: string): Promise<string>;
  kill(): void;
}

function start(env: NodeJS.ProcessEnv = {}): Child {
  const child = spawn(process.execPath, [FIXTURE_MAIN], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const waiting: (() => void)[] = [];
  child.stdout.on('data', (d: Buffer) => {
    stdout += d;
    for (const wake of waiting.splice(0)) wake();
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr += d;
    for (const wake of waiting.splice(0)) wake();
  });
  child.stdin.on('error', () => undefined); // writing to a child that already stopped
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    write: (text) => void child.stdin.write(text),
    stdin: (bytes) => void child.stdin.write(bytes),
    async line(match) {
      return (await this.lines(match, 1))[0]!;
    },
    async lines(match, count) {
      for (;;) {
        const found = stdout
          .split('\n')
          .filter((l) => l.trim().length > 0)
          .map((l) => JSON.parse(l) as Record<string, unknown>)
          .filter(match);
        if (found.length >= count) return found.slice(0, count);
        await new Promise<void>((resolve) => waiting.push(resolve));
      }
    },
    exited,
    stderr: () => stderr,
    async stderrWith(text) {
      while (!stderr.includes(text)) await new Promise<void>((resolve) => waiting.push(resolve));
      return stderr;
    },
    kill: () => child.kill('SIGKILL'),
  };
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

describe('stdio edges', () => {
  it('answers a line that is not JSON with -32700 (id null), logs it, and keeps serving', async () => {
    const child = start();
    child.write('this is not json\n');
    expect(await child.line((m) => m.id === null)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error: the line is not valid JSON.' },
    });
    child.write(`${INITIALIZE}\n`);
    expect(await child.line((m) => m.id === 1)).toMatchObject({ result: { serverInfo: { name: 'fixture' } } });
    const notice = 'A stdio line that is not JSON was answered with a parse error (-32700)';
    expect(await child.stderrWith(notice)).toContain(notice);
    child.kill();
  });

  it('serves on after a stream that starts with a BOM, a line with a no-break space, one ending in U+2028 and one that is not UTF-8', async () => {
    const child = start();
    const ping = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' });
    child.write(`\ufeff${INITIALIZE}\n`);
    expect(await child.line((m) => m.id === 1)).toMatchObject({ result: { serverInfo: { name: 'fixture' } } });
    child.write(`\u00a0${ping(2)}\n${ping(3)}\u2028\n`);
    child.stdin(
      Buffer.concat([
        Buffer.from('{"jsonrpc":"2.0","id":4,"method":"ping","params":{"x":"'),
        Buffer.from([0xc3, 0x28]),
        Buffer.from('"}}\n'),
      ]),
    );
    child.write(`${ping(5)}\n`);
    expect(await child.line((m) => m.id === 5)).toEqual({ jsonrpc: '2.0', id: 5, result: {} });
    const refusals = await child.lines((m) => m.id === null, 3);
    expect(refusals.map((m) => (m.error as { message: string }).message)).toEqual([
      'Parse error: the line is not valid JSON.',
      'Parse error: the line is not valid JSON.',
      'Parse error: the line is not valid UTF-8.',
    ]);
    child.kill();
    expect(await child.exited).toBeNull();
  });

  it('stops with exit code 1 and one stderr line on a message over maxMessageBytes', async () => {
    const child = start({ MAX_MESSAGE_BYTES: '4096' });
    child.write(`${INITIALIZE}\n`);
    await child.line((m) => m.id === 1);
    const huge = JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: 'x'.repeat(5000) } },
    });
    child.write(`${huge}\n`);
    expect(await child.exited).toBe(1);
    expect(child.stderr()).toContain(
      'onemodelcontext: a stdio message larger than 4096 bytes arrived; the server stops. Raise the limit with serveStdio({ maxMessageBytes }).',
    );
  });

  it('serves a message just under the default limit of 10 MiB', async () => {
    const child = start();
    child.write(`${INITIALIZE}\n`);
    await child.line((m) => m.id === 1);
    child.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    const big = JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping', params: { _meta: { pad: 'x'.repeat(9 * 1024 * 1024) } } });
    child.write(`${big}\n`);
    expect(await child.line((m) => m.id === 3)).toEqual({ jsonrpc: '2.0', id: 3, result: {} });
    child.kill();
  });

  it('refuses a maxMessageBytes that is not a whole number from 1024, when serving starts', async () => {
    const child = start({ MAX_MESSAGE_BYTES: '12.5' });
    await child.exited;
    expect(child.stderr()).toContain(
      'serveStdio({ maxMessageBytes }) takes a whole number of bytes from 1024, for example { maxMessageBytes: 32 * 1024 * 1024 }; got 12.5.',
    );
  });
});
