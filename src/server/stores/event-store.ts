import { StoreError, UsageTypeError } from '../../errors';
import type { EventStore as SdkEventStore, JSONRPCMessage } from '@modelcontextprotocol/server';

/**
 * Where a 2025-era HTTP session's SSE events are kept so a client that lost its connection can resume with
 * `Last-Event-ID` and receive what it missed (`HttpHandlerOptions.eventStore`). This is the MCP SDK's own
 * interface: implement it over a shared store (Redis streams, a database) when sessions may resume on another
 * process.
 * @example
 * const store: EventStore = new InMemoryEventStore({ maxEvents: 50_000 });
 * await server.serveHttp({ port: 3000, eventStore: store });
 */
export type EventStore = SdkEventStore;

/** Options of {@link InMemoryEventStore}. */
export interface InMemoryEventStoreOptions {
  /** Events kept in all (the oldest go first); default 10,000. A client that resumes after more were sent misses the oldest. */
  readonly maxEvents?: number;
  /** Bytes of events kept in all, counted as their JSON text (the oldest go first); default 64 MiB. */
  readonly maxBytes?: number;
}

/**
 * An event store that can drop the events of streams whose id starts with a prefix. The session table calls it
 * when a session is deleted or expires, so its events go with it; a store without it keeps them until they age out.
 */
export interface ForgettingEventStore {
  forgetStreams(prefix: string): void | Promise<void>;
}

interface Stored {
  readonly streamId: string;
  readonly message: JSONRPCMessage;
  readonly bytes: number;
}

const DEFAULT_MAX_EVENTS = 10_000;
const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

/**
 * The default {@link EventStore}: the latest events of every stream, in this process's memory.
 * Event ids are `<streamId>_<sequence>`, increasing in the order events were stored.
 * @example
 * const server = new McpServer({ name: 'weather', version: '1.0.0' });
 * await server.serveHttp({ port: 3000, eventStore: new InMemoryEventStore({ maxEvents: 1000 }) });
 */
export class InMemoryEventStore implements SdkEventStore, ForgettingEventStore {
  private readonly events = new Map<string, Stored>();
  /** Each stream's event ids, oldest first. */
  private readonly streams = new Map<string, string[]>();
  private readonly maxEvents: number;
  private readonly maxBytes: number;
  private bytes = 0;
  private sequence = 0;

  constructor(options: InMemoryEventStoreOptions = {}) {
    this.maxEvents = atLeastOne('maxEvents', options.maxEvents ?? DEFAULT_MAX_EVENTS, DEFAULT_MAX_EVENTS);
    this.maxBytes = atLeastOne('maxBytes', options.maxBytes ?? DEFAULT_MAX_BYTES, DEFAULT_MAX_BYTES);
  }

  /** Events and bytes kept now. */
  get size(): Readonly<{ events: number; bytes: number }> {
    return { events: this.events.size, bytes: this.bytes };
  }

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const eventId = `${streamId}_${++this.sequence}`;
    const bytes = JSON.stringify(message).length;
    this.events.set(eventId, { streamId, message, bytes });
    this.bytes += bytes;
    const ids = this.streams.get(streamId);
    if (ids) ids.push(eventId);
    else this.streams.set(streamId, [eventId]);
    // A Map iterates in insertion order, so the first key is the oldest event (and the oldest of its stream).
    while (this.events.size > this.maxEvents || (this.bytes > this.maxBytes && this.events.size > 1)) this.dropOldest();
    return eventId;
  }

  forgetStreams(prefix: string): void {
    for (const [streamId, ids] of this.streams) {
      if (!streamId.startsWith(prefix)) continue;
      for (const id of ids) this.bytes -= this.events.get(id)?.bytes ?? 0;
      for (const id of ids) this.events.delete(id);
      this.streams.delete(streamId);
    }
  }

  private dropOldest(): void {
    const [eventId, event] = this.events.entries().next().value as [string, Stored];
    this.events.delete(eventId);
    this.bytes -= event.bytes;
    const ids = this.streams.get(event.streamId)!;
    ids.shift();
    if (ids.length === 0) this.streams.delete(event.streamId);
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.events.get(eventId)?.streamId;
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const last = this.events.get(lastEventId);
    if (!last) throw new StoreError('Unknown or expired Last-Event-ID.');
    let after = false;
    for (const [eventId, event] of this.events) {
      if (after && event.streamId === last.streamId && !isPriming(event.message)) await send(eventId, event.message);
      if (eventId === lastEventId) after = true;
    }
    return last.streamId;
  }
}

function atLeastOne(option: string, value: number, example: number): number {
  if (!Number.isInteger(value) || value < 1)
    throw new UsageTypeError(
      `InMemoryEventStore needs ${option} of at least 1, for example { ${option}: ${example} }; got ${String(value)}.`,
    );
  return value;
}

/** Whether `store` can drop a closed session's events. */
export function canForget(store: object): store is ForgettingEventStore {
  return typeof (store as Partial<ForgettingEventStore>).forgetStreams === 'function';
}

/** The SDK stores the empty priming event of each stream too; it carries nothing to replay. */
function isPriming(message: JSONRPCMessage): boolean {
  return Object.keys(message).length === 0;
}

/**
 * One session's view of a shared store. The SDK names every session's standalone GET stream alike, so stream ids
 * are prefixed with the session id here: a session stores under its own names and can only resume (replay) its
 * own streams; another session's `Last-Event-ID` is answered as unknown.
 */
export function sessionScoped(store: EventStore, sessionId: string): EventStore & { forget(): void } {
  const prefix = `${sessionId}/`;
  const own = (streamId: string | undefined) => (streamId?.startsWith(prefix) ? streamId.slice(prefix.length) : undefined);
  return {
    storeEvent: (streamId, message) => store.storeEvent(prefix + streamId, message),
    /** Drops the session's events (it was deleted or expired), where the store can. */
    forget: () => void (canForget(store) ? Promise.resolve(store.forgetStreams(prefix)).catch(() => undefined) : undefined),
    async getStreamIdForEventId(eventId) {
      if (store.getStreamIdForEventId) return own(await store.getStreamIdForEventId(eventId));
      return undefined;
    },
    async replayEventsAfter(lastEventId, { send }) {
      // Without getStreamIdForEventId the owner is checked before anything is sent.
      if (store.getStreamIdForEventId && own(await store.getStreamIdForEventId(lastEventId)) === undefined)
        throw new StoreError('Unknown or expired Last-Event-ID.');
      const streamId = own(await store.replayEventsAfter(lastEventId, { send }));
      if (streamId === undefined) throw new StoreError('Unknown or expired Last-Event-ID.');
      return streamId;
    },
  };
}
