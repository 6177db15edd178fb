import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JSONRPCMessage, MessageExtraInfo, Server } from '@modelcontextprotocol/server';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { LegacyPosts, isLegacyPostTarget } from './legacy-posts';
import { sessionScoped, type EventStore } from '../../stores/event-store';
import { withLegacyNotFoundCode } from '../../protocol/server';
import { afterClose } from '../../sdk/transports';
import { stageIn } from '../../protocol/stages';
import type { CarriesIncoming } from '../../protocol/incoming';
import type { HttpRequestInfo } from '../../../invoke/request/request-context';
import { countAs } from '../../protocol/counted-as';
import { SdkSeam } from '../../sdk/seam';
import type { Log } from '../../../log';
import type { SessionTuning } from '../guards/options';

/**
 * The session table: every 2025-era client on an HTTP endpoint gets a session, an SDK transport plus its own
 * `Server`, named by the `Mcp-Session-Id` the transport hands out on `initialize`. The 2026-07-28 era is
 * stateless and never comes here.
 *
 * Why a table and not just a map: sessions are opened by anyone who can reach the endpoint and closed only when
 * the client remembers to DELETE, so the table enforces the two limits that keep an endpoint alive under
 * careless or hostile clients: a cap on open sessions (`isFull`, answered 503 by the caller) and an idle sweep
 * that closes sessions with no request in progress for longer than the idle timeout. A session counts as busy
 * while any request or GET stream is open on it (`active`), so a long-running tool call or a listening client is
 * never swept. The transport removes its own entry when the client DELETEs or the transport closes.
 *
 * Later layers hang per-session state here: `owner` is whoever opened the session (the auth subject), so a
 * session id learned by someone else is useless to them.
 */

/** One 2025-era session. */
export interface Session {
  readonly transport: NodeStreamableHTTPServerTransport;
  readonly server: Server;
  /** Who opened the session (an auth subject), when the endpoint knows; later requests must come from them. */
  owner: string | undefined;
  /** Whom the per-caller cap counts the session against: the owner, or the client's address without auth. */
  readonly caller: string;
  /** When the session opened: it is closed at `maxLifetimeMs` whatever it is doing. */
  readonly openedAt: number;
  /** Open GET streams among `active`: a listening stream alone does not keep a session from its idle timeout. */
  streams: number;
  /** This session's view of the event store (its own stream names); `forget` drops its events. */
  readonly events: EventStore & { forget(): void };
  /** The session's POSTs answered on Node's response without the SDK's transport (see `legacy-posts.ts`). */
  readonly posts: LegacyPosts | undefined;
  lastSeen: number;
  /** Requests (and open GET streams) in progress: a busy session is never idle. */
  active: number;
  /** The HTTP request of each request the SDK's transport is reading, by JSON-RPC id (see `handle`). */
  readonly incoming: Map<string | number, HttpRequestInfo>;
}

/** The longest one slice of the idle sweep closes sessions before it lets other work run. */
const SWEEP_SLICE_MS = 5;

/** The first revision whose POST streams open with a priming event (an id and `retry`), so they can be resumed. */
const PRIMED_FROM = '2025-11-25';

/** The table's options; its hot paths' knobs (`fastPaths`, `sseAfterMs`) are the endpoint's `SessionTuning`. */
export interface SessionTableOptions extends Pick<SessionTuning, 'fastPaths' | 'sseAfterMs'> {
  /** Most sessions open at once. Default 1,000. */
  readonly maxSessions?: number;
  /** A session with nothing in progress but a GET stream for this long is closed. Default 30 minutes. */
  readonly idleTimeoutMs?: number;
  /** Most sessions one caller holds at once. Default 100. */
  readonly maxSessionsPerCaller?: number;
  /** A session is closed this long after it opened, whatever it is doing. Default 24 hours. */
  readonly maxLifetimeMs?: number;
  /** Passed to each session's transport. */
  readonly maxRequestBodySize: number;
  /** Makes the id of a new session; default a random UUID. */
  readonly newSessionId?: () => string;
  /** Where every session's SSE events are kept for `Last-Event-ID` replay, each session under its own names. */
  readonly eventStore: EventStore;
  /** The `retry` of each stream's priming event, in milliseconds. */
  readonly retryMs: number;
  /** A request still running this long after it arrived has its (primed) stream closed: SSE polling. Off when absent. */
  readonly sseCloseAfterMs?: number;
  /** Where a session that fails to close is reported. */
  readonly log?: Log;
}

/**
 * Whether the endpoint's fast paths may run: the seam finds every SDK member they use, the session transport's
 * among them, on a fresh transport that is never started (the first check of a server logs what is missing).
 */
export function httpFastPaths(log: Log): boolean {
  return SdkSeam.of(log).httpPaths(() => new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined }));
}

const NONE: readonly (string | number)[] = [];

/**
 * Notes the HTTP request of each request in a POST's body (one message, or a 2025-03-26 batch) for the session's
 * dispatch to find by id, while the SDK's transport reads it; the ids noted.
 */
function noteIncoming(session: Session, body: unknown, incoming: HttpRequestInfo): readonly (string | number)[] {
  const messages = Array.isArray(body) ? (body as unknown[]) : [body];
  const noted: (string | number)[] = [];
  for (const message of messages) {
    const id = requestIdOf(message);
    if (id === undefined) continue;
    session.incoming.set(id, incoming);
    noted.push(id);
  }
  return noted;
}

/** The id of a JSON-RPC request (a message with a method and an id); `undefined` for anything else. */
function requestIdOf(message: unknown): string | number | undefined {
  const { id, method } = (message ?? {}) as { id?: unknown; method?: unknown };
  return typeof method === 'string' && (typeof id === 'string' || typeof id === 'number') ? id : undefined;
}

/** A message's extra information with the HTTP request of its POST, when one was noted for it. */
function withIncoming(session: Session, message: JSONRPCMessage, extra: MessageExtraInfo | undefined): MessageExtraInfo | undefined {
  if (session.incoming.size === 0) return extra;
  const id = requestIdOf(message);
  const incoming = id === undefined ? undefined : session.incoming.get(id);
  return incoming === undefined ? extra : ({ ...extra, incoming } as MessageExtraInfo & CarriesIncoming);
}

export class SessionTable {
  private readonly sessions = new Map<string, Session>();
  /** Open sessions per caller. */
  private readonly perCaller = new Map<string, number>();
  private readonly maxSessions: number;
  private readonly maxPerCaller: number;
  private readonly maxLifetimeMs: number;
  private readonly idleMs: number;
  private readonly sweeper: NodeJS.Timeout;
  /** A sweep is closing sessions in slices. */
  private sweeping = false;
  /** The last session `get` found, and its id (forgotten when it leaves the table). */
  private lastId: string | undefined;
  private lastSession: Session | undefined;

  constructor(
    private readonly factory: () => Server,
    private readonly options: SessionTableOptions,
  ) {
    this.maxSessions = options.maxSessions ?? 1000;
    this.maxPerCaller = options.maxSessionsPerCaller ?? 100;
    this.maxLifetimeMs = options.maxLifetimeMs ?? 24 * 60 * 60_000;
    this.idleMs = options.idleTimeoutMs ?? 30 * 60_000;
    // Sweep often enough that a session outlives its timeout by at most half of it (and at most a minute).
    this.sweeper = setInterval(() => this.sweep(), Math.max(10, Math.min(this.idleMs / 2, 60_000)));
    this.sweeper.unref();
  }

  get size(): number {
    return this.sessions.size;
  }

  /** True when opening one more session would pass the cap. */
  get isFull(): boolean {
    return this.sessions.size >= this.maxSessions;
  }

  /** True when `caller` holds as many sessions as one caller may. */
  isFullFor(caller: string): boolean {
    return (this.perCaller.get(caller) ?? 0) >= this.maxPerCaller;
  }

  get(id: string): Session | undefined {
    // The session of the last lookup, compared before the map: each request's session id is a new string, which a map
    // lookup hashes first (36 characters, a few hundred instructions), where comparing it costs a few dozen.
    if (id === this.lastId) return this.lastSession;
    const session = this.sessions.get(id);
    if (session !== undefined) {
      this.lastId = id;
      this.lastSession = session;
    }
    return session;
  }

  /**
   * A new session, connected but not yet in the table: the transport adds it when it answers the `initialize`
   * request (that is when the id exists), so a failed `initialize` leaves nothing behind.
   */
  async open(owner: string | undefined, caller: string): Promise<Session> {
    // The id is chosen here, not by the transport, so the session's view of the event store exists before its
    // first event (the priming event of the `initialize` response).
    const id = (this.options.newSessionId ?? randomUUID)();
    const events = sessionScoped(this.options.eventStore, id);
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      onsessioninitialized: () => this.added(id, session),
      onsessionclosed: () => this.removed(id),
      maxRequestBodySize: this.options.maxRequestBodySize,
      eventStore: events,
      retryInterval: this.options.retryMs,
    });
    const server = this.factory();
    // Task quotas count a session's tasks against its caller, not the session (protocol/counted-as.ts).
    countAs(server, caller);
    // Installed first, under every later wrapper of `send` (the not-found code, telemetry): they see each message as before.
    const posts =
      this.options.fastPaths !== false && isLegacyPostTarget(server)
        ? new LegacyPosts(transport, server, {
            sessionId: id,
            events,
            retryMs: this.options.retryMs,
            sseAfterMs: this.options.sseAfterMs,
            sseCloseAfterMs: this.options.sseCloseAfterMs,
            ended: () => {
              session.active--;
              session.lastSeen = Date.now();
            },
          })
        : undefined;
    posts?.intercept();
    withLegacyNotFoundCode(transport);
    const now = Date.now();
    const session: Session = {
      transport,
      server,
      owner,
      caller,
      openedAt: now,
      streams: 0,
      events,
      posts,
      lastSeen: now,
      active: 0,
      incoming: new Map(),
    };
    afterClose(transport, () => {
      if (transport.sessionId) this.removed(transport.sessionId);
    });
    await session.server.connect(transport);
    // Each request the SDK's transport reads takes its own POST's request (the `session-request` stage).
    stageIn(transport, 'session-request', (next) => (message, extra) => next?.(message, withIncoming(session, message, extra)));
    return session;
  }

  /**
   * Hands one request to the session, keeping the session busy while it runs. Not an async function: a post answered
   * directly keeps it busy until the post says it ended (`ended`, given with the posts), and its promise is passed on.
   */
  handle(session: Session, req: IncomingMessage, res: ServerResponse, body: unknown, incoming?: HttpRequestInfo): Promise<void> {
    session.lastSeen = Date.now();
    const direct = session.posts?.answer(req, res, body, incoming, session.lastSeen);
    if (direct === undefined) return this.throughTransport(session, req, res, body, incoming);
    session.active++;
    return direct;
  }

  /** A request the SDK's transport reads. */
  private async throughTransport(
    session: Session,
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    incoming: HttpRequestInfo | undefined,
  ): Promise<void> {
    session.active++;
    const stream = req.method === 'GET';
    if (stream) session.streams++;
    let polling: NodeJS.Timeout | undefined;
    let noted: readonly (string | number)[] = NONE;
    try {
      polling = this.pollingTimer(session, req, body);
      if (incoming !== undefined) noted = noteIncoming(session, body, incoming);
      await session.transport.handleRequest(req, res, body);
    } finally {
      for (const id of noted) if (session.incoming.get(id) === incoming) session.incoming.delete(id);
      clearTimeout(polling);
      if (stream) session.streams--;
      session.active--;
      session.lastSeen = Date.now();
    }
  }

  /**
   * SSE polling through the SDK's transport: closes the stream of a request still running at `sseCloseAfterMs`.
   * Only where the SDK primed the stream (2025-11-25 on), since a client can resume only a primed stream.
   */
  private pollingTimer(session: Session, req: IncomingMessage, body: unknown): NodeJS.Timeout | undefined {
    const after = this.options.sseCloseAfterMs;
    const version = req.headers['mcp-protocol-version'];
    const id = (body as { id?: unknown; method?: unknown } | null)?.id;
    if (after === undefined || req.method !== 'POST' || typeof version !== 'string' || version < PRIMED_FROM) return undefined;
    if ((typeof id !== 'string' && typeof id !== 'number') || typeof (body as { method?: unknown }).method !== 'string') return undefined;
    const timer = setTimeout(() => session.transport.closeSSEStream(id), after);
    timer.unref();
    return timer;
  }

  /** Closes every session and stops the sweep: the endpoint is shutting down. */
  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.sessions].map(([id, session]) => this.close(id, session)));
  }

  /**
   * Closes idle sessions (nothing in progress but GET streams: a stream held open is no claim on the table
   * forever) and sessions past their lifetime.
   */
  private sweep(): void {
    if (this.sweeping) return;
    const now = Date.now();
    const due: [string, Session][] = [];
    for (const entry of this.sessions) {
      const session = entry[1];
      const idle = session.active === session.streams && now - session.lastSeen > this.idleMs;
      if (idle || now - session.openedAt > this.maxLifetimeMs) due.push(entry);
    }
    if (due.length > 0) this.closeInSlices(due, 0);
  }

  /**
   * Closes `due` from `from` on, a slice at a time: each slice stops after SWEEP_SLICE_MS and the rest waits for the
   * next turn of the event loop, so closing thousands of abandoned sessions never holds up the requests in between.
   */
  private closeInSlices(due: readonly [string, Session][], from: number): void {
    this.sweeping = true;
    const started = performance.now();
    let at = from;
    while (at < due.length && performance.now() - started < SWEEP_SLICE_MS) {
      const [id, session] = due[at++]!;
      // Still the same session, and still idle or old: a request may have arrived since the sweep listed it.
      if (this.sessions.get(id) === session) void this.close(id, session).catch((error: unknown) => this.closeFailed(error));
    }
    if (at < due.length) setImmediate(() => this.closeInSlices(due, at)).unref();
    else this.sweeping = false;
  }

  private closeFailed(error: unknown): void {
    this.options.log?.warn(`A swept session did not close cleanly: ${error instanceof Error ? error.message : String(error)}`, {
      event: 'transport.failed',
    });
  }

  private added(id: string, session: Session): void {
    this.sessions.set(id, session);
    if (id === this.lastId) this.lastSession = session;
    this.perCaller.set(session.caller, (this.perCaller.get(session.caller) ?? 0) + 1);
  }

  private removed(id: string): void {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    if (id === this.lastId) this.lastId = this.lastSession = undefined;
    // Deleted or expired: nobody can resume its streams any more, so its events go with it.
    session.events.forget();
    const left = (this.perCaller.get(session.caller) ?? 1) - 1;
    if (left > 0) this.perCaller.set(session.caller, left);
    else this.perCaller.delete(session.caller);
  }

  private async close(id: string, session: Session): Promise<void> {
    this.removed(id);
    await session.transport.close();
    await session.server.close();
  }
}
