import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
// The SDK's own interfaces, which McpServerOptions.eventBus takes as they are.
import type { ServerEvent, ServerEventBus } from '../index';
import { deliverAll, loggerOf, watchConnection, type RedisLogger } from './connect';

/** Options of {@link RedisEventBus}. */
export interface RedisEventBusOptions {
  /** Publishes events; commands only. */
  readonly publisher: Redis;
  /** Listens for the other instances' events; a connection of its own (a subscribed client runs no commands). */
  readonly subscriber: Redis;
  /** The pub/sub channel; every instance of one deployment uses the same. Default `onemodelcontext:events`. */
  readonly channel?: string;
  /** Default: one line per event on stderr; `false` silences. */
  readonly logger?: RedisLogger | false;
}

interface Envelope {
  /** The instance that published it, so it does not hear its own event twice. */
  readonly origin: string;
  readonly event: ServerEvent;
}

const KINDS = new Set(['tools_list_changed', 'prompts_list_changed', 'resources_list_changed', 'resource_updated']);

function parse(text: string): Envelope | undefined {
  try {
    const envelope = JSON.parse(text) as Envelope;
    const event = envelope?.event as { kind?: unknown; uri?: unknown } | undefined;
    if (typeof envelope.origin !== 'string' || !KINDS.has(String(event?.kind))) return undefined;
    if (event!.kind === 'resource_updated' && typeof event!.uri !== 'string') return undefined;
    // Rebuilt from the checked fields: nothing else a message carries reaches the listeners.
    const clean = (event!.kind === 'resource_updated' ? { kind: event!.kind, uri: event!.uri } : { kind: event!.kind }) as ServerEvent;
    return { origin: envelope.origin, event: clean };
  } catch {
    return undefined;
  }
}

/**
 * A `ServerEventBus` over Redis pub/sub: catalog changes and resource updates published on any instance reach
 * the clients connected to every instance (`McpServerOptions.eventBus`). Local listeners hear an event at once;
 * the others through Redis. Pub/sub delivers at most once: an instance cut off from Redis misses what was
 * published meanwhile, which is logged on both sides, never silent.
 * @example
 * const bus = new RedisEventBus({ publisher: redis, subscriber: redis.duplicate() });
 * await bus.start();
 * const server = new McpServer({ name: 'weather', version: '1.0.0' }, { eventBus: bus });
 */
export class RedisEventBus implements ServerEventBus {
  private readonly listeners = new Set<(event: ServerEvent) => void>();
  private readonly origin = randomUUID();
  private readonly channel: string;
  private readonly log: RedisLogger;

  constructor(private readonly options: RedisEventBusOptions) {
    this.channel = options.channel ?? 'onemodelcontext:events';
    this.log = loggerOf(options.logger);
  }

  /** Subscribes to the channel; resolves once Redis confirmed the subscription. */
  async start(): Promise<void> {
    watchConnection(this.options.subscriber, 'events', this.log);
    this.options.subscriber.on('message', (channel: string, text: string) => {
      if (channel !== this.channel) return;
      const envelope = parse(text);
      if (!envelope) return this.log.warn(`events: ignored a message on ${this.channel} that is not an event of this library.`);
      if (envelope.origin !== this.origin) this.deliver(envelope.event);
    });
    await this.options.subscriber.subscribe(this.channel);
  }

  publish(event: ServerEvent): void {
    this.deliver(event);
    const { publisher } = this.options;
    const miss = (reason: string) =>
      this.log.error(
        `events: could not share ${event.kind}${'uri' in event ? ` ${event.uri}` : ''} with the other instances (${reason}); their clients miss it.`,
      );
    if (publisher.status !== 'ready') return miss(`Redis connection is ${publisher.status}`);
    publisher
      .publish(this.channel, JSON.stringify({ origin: this.origin, event } satisfies Envelope))
      .catch((error: Error) => miss(error.message));
  }

  subscribe(listener: (event: ServerEvent) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** Stops listening to the channel (the connections stay yours to close). */
  async stop(): Promise<void> {
    this.listeners.clear();
    if (this.options.subscriber.status === 'ready') await this.options.subscriber.unsubscribe(this.channel);
  }

  /** A throwing listener does not keep the event from the others. */
  private deliver(event: ServerEvent): void {
    deliverAll(this.listeners, event, (error) =>
      this.log.error(`events: a listener failed on ${event.kind}: ${error instanceof Error ? error.message : String(error)}`),
    );
  }
}
