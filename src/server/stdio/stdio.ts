import { Transform, type Readable, type TransformCallback, type Writable } from 'node:stream';
import { utf8Text } from '../protocol/utf8';

/**
 * The edges of stdio the SDK's transport keeps quiet about: it drops a line that is not JSON without a
 * word, and when a message outgrows its buffer it closes, so the process ends with exit code 0. This
 * guard sits between stdin and the SDK's `StdioServerTransport`: it answers a line that is not UTF-8 or not JSON
 * with a JSON-RPC parse error (-32700, id null), drops a byte-order mark at the start of the stream, and stops
 * on a message over the limit with one clear line.
 */

/** The SDK's own buffer limit, the default of `serveStdio({ maxMessageBytes })`. */
export const DEFAULT_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

const parseError = (message: string) => `${JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message } })}\n`;
const NOT_JSON = parseError('Parse error: the line is not valid JSON.');
const NOT_UTF8 = parseError('Parse error: the line is not valid UTF-8.');

/** A line of JSON's own whitespace only (space, tab, carriage return): skipped, as the SDK skips it. */
const BLANK = /^[ \t\r]*$/;
/** The UTF-8 byte-order mark, which Windows PowerShell 5.1 writes at the start of a pipe. */
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** What the guard does at the edges. */
export interface StdinGuard {
  /** Largest message (one line) in bytes. */
  readonly maxMessageBytes: number;
  /** Where parse errors are answered: the transport's stdout. */
  readonly output: Writable;
  /** A line that is not JSON, or not UTF-8, was answered with a parse error. */
  readonly onNotJson: (what: 'JSON' | 'UTF-8') => void;
  /** A line outgrew `maxMessageBytes`: nothing more is read after this. */
  readonly onTooLarge: () => void;
}

const NEWLINE = 0x0a;

/**
 * stdin as the SDK transport should see it: only whole lines that parse as JSON, each within the limit.
 * Blank lines are skipped (the SDK skips them too); other lines that do not parse are answered -32700.
 */
export function guardStdin(input: Readable, guard: StdinGuard): Readable {
  let pending: Buffer[] = [];
  let size = 0;
  let stopped = false;
  let first = true;
  const refuse = (what: 'JSON' | 'UTF-8') => {
    guard.output.write(what === 'JSON' ? NOT_JSON : NOT_UTF8);
    guard.onNotJson(what);
  };
  // What passes is exactly what the loop and the SDK parse: the line is checked as JSON.parse reads it, not
  // trimmed by String.prototype.trim (which also drops a BOM, U+00A0 and U+2028, where JSON.parse throws).
  const forward = (raw: Buffer, push: (b: Buffer) => void) => {
    // Only the stream's own start may carry a byte-order mark: an encoding mark, not part of the message.
    const line = first && raw.subarray(0, 3).equals(BOM) ? raw.subarray(3) : raw;
    first = false;
    const text = utf8Text(line);
    if (text === undefined) return refuse('UTF-8');
    if (BLANK.test(text)) return;
    try {
      JSON.parse(text);
    } catch {
      return refuse('JSON');
    }
    push(Buffer.concat([line, Buffer.from('\n')]));
  };
  const stop = (stream: Transform) => {
    stopped = true;
    pending = [];
    input.unpipe(stream);
    input.pause();
    stream.end();
    guard.onTooLarge();
  };
  const lines = new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      if (stopped) return done();
      let start = 0;
      for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, start)) {
        const piece = chunk.subarray(start, at);
        if (size + piece.length > guard.maxMessageBytes) {
          stop(this);
          return done();
        }
        forward(pending.length === 0 ? piece : Buffer.concat([...pending, piece]), (b) => this.push(b));
        pending = [];
        size = 0;
        start = at + 1;
      }
      const rest = chunk.subarray(start);
      if (size + rest.length > guard.maxMessageBytes) {
        stop(this);
        return done();
      }
      if (rest.length > 0) {
        pending.push(rest);
        size += rest.length;
      }
      done();
    },
  });
  input.pipe(lines);
  return lines;
}

/** The stderr line of a message over the limit: what happened, the limit, and the option that sets it. */
export function tooLargeMessage(limit: number): string {
  return `onemodelcontext: a stdio message larger than ${limit} bytes arrived; the server stops. Raise the limit with serveStdio({ maxMessageBytes }).`;
}
