import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/server';
import { UsageTypeError } from '../../errors';
import type { Log } from '../../log';
import { stageOut } from '../protocol/stages';
import { StdioLoop, type LoopSettings } from './loop';
import { DEFAULT_MAX_MESSAGE_BYTES, guardStdin, tooLargeMessage } from './stdio';
import { guardStdout, strayMessage, type GuardedStdout } from './stdout-guard';

/** The SDK's stdio entry, loaded when a connection first needs it: the stdio loop answers before that (loop.ts). */
export function sdkStdio(): typeof import('@modelcontextprotocol/server/stdio') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('@modelcontextprotocol/server/stdio') as typeof import('@modelcontextprotocol/server/stdio');
}

/** `serveStdio({ guardStdout })`: on unless `false`. */
export function checkGuardStdout(value: unknown): boolean {
  if (value === undefined) return true;
  if (typeof value !== 'boolean') throw new UsageTypeError(`serveStdio({ guardStdout }) takes true or false; got ${String(value)}.`);
  return value;
}

/** `serveStdio({ maxMessageBytes })`: a whole number from 1024, default 10 MiB. */
export function checkMaxMessageBytes(value: number | undefined): number {
  if (value === undefined) return DEFAULT_MAX_MESSAGE_BYTES;
  if (!Number.isSafeInteger(value) || value < 1024) {
    throw new UsageTypeError(
      `serveStdio({ maxMessageBytes }) takes a whole number of bytes from 1024, for example { maxMessageBytes: 32 * 1024 * 1024 }; got ${String(value)}.`,
    );
  }
  return value;
}

/**
 * `process.stdout` kept for the protocol while serving (stdout-guard.ts): other writes go to stderr, the first
 * logged once (`stdout.redirected`): the stream the protocol writes to, and the guard's release.
 */
export function guardProcessStdout(log: Log): GuardedStdout {
  return guardStdout((caller) => log.warn(strayMessage(caller), { event: 'stdout.redirected' }));
}

/** What stdio over a pair of streams is served with (`McpServer` gives it). */
export interface StreamServing {
  /** The loop's settings, without the hand-over, which connects through `connect`. */
  readonly settings: () => Omit<LoopSettings, 'handOff'>;
  /** Serves one connection over an SDK transport (`McpServer.connect`). */
  readonly connect: (transport: Transport) => Promise<void>;
  /** Stops everything the server serves (a message over the limit ends the process). */
  readonly close: () => Promise<void>;
  /** Keeps what is served, for the server's close and shutdown. */
  readonly track: (served: { close(): Promise<void> }) => void;
}

/**
 * stdio over any pair of streams: through the stdio loop (loop.ts), which answers the opening and the lists
 * before the SDK is loaded, unless `loop` is off or a feature it does not serve is on; else through the SDK's
 * stdio transport from the start.
 */
export async function serveStreams(
  stdin: Readable,
  stdout: Writable,
  maxMessageBytes: number,
  loop: boolean,
  serving: StreamServing,
): Promise<void> {
  const settings = serving.settings();
  const input = guardStdin(stdin, {
    maxMessageBytes,
    output: stdout,
    onNotJson: (what) =>
      settings.log.warn(`A stdio line that is not ${what} was answered with a parse error (-32700)`, { event: 'transport.failed' }),
    onTooLarge: () => {
      // Written straight to stderr, whatever the logger: the process is about to end because of it.
      process.stderr.write(`${tooLargeMessage(maxMessageBytes)}\n`);
      process.exitCode = 1;
      void serving.close().finally(() => process.exit(1));
    },
  });
  // The guard passes whole lines within the limit, so the SDK's own buffer limit is never the one hit.
  const transport = (lines: Readable) => new (sdkStdio().StdioServerTransport)(lines, stdout, { maxBufferSize: 2 * maxMessageBytes + 2 });
  if (!loop || settings.needsSdk()) return serving.connect(transport(input));
  const handOff = async (lines: Readable, suppress: (message: object) => boolean) => {
    const sdkTransport = transport(lines);
    stageOut(sdkTransport, 'stdio-hand-over', (message) => (suppress(message) ? Promise.resolve() : message));
    await serving.connect(sdkTransport);
  };
  serving.track(new StdioLoop({ ...settings, handOff }, input, stdout));
}
