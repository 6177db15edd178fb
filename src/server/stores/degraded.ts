import { StoreError, UsageTypeError } from '../../errors';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import type { Log } from '../../log';
import { canForget, type EventStore } from './event-store';

/**
 * Degraded mode (issue 25): an operation that needs a shared store (Redis) has a time bound; past it, or when
 * the store is known to be down, the operation fails with {@link StoreUnavailableError}, which the HTTP layer
 * answers 503 with `Retry-After` and the JSON-RPC layer answers with a "temporarily unable" error. Neither ever
 * carries the store's own text: that goes to the log, once per outage.
 */

/** Default bound of one store operation. */
export const DEFAULT_STORE_TIMEOUT_MS = 1000;

/**
 * How long a store that failed is treated as down before it is tried again. Short on purpose: it only has to turn a
 * burst during an outage into quick refusals; once the store is back, new sessions and task calls open again
 * within a second (clients recovered 4 to 8 s after each fault ended with a 5 s cooldown).
 */
const COOLDOWN_MS = 1000;

/** The JSON-RPC code of "the server is temporarily unable" (the implementation-defined server error range). */
export const TEMPORARILY_UNAVAILABLE = -32000;

/**
 * A shared store (Redis, a database) could not do an operation within its bound. The message names the store
 * and says the server is temporarily unable; `cause` keeps what the store said, for the log only.
 * @example
 * if (error instanceof StoreUnavailableError) res.setHeader('retry-after', String(error.retryAfterSeconds));
 */
export class StoreUnavailableError extends Error {
  /** Seconds after which trying again may succeed. */
  readonly retryAfterSeconds: number;
  /** The JSON-RPC error code the SDK answers a request failing with this error with. */
  readonly code = TEMPORARILY_UNAVAILABLE;

  constructor(store: string, reason: string, options: { cause?: unknown; retryAfterSeconds?: number } = {}) {
    super(`The server is temporarily unable to use its ${store} (${reason}); try again shortly.`, { cause: options.cause });
    this.name = 'StoreUnavailableError';
    this.retryAfterSeconds = options.retryAfterSeconds ?? Math.ceil(COOLDOWN_MS / 1000);
  }

  /** The JSON-RPC error's `data`: when to try again. */
  get data(): { readonly retryAfterSeconds: number } {
    return { retryAfterSeconds: this.retryAfterSeconds };
  }
}

export function checkStoreTimeout(value: number | undefined): number {
  const ms = value ?? DEFAULT_STORE_TIMEOUT_MS;
  if (!Number.isInteger(ms) || ms < 1)
    throw new UsageTypeError(
      `storeTimeoutMs takes a whole number of milliseconds from 1, for example { storeTimeoutMs: 1000 }; got ${String(value)}.`,
    );
  return ms;
}

/** Why a store operation failed, in one line for the log (the store's own text stays here). */
function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Remembers that a store failed, for a short cooldown, so a burst of requests during an outage is answered at
 * once instead of each waiting out the bound; and logs the outage and the recovery once each.
 */
export class StoreHealth {
  private downUntil = 0;
  private down = false;

  constructor(
    private readonly store: string,
    private readonly timeoutMs: number,
    private readonly log: Log,
    /** What the store itself knows of its connection (Redis: the client's status), if anything. */
    private readonly connected: () => boolean = () => true,
  ) {}

  /** Whether an operation may be tried now. */
  get available(): boolean {
    return this.connected() && Date.now() >= this.downUntil;
  }

  /** Seconds until the cooldown ends (at least 1). */
  get retryAfterSeconds(): number {
    return Math.max(1, Math.ceil((this.downUntil - Date.now()) / 1000));
  }

  /** Runs `operation` within the bound; a failure or a timeout marks the store down and throws {@link StoreUnavailableError}. */
  async run<T>(what: string, operation: () => Promise<T>): Promise<T> {
    if (!this.available) throw this.unavailable(what);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new StoreError(`no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
    });
    try {
      const result = await Promise.race([operation(), late]);
      this.recovered();
      return result;
    } catch (error) {
      this.failed(what, error);
      throw new StoreUnavailableError(this.store, 'it did not answer in time', { cause: error, retryAfterSeconds: this.retryAfterSeconds });
    } finally {
      clearTimeout(timer);
    }
  }

  /** The error for an operation not tried because the store is down; the outage is logged once. */
  unavailable(what: string): StoreUnavailableError {
    this.failed(what, new StoreError(this.connected() ? 'it failed moments ago' : 'its connection is down'), false);
    return new StoreUnavailableError(this.store, 'it is unavailable', { retryAfterSeconds: this.retryAfterSeconds });
  }

  /** Marks the store down (a fresh failure restarts the cooldown) and logs the outage once. */
  private failed(what: string, error: unknown, fresh = true): void {
    if (fresh) this.downUntil = Date.now() + COOLDOWN_MS;
    if (this.down) return;
    this.down = true;
    this.log.error(
      `The ${this.store} could not ${what} (${reasonOf(error)}); treating it as unavailable for ${COOLDOWN_MS / 1000} s at a time until it answers again.`,
      {
        event: 'store.unavailable',
      },
    );
  }

  private recovered(): void {
    if (!this.down) return;
    this.down = false;
    this.log.warn(`The ${this.store} answers again.`, { event: 'store.unavailable' });
  }
}

/** An event store that can say it is down (the Redis one: its connection is lost), and be asked whether it answers. */
interface KnowsAvailability {
  available(): boolean;
  ping(): Promise<void>;
}

function connectionOf(store: EventStore): () => boolean {
  const knows = store as Partial<KnowsAvailability>;
  return typeof knows.available === 'function' ? () => knows.available!() : () => true;
}

/** An {@link EventStore} whose operations are bounded, with what the session table needs to know of its health. */
export interface GuardedEventStore extends EventStore {
  readonly health: StoreHealth;
  /**
   * Resolves when a new session may open: at once while the store is not known to be down, or, for a store that can
   * be pinged (Redis), once it answered within the bound. Rejects with {@link StoreUnavailableError} otherwise, so
   * `initialize` is answered 503 whenever the store is unavailable, not only after another operation found out.
   */
  ready(): Promise<void>;
}

/**
 * Bounds a shared event store. An event that cannot be stored is not kept, and the stream goes on without it
 * (its id names it as unkept, so a resume from it is answered as lost): a call's answer is never held up or
 * lost for want of its replay copy. Looking events up for a resume fails with {@link StoreUnavailableError}.
 */
export function guardedEventStore(store: EventStore, timeoutMs: number, log: Log): GuardedEventStore {
  const health = new StoreHealth('event store', timeoutMs, log, connectionOf(store));
  let unkept = 0;
  const pings = store as Partial<KnowsAvailability>;
  return {
    health,
    ready: () => {
      if (!health.available) return Promise.reject(health.unavailable('open a new session'));
      return typeof pings.ping === 'function' ? health.run('open a new session', () => pings.ping!()) : Promise.resolve();
    },
    async storeEvent(streamId: string, message: JSONRPCMessage) {
      try {
        return await health.run('store an SSE event', () => store.storeEvent(streamId, message));
      } catch (error) {
        if (!(error instanceof StoreUnavailableError)) throw error;
        return `${streamId}#unkept-${++unkept}`;
      }
    },
    ...(store.getStreamIdForEventId && {
      getStreamIdForEventId: (eventId: string) => health.run('look up an SSE event', () => store.getStreamIdForEventId!(eventId)),
    }),
    replayEventsAfter: (lastEventId, sink) => health.run('replay SSE events', () => store.replayEventsAfter(lastEventId, sink)),
    ...(canForget(store) && {
      // A closed session's events: dropped when the store answers; otherwise they age out as the store keeps them.
      forgetStreams: (prefix: string) =>
        health
          .run("drop a closed session's SSE events", async () => store.forgetStreams(prefix))
          .catch((error: unknown) => {
            if (!(error instanceof StoreUnavailableError))
              log.warn(`The event store could not drop a closed session's events: ${reasonOf(error)}`, { event: 'store.unavailable' });
          }),
    }),
  };
}
