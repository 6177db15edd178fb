import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Log } from '../../../log';
import { jsonRpcError } from '../../answers';
import { OncePer } from '../../once-per';
import { ANONYMOUS_OWNER } from '../../auth/caller';
import { StoreUnavailableError, type GuardedEventStore } from '../../stores/degraded';
import { refusedBatch } from '../wire/body';
import { addressOf, type IncomingRequest } from '../wire/incoming';
import { isLegacyPostTarget } from './legacy-posts';
import { storeUnavailable } from '../wire/refusals';
import type { Session, SessionTable } from './sessions';
import { isObjectLike } from '../../../objects';

/**
 * A request on an established session without `MCP-Protocol-Version` is taken under the session's negotiated
 * revision: the spec assumes 2025-03-26 only when a server "has no other way to identify the version - for
 * example, by relying on the protocol version negotiated during initialization". Written into the header, so
 * the batch rule and the SDK's transport (priming, polling) read the same revision; whether it was.
 */
function adoptedSessionRevision(req: IncomingMessage, session: Session): boolean {
  if (req.headers['mcp-protocol-version'] !== undefined || !isLegacyPostTarget(session.server)) return false;
  const negotiated = session.server.legacyVersion();
  if (negotiated === undefined) return false;
  req.headers['mcp-protocol-version'] = negotiated;
  return true;
}

/** The `Last-Event-ID` of a GET that resumes a stream. */
function lastEventIdOf(req: IncomingMessage): string | undefined {
  const id = req.method === 'GET' ? req.headers['last-event-id'] : undefined;
  return typeof id === 'string' ? id : undefined;
}

function opensSession(body: unknown): boolean {
  const isInit = (m: unknown) => isObjectLike(m) && (m as { method?: unknown }).method === 'initialize';
  return Array.isArray(body) ? body.some(isInit) : isInit(body);
}

/**
 * Answers a resume whose events are gone (expired, trimmed, lost with a store restart) as lost, rather than the
 * SDK's "Invalid event ID format"; whether it did.
 */
async function refusedResume(session: Session, lastEventId: string, res: ServerResponse): Promise<boolean> {
  if (await session.events.getStreamIdForEventId?.(lastEventId)) return false;
  jsonRpcError(
    res,
    400,
    -32000,
    'Events lost: the events after this Last-Event-ID are no longer kept (they expired, or the event store lost them); send the request again, or open a new GET stream without Last-Event-ID.',
  );
  return true;
}

/** What serving a request resolves with when it was answered at once: one settled promise for all. */
export const ANSWERED: Promise<void> = Promise.resolve();

/**
 * A 2025-era request's way to its session (http/legacy/sessions.ts holds them): the session its id names, for its owner
 * only, or a new one for an `initialize`, within the caps on sessions, once the event store is up.
 */
export class LegacyRouting {
  private readonly sessionFloods = new OncePer(60_000);

  constructor(
    private readonly sessions: SessionTable,
    /** A store given for sharing (Redis), bounded; the default in-memory one cannot be down. */
    private readonly guardedStore: GuardedEventStore | undefined,
    private readonly trustedProxies: number,
    private readonly log: Log,
  ) {}

  /**
   * A 2025-era request: to its session, or to a new one for an `initialize`. Not an async function: a request on a
   * known session that resumes nothing (the usual one) waits on nothing before its session takes it, and the session's
   * promise is passed on as it is, without a promise and a tick of its own.
   */
  serve(req: IncomingMessage, res: ServerResponse, body: unknown, owner: string | undefined, incoming: IncomingRequest): Promise<void> {
    const sid = req.headers['mcp-session-id'];
    const session = typeof sid === 'string' ? this.sessionOf(sid, owner) : undefined;
    if (session) return this.toSession(session, req, res, body, incoming);
    if (sid === undefined) return this.toNewSession(req, res, body, owner, incoming);
    jsonRpcError(res, 404, -32001, 'Session not found');
    return ANSWERED;
  }

  /** A request without a session id: to a new session when it opens one. */
  private async toNewSession(
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    owner: string | undefined,
    incoming: IncomingRequest,
  ): Promise<void> {
    const session = await this.openSession(req, res, body, owner);
    // Awaited rather than returned: an async function that returns a promise adopts it through a job and two ticks.
    if (session) return await this.toSession(session, req, res, body, incoming);
  }

  /** A request to its session: a batch its session's revision forbids is refused, a resume of lost events too. */
  private toSession(session: Session, req: IncomingMessage, res: ServerResponse, body: unknown, incoming: IncomingRequest): Promise<void> {
    if (adoptedSessionRevision(req, session) && refusedBatch(req, res, body)) return ANSWERED;
    const resumeFrom = lastEventIdOf(req);
    if (resumeFrom !== undefined) return this.resumed(session, resumeFrom, req, res, body, incoming);
    return this.sessions.handle(session, req, res, body, incoming);
  }

  /** A GET that resumes a stream with `Last-Event-ID`: answered as lost when its events are gone. */
  private async resumed(
    session: Session,
    lastEventId: string,
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    incoming: IncomingRequest,
  ): Promise<void> {
    if (await refusedResume(session, lastEventId, res)) return;
    return await this.sessions.handle(session, req, res, body, incoming);
  }

  /**
   * The session an id names, for its owner only: a session id presented by someone else is treated as unknown,
   * ids must not be transferable. One opened without a token is taken over by the first verified caller on it:
   * the client that met a 401 challenge on a protected item comes back with a token on the same session (never
   * the other way round).
   */
  private sessionOf(sid: string, owner: string | undefined): Session | undefined {
    const session = this.sessions.get(sid);
    if (session && session.owner === ANONYMOUS_OWNER && owner !== undefined && owner !== ANONYMOUS_OWNER) {
      session.owner = owner;
      // The listening stream was opened without a token: it must not hear the new owner's notifications. The client
      // opens it again with its token (resuming from its last event, which only the new owner may do now).
      session.transport.closeStandaloneSSEStream();
    }
    return session && session.owner === owner ? session : undefined;
  }

  /** A new session for an `initialize`; `undefined` after answering 400, 429 or 503. */
  private async openSession(
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    owner: string | undefined,
  ): Promise<Session | undefined> {
    if (req.method !== 'POST' || !opensSession(body))
      return void jsonRpcError(res, 400, -32000, 'Bad Request: no valid Mcp-Session-Id header.');
    if (this.sessions.isFull) {
      res.setHeader('retry-after', '60');
      return void jsonRpcError(res, 503, -32000, 'Service Unavailable: too many open sessions; close one (DELETE) or try again later.');
    }
    // Callers without a token (anonymous ones included) are told apart by address, not lumped together.
    const caller = owner !== undefined && owner !== ANONYMOUS_OWNER ? owner : `address ${addressOf(req, this.trustedProxies)}`;
    if (this.sessions.isFullFor(caller)) return void this.tooManySessions(res, caller, owner !== undefined);
    // A new session needs its event store: refused (503, retried elsewhere by a balancer) while it is down.
    if (this.guardedStore) {
      try {
        await this.guardedStore.ready();
      } catch (error) {
        if (error instanceof StoreUnavailableError) return void storeUnavailable(res, error);
        throw error;
      }
    }
    return this.sessions.open(owner, caller);
  }

  /** 429: this caller holds as many sessions as one may; the others are served. Logged once a minute per caller kind. */
  private tooManySessions(res: ServerResponse, caller: string, authenticated: boolean): void {
    if (this.sessionFloods.due(caller)) {
      this.log.warn(
        `Refused a new 2025-era session with 429: ${authenticated ? 'this token subject' : caller} holds the most sessions one caller may (maxSessionsPerCaller)`,
        { event: 'session.refused' },
      );
    }
    res.setHeader('retry-after', '60');
    jsonRpcError(res, 429, -32000, 'Too Many Requests: this client holds too many open sessions; close one (DELETE) or try again later.');
  }
}
