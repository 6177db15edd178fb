import { StoreError, UsageTypeError } from '../index';
import type Redis from 'ioredis';
// The SDK's own interface, which serveHttp({ eventStore }) takes as it is.
import type { EventStore } from '../index';

/** Options of {@link RedisEventStore}. */
export interface RedisEventStoreOptions {
  readonly client: Redis;
  /** Prefix of every key. Default `onemodelcontext:`. */
  readonly prefix?: string;
  /** A stream's events are dropped this long after its last event. Default 5 minutes. */
  readonly ttlMs?: number;
  /** Most events kept per stream (approximately: Redis trims whole nodes); the oldest go first. Default 1,000. */
  readonly maxEventsPerStream?: number;
}

type Message = Parameters<EventStore['storeEvent']>[1];

/** `<streamId>|<Redis stream entry id>`; the entry id is `<ms>-<seq>`. */
const EVENT_ID = /^(.+)\|(\d+-\d+)$/;

function parseEventId(eventId: string): { streamId: string; entry: string } | undefined {
  const match = EVENT_ID.exec(eventId);
  return match ? { streamId: match[1], entry: match[2] } : undefined;
}

/** The SDK stores an empty priming event at the start of each stream; it carries nothing to replay. */
const isPriming = (message: object) => Object.keys(message).length === 0;

/**
 * An `EventStore` (SSE resumption with `Last-Event-ID`) over Redis streams: one stream key per SSE stream,
 * trimmed to `maxEventsPerStream` and expiring `ttlMs` after its last event, so nothing grows without bound.
 * Events are kept outside the process that wrote them: memory stays flat however many clients resume late.
 * @example
 * const server = new McpServer({ name: 'weather', version: '1.0.0' });
 * await server.serveHttp({ port: 3000, eventStore: new RedisEventStore({ client: redis }) });
 */
export class RedisEventStore implements EventStore {
  private readonly prefix: string;
  private readonly ttlMs: number;
  private readonly maxEvents: number;

  constructor(private readonly options: RedisEventStoreOptions) {
    this.prefix = options.prefix ?? 'onemodelcontext:';
    this.ttlMs = positive(options.ttlMs ?? 5 * 60_000, 'ttlMs');
    this.maxEvents = positive(options.maxEventsPerStream ?? 1000, 'maxEventsPerStream');
  }

  async storeEvent(streamId: string, message: Message): Promise<string> {
    const key = this.keyOf(streamId);
    const results = await this.options.client
      .multi()
      .xadd(key, 'MAXLEN', '~', this.maxEvents, '*', 'm', JSON.stringify(message))
      .pexpire(key, this.ttlMs)
      .exec();
    const [error, entry] = results?.[0] ?? [new StoreError('the transaction was discarded'), null];
    if (error) throw error;
    return `${streamId}|${entry as string}`;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    const parsed = parseEventId(eventId);
    if (!parsed) return undefined;
    const found = await this.options.client.xrange(this.keyOf(parsed.streamId), parsed.entry, parsed.entry);
    return found.length > 0 ? parsed.streamId : undefined;
  }

  async replayEventsAfter(lastEventId: string, { send }: { send: (eventId: string, message: Message) => Promise<void> }): Promise<string> {
    const streamId = await this.getStreamIdForEventId(lastEventId);
    if (streamId === undefined) throw new StoreError('Unknown or expired Last-Event-ID.');
    const { entry } = parseEventId(lastEventId)!;
    // `(` makes the start exclusive: the events after the last one the client saw.
    const entries = await this.options.client.xrange(this.keyOf(streamId), `(${entry}`, '+', 'COUNT', this.maxEvents);
    for (const [id, fields] of entries) {
      const message = JSON.parse(fields[1]) as Message;
      if (!isPriming(message)) await send(`${streamId}|${id}`, message);
    }
    return streamId;
  }

  /** Answers once Redis does: the server asks before it opens a session, so a paused Redis refuses it (503). */
  async ping(): Promise<void> {
    await this.options.client.ping();
  }

  /** False while the connection to Redis is down: the server refuses new sessions at once instead of waiting. */
  available(): boolean {
    return this.options.client.status === 'ready';
  }

  private keyOf(streamId: string): string {
    return `${this.prefix}sse:${streamId}`;
  }
}

function positive(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1)
    throw new UsageTypeError(`RedisEventStore needs ${name} as a positive integer; got ${String(value)}.`);
  return value;
}
