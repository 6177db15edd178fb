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
}

interface Stored {
  readonly streamId: string;
  readonly message: JSONRPCMessage;
}

/**
 * The default {@link EventStore}: the latest events of every stream, in this process's memory.
 * Event ids are `<streamId>_<sequence>`, increasing in the order events were stored.
 * @example
 * const server = new McpServer({ name: 'weather', version: '1.0.0' });
 * await server.serveHttp({ port: 3000, eventStore: new InMemoryEventStore({ maxEvents: 1000 }) });
 */
export class InMemoryEventStore implements SdkEventStore {
  private readonly events = new Map<string, Stored>();
  private readonly maxEvents: number;
  private sequence = 0;

  constructor(options: InMemoryEventStoreOptions = {}) {
    const maxEvents = options.maxEvents ?? 10_000;
    if (!Number.isInteger(maxEvents) || maxEvents < 1) throw new TypeError(`InMemoryEventStore needs maxEvents of at least 1, for example { maxEvents: 10000 }; got ${String(maxEvents)}.`);
    this.maxEvents = maxEvents;
  }

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const eventId = `${streamId}_${++this.sequence}`;
    this.events.set(eventId, { streamId, message });
    // A Map iterates in insertion order, so the first key is the oldest event.
    if (this.events.size > this.maxEvents) this.events.delete(this.events.keys().next().value as string);
    return eventId;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.events.get(eventId)?.streamId;
  }

  async replayEventsAfter(lastEventId: string, { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> }): Promise<string> {
    const last = this.events.get(lastEventId);
    if (!last) throw new Error('Unknown or expired Last-Event-ID.');
    let after = false;
    for (const [eventId, event] of this.events) {
      if (after && event.streamId === last.streamId && !isPriming(event.message)) await send(eventId, event.message);
      if (eventId === lastEventId) after = true;
    }
    return last.streamId;
  }
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
export function sessionScoped(store: EventStore, sessionId: string): EventStore {
  const prefix = `${sessionId}/`;
  const own = (streamId: string | undefined) => (streamId?.startsWith(prefix) ? streamId.slice(prefix.length) : undefined);
  return {
    storeEvent: (streamId, message) => store.storeEvent(prefix + streamId, message),
    async getStreamIdForEventId(eventId) {
      if (store.getStreamIdForEventId) return own(await store.getStreamIdForEventId(eventId));
      return undefined;
    },
    async replayEventsAfter(lastEventId, { send }) {
      // Without getStreamIdForEventId the owner is checked before anything is sent.
      if (store.getStreamIdForEventId && own(await store.getStreamIdForEventId(lastEventId)) === undefined) throw new Error('Unknown or expired Last-Event-ID.');
      const streamId = own(await store.replayEventsAfter(lastEventId, { send }));
      if (streamId === undefined) throw new Error('Unknown or expired Last-Event-ID.');
      return streamId;
    },
  };
}
