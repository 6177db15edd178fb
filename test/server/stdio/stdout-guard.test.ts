import { readFileSync } from 'node:fs';
import { Console } from 'node:console';
import { relative } from 'node:path';
import { Writable } from 'node:stream';
import { callerOf, guardStdout, strayMessage } from '../../../src/server/stdio/stdout-guard';

/**
 * The stdout guard over streams of the test's own (the real process.stdout is the end-to-end tests'): a
 * stray write goes to stderr with its encoding and callback, the first is reported once with its caller,
 * the protocol's view writes to stdout, and releasing puts `write` back as it was.
 */

/** A stream that records what reaches it, as text and as bytes; a slow one finishes each write a turn later. */
function sink(slow?: { readonly highWaterMark: number }): Writable & { readonly chunks: Buffer[]; text(): string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    highWaterMark: slow?.highWaterMark,
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      if (slow) setImmediate(done);
      else done();
    },
  });
  return Object.assign(stream, { chunks, text: () => Buffer.concat(chunks).toString('utf8') });
}

/** `file:line:column` of the call of `method` on the line of this file holding `marker`. */
function at(marker: string, method: string): string {
  const lines = readFileSync(__filename, 'utf8').split('\n');
  const index = lines.findIndex((line) => line.includes(marker) && !line.includes('at('));
  return `${relative(process.cwd(), __filename)}:${index + 1}:${lines[index]!.indexOf(`${method}(`) + 1}`;
}

function guarded(stdout = sink(), stderr = sink()) {
  const callers: (string | undefined)[] = [];
  const guard = guardStdout((caller) => callers.push(caller), { stdout, stderr });
  return { stdout, stderr, callers, guard };
}

describe('the stdout guard', () => {
  it('sends a stray string to stderr, calls its callback and reports the first write once, naming its caller', async () => {
    const { stdout, stderr, callers, guard } = guarded();
    const called: unknown[] = [];
    const returned = stdout.write('stray one\n', (error) => called.push(error ?? 'no error')); // marker: first-write
    stdout.write('stray two\n');
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(returned).toBe(true);
    expect(called).toEqual(['no error']);
    expect(stderr.text()).toBe('stray one\nstray two\n');
    expect(stdout.chunks).toEqual([]);
    expect(callers).toEqual([at('marker: first-write', 'write')]);
    guard.release();
  });

  it('honours an encoding, with or without a callback, and passes a Buffer on byte for byte', async () => {
    const { stdout, stderr, guard } = guarded();
    const called: string[] = [];
    stdout.write('68656c6c6f20', 'hex', () => called.push('hex'));
    stdout.write('d29ybGQ=', 'base64');
    const bytes = Buffer.from([0x0a, 0xff, 0x00, 0xe2, 0x82]);
    stdout.write(bytes, () => called.push('buffer'));
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(called).toEqual(['hex', 'buffer']);
    expect(Buffer.concat(stderr.chunks)).toEqual(Buffer.concat([Buffer.from('hello world'), bytes]));
    guard.release();
  });

  it("names console.log's caller, not Node's console internals", () => {
    const { stdout, stderr, callers, guard } = guarded();
    const console = new Console(stdout);
    console.log('from a tool %d', 42); // marker: console-log
    expect(stderr.text()).toBe('from a tool 42\n');
    expect(callers).toEqual([at('marker: console-log', 'log')]);
    guard.release();
  });

  it("writes the protocol's messages to stdout through the original write, with the stream's own events", () => {
    const { stdout, stderr, callers, guard } = guarded();
    const onDrain = () => undefined;
    expect(guard.protocol.write('{"jsonrpc":"2.0","id":1,"result":{}}\n')).toBe(true);
    guard.protocol.once('drain', onDrain);
    expect(stdout.listeners('drain')).toEqual([expect.any(Function)]);
    guard.protocol.off('drain', onDrain);
    expect(stdout.listenerCount('drain')).toBe(0);
    expect([stdout.text(), stderr.text(), callers]).toEqual(['{"jsonrpc":"2.0","id":1,"result":{}}\n', '', []]);
    expect(guard.protocol.writableLength).toBe(stdout.writableLength);
    guard.release();
  });

  it("relays stderr's drain to stdout when stderr asks a stray writer to wait", async () => {
    const { stdout, stderr, guard } = guarded(sink(), sink({ highWaterMark: 4 }));
    let drained = 0;
    stdout.on('drain', () => drained++);
    expect(stdout.write('longer than four bytes\n')).toBe(false);
    expect(stdout.write('and again\n')).toBe(false);
    await new Promise<void>((resolve) => stderr.once('drain', () => setImmediate(resolve)));
    expect(drained).toBe(1);
    expect(stderr.text()).toBe('longer than four bytes\nand again\n');
    guard.release();
  });

  it("restores the prototype's write on release, and an own write that was there before", () => {
    const { stdout, guard } = guarded();
    guard.release();
    expect(Object.prototype.hasOwnProperty.call(stdout, 'write')).toBe(false);
    stdout.write('after\n');
    expect(stdout.text()).toBe('after\n');

    const patched = sink();
    const own = patched.write.bind(patched);
    patched.write = own;
    const second = guarded(patched);
    expect(patched.write).not.toBe(own);
    second.guard.release();
    second.guard.release();
    expect(patched.write).toBe(own);
  });

  it('is shared by two holders: the first still holding it is told, the last to release restores', () => {
    const stdout = sink();
    const stderr = sink();
    const heard: string[] = [];
    const first = guardStdout(() => heard.push('first'), { stdout, stderr });
    const second = guardStdout(() => heard.push('second'), { stdout, stderr });
    expect(second.protocol).toBe(first.protocol);
    first.release();
    stdout.write('stray\n');
    stdout.write('stray\n');
    expect(heard).toEqual(['second']);
    expect(Object.prototype.hasOwnProperty.call(stdout, 'write')).toBe(true);
    second.release();
    expect(Object.prototype.hasOwnProperty.call(stdout, 'write')).toBe(false);
    expect(stderr.text()).toBe('stray\nstray\n');
  });

  it("leaves a write someone installed over the guard's in place on release", () => {
    const { stdout, guard } = guarded();
    const theirs = (() => true) as unknown as Writable['write'];
    stdout.write = theirs;
    guard.release();
    expect(stdout.write).toBe(theirs);
  });

  it('reads file URLs as paths and leaves a frame-less caller unnamed', () => {
    const url = `file://${process.cwd()}/lib/chatty.mjs`;
    // A stack whose only frame outside Node's is an ES module's, as V8 writes it.
    const original = Error.captureStackTrace;
    Error.captureStackTrace = (holder: object) => {
      (holder as { stack: string }).stack = `Error\n    at write (node:internal/streams/writable:1:1)\n    at ${url}:3:17\n`;
    };
    try {
      expect(callerOf(() => undefined)).toBe('lib/chatty.mjs:3:17');
      Error.captureStackTrace = (holder: object) => {
        (holder as { stack: string }).stack =
          'Error\n    at listOnTimeout (node:internal/timers:581:17)\n    at process.processTimers (node:internal/timers:519:7)\n';
      };
      expect(callerOf(() => undefined)).toBeUndefined();
    } finally {
      Error.captureStackTrace = original;
    }
    expect(strayMessage(undefined)).toBe(
      'A write to stdout went to stderr: over stdio, stdout carries only protocol messages. Later ones go there unannounced. Log to stderr (console.error), or leave stdout unguarded with serveStdio({ guardStdout: false }).',
    );
  });
});
