import { Transform, type Readable, type TransformCallback, type Writable } from 'node:stream';

/**
 * The edges of stdio the SDK's transport keeps quiet about: it drops a line that is not JSON without a
 * word, and when a message outgrows its buffer it closes, so the process ends with exit code 0. This
 * guard sits between stdin and the SDK's `StdioServerTransport`: it answers a line that is not JSON with
 * a JSON-RPC parse error (-32700, id null), and stops on a message over the limit with one clear line.
 */

/** The SDK's own buffer limit, the default of `serveStdio({ maxMessageBytes })`. */
export const DEFAULT_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

const PARSE_ERROR = `${JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the line is not valid JSON.' } })}\n`;

/** What the guard does at the edges. */
export interface StdinGuard {
  /** Largest message (one line) in bytes. */
  readonly maxMessageBytes: number;
  /** Where parse errors are answered: the transport's stdout. */
  readonly output: Writable;
  /** A line that is not JSON was answered with a parse error. */
  readonly onNotJson: () => void;
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
  const forward = (line: Buffer, push: (b: Buffer) => void) => {
    const text = line.toString('utf8').trim();
    if (text.length === 0) return;
    try {
      JSON.parse(text);
    } catch {
      guard.output.write(PARSE_ERROR);
      guard.onNotJson();
      return;
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
