import type Redis from 'ioredis';
import { ensureConnected, loggerOf, watchConnection, type RedisLogger } from './connect';
import { RedisEventBus } from './event-bus';
import { RedisEventStore } from './event-store';
import { RedisTaskStore } from './task-store';

/** Options of {@link connectRedis}. */
export interface RedisStoresOptions {
  /**
   * An `ioredis` client, configured as you need (URL, TLS, password, Sentinel); the stores use it for
   * commands and a duplicate of it for pub/sub. Closing it is yours.
   */
  readonly client: Redis;
  /** Prefix of every key and channel; one per deployment sharing a Redis. Default `onemodelcontext:`. */
  readonly prefix?: string;
  /** How long start-up waits for Redis before refusing to start. Default 5 seconds. */
  readonly connectTimeoutMs?: number;
  /** SSE events are kept this long after a stream's last event, for resumption. Default 5 minutes. */
  readonly eventTtlMs?: number;
  /** How long a task without a `ttl` of its own is kept. Default 24 hours. */
  readonly maxTaskTtlMs?: number;
  /** How long a task stays `working` once the instance running it stopped renewing its lease (died). Default 30 seconds. */
  readonly taskRunnerLeaseMs?: number;
  /** Most events kept per SSE stream. Default 1,000. */
  readonly maxEventsPerStream?: number;
  /** Default: one line per event on stderr; `false` silences. */
  readonly logger?: RedisLogger | false;
}

/** The shared stores of one instance, ready to hand to `McpServer` and `serveHttp`. */
export interface RedisStores {
  /** `McpServerOptions.eventBus`: list changes and resource updates reach every instance's clients. */
  readonly eventBus: RedisEventBus;
  /** `serveHttp({ eventStore })`: SSE events for `Last-Event-ID` resumption, kept in Redis. */
  readonly eventStore: RedisEventStore;
  /** `McpServerOptions.taskStore`: tasks polled, fetched and cancelled through any instance. */
  readonly taskStore: RedisTaskStore;
  /** For `serveHttp({ health: { ready } })`: false while either connection to Redis is down. */
  readonly ready: () => boolean;
  /** Stops listening and closes the pub/sub connection (the client you passed stays open). */
  close(): Promise<void>;
}

/**
 * Connects the shared stores of one instance; rejects with `RedisUnavailableError` when Redis does not answer
 * within `connectTimeoutMs` (the instance should not start: see docs/scaling.md).
 * @example
 * import Redis from 'ioredis';
 * const redis = await connectRedis({ client: new Redis(process.env.REDIS_URL!) });
 * const server = new McpServer({ name: 'weather', version: '1.0.0' }, { eventBus: redis.eventBus, taskStore: redis.taskStore });
 * await server.serveHttp({ port: 3000, eventStore: redis.eventStore, health: { ready: redis.ready } });
 */
export async function connectRedis(options: RedisStoresOptions): Promise<RedisStores> {
  const { client } = options;
  const prefix = options.prefix ?? 'onemodelcontext:';
  const timeout = options.connectTimeoutMs ?? 5_000;
  const logger = loggerOf(options.logger);
  await ensureConnected(client, timeout);
  watchConnection(client, 'commands', logger);
  const subscriber = client.duplicate();
  try {
    await ensureConnected(subscriber, timeout);
    const eventBus = new RedisEventBus({ publisher: client, subscriber, channel: `${prefix}events`, logger });
    await eventBus.start();
    const eventStore = new RedisEventStore({ client, prefix, ttlMs: options.eventTtlMs, maxEventsPerStream: options.maxEventsPerStream });
    const taskStore = new RedisTaskStore({
      client,
      subscriber,
      prefix,
      maxTtlMs: options.maxTaskTtlMs,
      runnerLeaseMs: options.taskRunnerLeaseMs,
      logger,
    });
    await taskStore.start();
    return {
      eventBus,
      eventStore,
      taskStore,
      ready: () => client.status === 'ready' && subscriber.status === 'ready',
      async close() {
        await eventBus.stop();
        await taskStore.stop();
        subscriber.disconnect();
      },
    };
  } catch (error) {
    subscriber.disconnect();
    throw error;
  }
}
