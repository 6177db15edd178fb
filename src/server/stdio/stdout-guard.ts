import type { Writable } from 'node:stream';
import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The stdout guard: over stdio, stdout carries only protocol messages, and one `console.log` in a tool, in a
 * module loaded while serving or in a dependency corrupts the stream a client reads. While a server serves
 * this process's stdio, `process.stdout.write` is replaced by a write to stderr (the bytes, encoding and
 * callback as given); the server's own messages go through a view of stdout whose `write` is the original.
 * The first stray write is reported once, naming where it came from; the original `write` is put back when the
 * last server serving stdio closes.
 */

/** What a guard's holder is told: the first stray write, and where it came from (`file:line:column`), if known. */
export type OnStray = (caller: string | undefined) => void;

/** stdout as one server holds it while the guard is on. */
export interface GuardedStdout {
  /** stdout for the protocol: the stream itself, but `write` is the original. */
  readonly protocol: Writable;
  /** Gives stdout back: once the last holder releases it, the original `write` is restored. */
  release(): void;
}

/** The streams a guard sits between: this process's stdout and stderr unless a test gives its own. */
export interface GuardStreams {
  readonly stdout: Writable;
  readonly stderr: Writable;
}

type Write = Writable['write'];

interface Guard {
  readonly protocol: Writable;
  readonly stray: Write;
  /** `write` as stdout held it before: an own property (someone patched it) or `undefined` for the prototype's. */
  readonly own: PropertyDescriptor | undefined;
  readonly holders: Set<OnStray>;
  warned: boolean;
  /** A 'drain' of stderr is awaited, to be heard on stdout. */
  relaying: boolean;
}

const guards = new WeakMap<Writable, Guard>();

/**
 * Guards `stdout` (default `process.stdout`) until the returned handle is released; a stream already guarded
 * is shared, and the first holder still holding it hears of the first stray write.
 */
export function guardStdout(onStray: OnStray, streams: GuardStreams = { stdout: process.stdout, stderr: process.stderr }): GuardedStdout {
  const { stdout } = streams;
  const guard = guards.get(stdout) ?? install(streams);
  guard.holders.add(onStray);
  let released = false;
  return {
    protocol: guard.protocol,
    release: () => {
      if (released) return;
      released = true;
      guard.holders.delete(onStray);
      if (guard.holders.size === 0) uninstall(stdout, guard);
    },
  };
}

function install({ stdout, stderr }: GuardStreams): Guard {
  const own = Object.getOwnPropertyDescriptor(stdout, 'write');
  const original = stdout.write;
  const protocolWrite = ((...args: Parameters<Write>) => original.apply(stdout, args)) as Write;
  const stray = function (this: unknown, chunk: unknown, encoding?: unknown, callback?: unknown): boolean {
    // The bytes first, then the word about them: the warning itself may be written through stdout.
    const written = (stderr.write as (...args: unknown[]) => boolean).call(stderr, chunk, encoding, callback);
    // A caller that waits for 'drain' waits on stdout: it hears stderr's.
    if (!written && !guard.relaying) {
      guard.relaying = true;
      stderr.once('drain', () => {
        guard.relaying = false;
        stdout.emit('drain');
      });
    }
    if (!guard.warned) {
      guard.warned = true;
      const caller = callerOf(stray);
      const [first] = guard.holders;
      first?.(caller);
    }
    return written;
  } as Write;
  const guard: Guard = { protocol: protocolView(stdout, protocolWrite), stray, own, holders: new Set(), warned: false, relaying: false };
  stdout.write = stray;
  guards.set(stdout, guard);
  return guard;
}

function uninstall(stdout: Writable, guard: Guard): void {
  guards.delete(stdout);
  // Someone replaced `write` after the guard did: theirs stays, and calls on to whatever it kept.
  if (stdout.write !== guard.stray) return;
  if (guard.own) Object.defineProperty(stdout, 'write', guard.own);
  else delete (stdout as { write?: Write }).write;
}

/**
 * stdout with the original `write`: every other member is the stream's own, called on the stream, so the
 * protocol's writers (the stdio loop, the SDK's transport) see its real backpressure, `drain` and errors.
 */
function protocolView(stdout: Writable, write: Write): Writable {
  const bound = new Map<PropertyKey, { readonly of: unknown; readonly fn: unknown }>();
  return new Proxy(stdout, {
    get(target, key) {
      if (key === 'write') return write;
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      const cached = bound.get(key);
      if (cached?.of === value) return cached.fn;
      const fn = (value as (...args: unknown[]) => unknown).bind(target);
      bound.set(key, { of: value, fn });
      return fn;
    },
  });
}

const FRAMES = 64;

/**
 * Where a stray write came from: the first frame of the stack below the guard's own write that is not Node's
 * (`node:internal/console/...` when it came through `console.log`), as `file:line:column`, relative to the
 * working directory when under it.
 */
export function callerOf(below: Function): string | undefined {
  const holder: { stack?: unknown } = {};
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = FRAMES;
  try {
    Error.captureStackTrace(holder, below);
  } finally {
    Error.stackTraceLimit = limit;
  }
  if (typeof holder.stack !== 'string') return undefined;
  for (const line of holder.stack.split('\n').slice(1)) {
    const location = locationOf(line);
    if (location !== undefined && !location.startsWith('node:') && !location.startsWith('internal/')) return shown(location);
  }
  return undefined;
}

/** The `file:line:column` of one V8 stack line (`at f (file:1:2)` or `at file:1:2`), if it has one. */
function locationOf(line: string): string | undefined {
  const match = /\(([^()]+:\d+:\d+)\)$/.exec(line) ?? /^\s*at (?:async )?([^()\s][^()]*:\d+:\d+)$/.exec(line);
  return match?.[1];
}

function shown(location: string): string {
  let where = location;
  if (where.startsWith('file://')) {
    const [, url, position] = /^(.*?)(:\d+:\d+)$/.exec(where)!;
    try {
      where = fileURLToPath(url!) + position!;
    } catch {
      // Not a file URL Node can read: shown as it is.
    }
  }
  const cwd = `${process.cwd()}${sep}`;
  return where.startsWith(cwd) ? where.slice(cwd.length) : where;
}

/** The warning of the first stray write. */
export function strayMessage(caller: string | undefined): string {
  return (
    `A write to stdout${caller === undefined ? '' : ` from ${caller}`} went to stderr: over stdio, stdout carries only protocol messages. ` +
    'Later ones go there unannounced. Log to stderr (console.error), or leave stdout unguarded with serveStdio({ guardStdout: false }).'
  );
}
