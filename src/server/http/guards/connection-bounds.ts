import { UsageTypeError } from '../../../errors';
import type { Server as HttpServer } from 'node:http';
import type { Socket } from 'node:net';
import { printable, type Log } from '../../../log';
import { checkTrustedProxies } from './option-checks';
import type { ServeHttpOptions } from './options';

/** `serveHttp()`'s bounds on slow clients unless given: a connection must not hold the server for Node's 300 s. */
const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 64;

/** What `serveHttp()` bounds a connection by, checked. */
export interface ConnectionBounds {
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly maxConnectionsPerAddress: number;
}

/** The longest delay a Node timer keeps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

function checkTimeout(name: string, value: number | undefined, fallback: number): number {
  const ms = value ?? fallback;
  if (!Number.isInteger(ms) || ms < 1 || ms > MAX_TIMER_MS) {
    throw new UsageTypeError(
      `${name} takes a whole number of milliseconds from 1, for example { ${name}: ${fallback} }; got ${String(value)}.`,
    );
  }
  return ms;
}

export function connectionBounds(options: ServeHttpOptions): ConnectionBounds {
  const headersTimeoutMs = checkTimeout('headersTimeoutMs', options.headersTimeoutMs, DEFAULT_HEADERS_TIMEOUT_MS);
  const requestTimeoutMs = checkTimeout(
    'requestTimeoutMs',
    options.requestTimeoutMs,
    Math.max(DEFAULT_REQUEST_TIMEOUT_MS, headersTimeoutMs),
  );
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new UsageTypeError(
      `headersTimeoutMs (${headersTimeoutMs}) must not be above requestTimeoutMs (${requestTimeoutMs}): the headers are part of the request.`,
    );
  }
  const cap =
    options.maxConnectionsPerAddress ?? (checkTrustedProxies(options.trustedProxies) > 0 ? Infinity : DEFAULT_MAX_CONNECTIONS_PER_ADDRESS);
  if (cap !== Infinity && (!Number.isInteger(cap) || cap < 1)) {
    throw new UsageTypeError(
      `maxConnectionsPerAddress takes a whole number from 1 (or Infinity for no cap), for example { maxConnectionsPerAddress: 64 }; got ${String(options.maxConnectionsPerAddress)}.`,
    );
  }
  return { headersTimeoutMs, requestTimeoutMs, maxConnectionsPerAddress: cap };
}

/** How often Node looks for requests past their bounds (its default, 30 s, would let a 10 s bound run to 40 s). */
export function checkingIntervalOf(bounds: ConnectionBounds): number {
  return Math.max(10, Math.min(1000, Math.floor(bounds.headersTimeoutMs / 2)));
}

/** How long a cap's warning for one address holds while the address stays over it. */
const CAP_WARNING_INTERVAL_MS = 60_000;

/**
 * Caps the connections open at once from one remote address: one past the cap is destroyed as it arrives (nothing
 * is read from it, so a flood costs no parsing). One warning per address and burst: the burst ends once the
 * address has no connection left, or a minute after its warning. Only addresses with a connection open are kept.
 */
export function capConnectionsPerAddress(http: HttpServer, cap: number, log: Log): void {
  if (cap === Infinity) return;
  const open = new Map<string, { count: number; warnedAt?: number }>();
  http.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    let entry = open.get(address);
    if (entry && entry.count >= cap) {
      socket.destroy();
      const now = Date.now();
      if (entry.warnedAt === undefined || now - entry.warnedAt >= CAP_WARNING_INTERVAL_MS) {
        entry.warnedAt = now;
        log.warn(
          `${printable(address)} has ${cap} connections open, as many as maxConnectionsPerAddress allows; its further connections are closed at once`,
          {
            event: 'connection.refused',
          },
        );
      }
      return;
    }
    if (!entry) open.set(address, (entry = { count: 0 }));
    const counted = entry;
    counted.count++;
    socket.once('close', () => {
      if (--counted.count === 0 && open.get(address) === counted) open.delete(address);
    });
  });
}
