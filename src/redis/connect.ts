import type Redis from 'ioredis';
import { OneModelContextError } from '../index';

/**
 * Start-up and health of the Redis connection the shared stores use. The choice when Redis cannot be reached:
 * refuse to start (a clear error), because an instance serving without the shared stores would not see the
 * other instances' events and tasks, a split brain nobody notices. When Redis goes away later, the instance
 * keeps serving its own clients, logs every event or task it could not share, and its readiness check fails
 * so the load balancer stops sending it new work until Redis is back.
 */

/** Where the adapter reports trouble: `console`, the server's logger, anything with `error` and `warn`. */
export interface RedisLogger {
  error(message: string): void;
  warn(message: string): void;
}

/** One line per event on stderr, like the server's default logger. */
export const STDERR_LOGGER: RedisLogger = {
  error: (message) => void process.stderr.write(`[onemodelcontext/redis] error: ${message}\n`),
  warn: (message) => void process.stderr.write(`[onemodelcontext/redis] warn: ${message}\n`),
};

const SILENT: RedisLogger = { error: () => undefined, warn: () => undefined };

export function loggerOf(logger: RedisLogger | false | undefined): RedisLogger {
  return logger === false ? SILENT : (logger ?? STDERR_LOGGER);
}

/**
 * Redis could not be reached when the stores started.
 * @example
 * try { await connectRedis({ client }); } catch (error) { if (error instanceof RedisUnavailableError) process.exit(1); }
 */
export class RedisUnavailableError extends OneModelContextError {
  readonly code = 'REDIS_UNAVAILABLE';

  constructor(where: string, reason: string) {
    super(
      `Redis at ${where} is unavailable (${reason}). onemodelcontext/redis refuses to start without it: this instance ` +
        'would not share events, stream resumption or tasks with the others. Start Redis or fix the connection options.',
    );
  }
}

/** `host:port` of a client, for messages (never its password). */
export function whereOf(client: Redis): string {
  const { host, port, path } = client.options;
  return path ? String(path) : `${host ?? '127.0.0.1'}:${port ?? 6379}`;
}

/** Resolves once the client answers PING; rejects with {@link RedisUnavailableError} after `timeoutMs`. */
export async function ensureConnected(client: Redis, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RedisUnavailableError(whereOf(client), `no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    if (client.status === 'wait') await Promise.race([client.connect(), late]);
    await Promise.race([client.ping(), late]);
  } catch (error) {
    if (error instanceof RedisUnavailableError) throw error;
    throw new RedisUnavailableError(whereOf(client), error instanceof Error ? error.message : String(error));
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Logs once when a client loses Redis and once when it is back, instead of once per reconnection attempt;
 * `ioredis` emits `error` on every failed attempt, and an unhandled `error` event would end the process.
 */
export function watchConnection(client: Redis, name: string, log: RedisLogger): void {
  let lost = false;
  client.on('error', (error: Error) => {
    if (lost) return;
    lost = true;
    log.error(
      `${name}: lost the connection to Redis at ${whereOf(client)} (${error.message}); retrying. Until it is back this instance does not share ${name === 'events' ? 'events' : 'state'} with the others.`,
    );
  });
  client.on('ready', () => {
    if (!lost) return;
    lost = false;
    log.warn(`${name}: connected to Redis at ${whereOf(client)} again.`);
  });
}

/** Calls every listener with `value`; a throwing listener is reported and does not keep it from the others. */
export function deliverAll<T>(listeners: ReadonlySet<(value: T) => void>, value: T, failed: (error: unknown) => void): void {
  for (const listener of [...listeners]) {
    try {
      listener(value);
    } catch (error) {
      failed(error);
    }
  }
}
