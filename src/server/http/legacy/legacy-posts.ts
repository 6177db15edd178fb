import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  isJsonContentType,
  type AuthInfo,
  type EventStore,
  type JSONRPCMessage,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import type { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { SSE_HEADERS } from '../../protocol/wire';
import { handOverStream, type Send } from '../../sdk/transports';
import { WRITTEN, stageOut } from '../../protocol/stages';
import { REVISION_2025_11_25 } from '../../revisions';
import { isHotMethod } from '../../protocol/rules';
import { InFlight } from '../../protocol/in-flight';
import { jsonTextOf } from '../wire/json-text';
import { acceptsBoth } from '../wire/incoming';
import { notWhenClosed, whenClosed, type ClosesWith } from '../wire/response-close';
import type { HttpExtra } from '../../protocol/incoming';
import type { HttpRequestInfo } from '../../../invoke/request/request-context';

/**
 * A 2025-era session's POST of one hot request (`tools/call`, `tools/list`, `resources/read`, `prompts/get`,
 * `ping`), answered on Node's own response instead of through the SDK's transport, which builds a web `Request`,
 * runs it through its Hono adapter, validates the message with zod and frames even a lone answer as an SSE stream.
 *
 * The message goes straight to the session's hot dispatch (`HotDispatch.post` in protocol/hot-path.ts), which admits
 * it (the request's one admission) and opens its telemetry itself. Its answer, and what else the session sends for
 * it (progress, log messages, a sampling or elicitation request, an answer of the SDK's own), leaves through the
 * transport's outbound stages like every message of the session, and this module's stage, `legacy-posts`, takes
 * what belongs to an open POST to that POST's response instead of the SDK's streams:
 *
 * - A reply with nothing before it is written as `application/json`, as a transport in JSON-response mode does.
 * - The first message before the reply turns the response into an SSE stream, primed as the SDK primes one (an
 *   event id and `retry`, 2025-11-25 on) and with every event kept in the session's event store, so a client that
 *   loses the stream resumes it with `Last-Event-ID`. A call still running after `sseAfterMs` is switched to SSE
 *   too, so a long call stays resumable though it says nothing. With `sseCloseAfterMs`, a call still running then
 *   has its stream closed after the priming event (SSE polling) and is handed over as below.
 * - A client that leaves an SSE response hands the request over to the SDK's transport (its request-to-stream
 *   map), which stores what follows under the same stream for the client's `Last-Event-ID` reconnection. A client
 *   that leaves before anything was written cannot resume: what follows is dropped, as an SDK JSON response would be.
 *
 * Only requests the SDK's transport would certainly accept as they are come here (its Accept, Content-Type,
 * session and protocol-version checks pass, the hot path takes the message); anything else keeps going through
 * the SDK, which writes every error answer.
 */

/** What the legacy posts need of a session's `Server`. */
export interface LegacyPostTarget {
  /**
   * Answers a hot request if the hot path admits it (protocol/hot-path.ts, `HotDispatch.post`), its answer sent
   * through the transport's `send`; `false` when it does not (nothing ran).
   */
  answerHot(message: JSONRPCMessage, extra: HttpExtra | undefined): boolean;
  /** The negotiated 2025-era revision, `undefined` before `initialize`. */
  legacyVersion(): string | undefined;
}

export function isLegacyPostTarget(server: object): server is LegacyPostTarget {
  return (
    typeof (server as Partial<LegacyPostTarget>).answerHot === 'function' &&
    typeof (server as Partial<LegacyPostTarget>).legacyVersion === 'function'
  );
}

type Id = string | number;

/** This POST's own request, not the session's first: each call sees the request it came in. */
function extraOf(req: IncomingMessage, incoming: HttpRequestInfo | undefined): HttpExtra | undefined {
  const authInfo = (req as IncomingMessage & { auth?: AuthInfo }).auth;
  return incoming !== undefined ? { authInfo, incoming } : authInfo === undefined ? undefined : { authInfo };
}

/** Where a message the session sends belongs: a reply by its id, anything else by the request it relates to. */
function requestIdOf(message: JSONRPCMessage, options: TransportSendOptions | undefined): Id | undefined {
  const reply = message as { id?: Id; method?: unknown };
  if (reply.id !== undefined && reply.method === undefined) return reply.id;
  return options?.relatedRequestId;
}

function isReply(message: JSONRPCMessage): boolean {
  return (message as { method?: unknown }).method === undefined && (message as { id?: unknown }).id !== undefined;
}

export interface DirectPostsOptions {
  readonly sessionId: string;
  /** The session's view of the event store. */
  readonly events: EventStore;
  /** `retry` of the priming event, in milliseconds. */
  readonly retryMs: number;
  /** A call that has not answered after this long gets an SSE stream (primed, so resumable). Default 1,000 ms. */
  readonly sseAfterMs?: number;
  /** A call still running this long after it arrived has its stream closed after the priming event: SSE polling. */
  readonly sseCloseAfterMs?: number;
  /** Called once when a post the dispatch took is done (answered, or its client left), so the session needs no frame of its own per post. */
  readonly ended?: () => void;
}

/** One session's hot POSTs answered on Node's own response: decides which requests qualify and routes what the session sends for them. */
export class LegacyPosts {
  /** The open posts by id; an `InFlight`, whose one entry at a time (the usual case) allocates nothing. */
  private readonly open = new InFlight<LegacyPost>();
  private sdkSend!: Send;
  /**
   * One timer for the `sseAfterMs` and `sseCloseAfterMs` deadlines of every open post, armed for the earliest:
   * a `setTimeout` and `clearTimeout` per request cost more than the request's own dispatch. Every post's deadlines
   * come a fixed delay after its arrival, so a post arriving while the timer is armed never needs it sooner.
   */
  private timer: NodeJS.Timeout | undefined;
  /** When the armed timer is due (`Date.now()` time). */
  private timerAt = Infinity;
  /**
   * A post with deadlines arrived since the timer last fired: it is armed again a period on even with nothing due, so
   * under steady load no request arms it (a request arming it now and then made V8 deoptimize the request's path).
   */
  private recent = false;
  /** The shortest deadline a post has. */
  private readonly period: number;

  constructor(
    private readonly transport: NodeStreamableHTTPServerTransport,
    private readonly server: LegacyPostTarget,
    private readonly options: DirectPostsOptions,
  ) {
    this.period = Math.min(options.sseAfterMs ?? 1000, options.sseCloseAfterMs ?? Infinity);
  }

  /** Puts the routing in front of the SDK transport's `send`: the `legacy-posts` outbound stage. */
  intercept(): void {
    this.sdkSend = stageOut(this.transport, 'legacy-posts', (message, options) => {
      if (this.open.size === 0) return message;
      const id = requestIdOf(message, options);
      const post = id === undefined ? undefined : this.open.get(id);
      return post ? post.send(message) : message;
    });
  }

  /**
   * Answers this POST on Node's own response when it can: resolves once the response is complete (or handed over).
   * `undefined` when it cannot (nothing was written or run): the SDK's transport takes it.
   */
  answer(
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    incoming?: HttpRequestInfo,
    arrivedAt: number = Date.now(),
  ): Promise<void> | undefined {
    if (!this.qualifies(req, body)) return undefined;
    const id = (body as { id: Id }).id;
    const version = this.server.legacyVersion()!;
    // Open before the dispatch admits the request (its one admission), so that whatever it sends finds its post.
    const post = new LegacyPost(res, this.options, version >= REVISION_2025_11_25, this, id, arrivedAt);
    this.open.set(id, post);
    const deadline = post.nextDeadline;
    if (deadline !== Infinity) {
      this.recent = true;
      if (deadline < this.timerAt) this.arm(deadline, arrivedAt);
    }
    // Taken before the dispatch, which calls the handler at once: whatever ends the post (its reply, the client
    // leaving) comes on a later tick, and then the session hears of it.
    post.taken = true;
    if (this.server.answerHot(body as JSONRPCMessage, extraOf(req, incoming))) return post.done;
    post.discard();
    return undefined;
  }

  /**
   * Whether the SDK's transport would take this POST as it is (its HTTP checks), it names a hot method, and no POST
   * of its id is open; whether the hot dispatch takes the request is its own admission's to say.
   */
  private qualifies(req: IncomingMessage, body: unknown): boolean {
    const { server } = this;
    if (req.method !== 'POST') return false;
    // The SDK transport's own Accept and Content-Type checks; it answers 406 / 415 otherwise.
    if (!acceptsBoth(req.headers.accept)) return false;
    if (!isJsonContentType(req.headers['content-type'])) return false;
    // A header naming another revision is checked (and perhaps refused) by the SDK.
    const version = server.legacyVersion();
    if (version === undefined || req.headers['mcp-protocol-version'] !== version) return false;
    if (req.headers['last-event-id'] !== undefined) return false;
    if (!isHotMethod((body as { method?: unknown } | null)?.method)) return false;
    const id = (body as { id?: unknown } | null)?.id;
    return !this.open.has(id as Id);
  }

  /** The request left this table: answered, or handed to the SDK's transport after its client left. */
  settled(id: Id, post: LegacyPost): void {
    if (this.open.get(id) !== post) return;
    this.open.settle(id, post);
    const streamId = post.handedOverStream;
    if (streamId !== undefined) handOverStream(this.transport, id, streamId);
  }

  /** Sends through the SDK's transport what the request `id` sends once it is handed over. */
  forward(id: Id, message: JSONRPCMessage): Promise<void> {
    return this.sdkSend(message, { relatedRequestId: id });
  }

  /** Arms the one timer for `at` (`now` being the time), in place of a later one. */
  private arm(at: number, now: number): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(this.due, Math.max(1, at - now));
    this.timer.unref();
  }

  /** The timer: every open post whose deadline passed takes its step; armed again for the next deadline, if any. */
  private readonly due = (): void => {
    this.timer = undefined;
    this.timerAt = Infinity;
    const now = Date.now();
    let next = Infinity;
    this.open.forEach((post) => (next = Math.min(next, post.deadlinesDue(now))));
    if (next === Infinity && this.recent) next = now + this.period;
    this.recent = false;
    if (next !== Infinity) this.arm(next, now);
  };
}

/** Where a post settles and, once handed over, forwards to: its session's {@link LegacyPosts}. */
interface PostEnd {
  /** The request leaves the table (answered, or handed over: see {@link LegacyPost.handedOverStream}). */
  settled(id: Id, post: LegacyPost): void;
  /** Sends through the SDK's transport, once the request is handed over. */
  forward(id: Id, message: JSONRPCMessage): Promise<void>;
}

const RESOLVED: Promise<void> = Promise.resolve();

/** One request's response: pending (nothing written), then JSON, or an SSE stream. */
class LegacyPost implements ClosesWith {
  readonly done: Promise<void>;
  private finish!: () => void;
  /** The dispatch took the request: the session hears once when it is done (`ended`). */
  taken = false;
  private stream: string | undefined;
  private queue: Promise<void> = RESOLVED;
  /** Nothing was ever queued: a lone reply is written at once (see `send`). */
  private idle = true;
  private state: 'pending' | 'streaming' | 'answered' | 'left' = 'pending';
  /** When the call is switched to SSE (`sseAfterMs`), until it answers or leaves; the session's one timer runs it. */
  private sseAt: number | undefined;
  /** When the call's stream is closed for polling (`sseCloseAfterMs`), until it answers or leaves. */
  private closeAt: number | undefined;

  constructor(
    private readonly res: ServerResponse,
    private readonly options: DirectPostsOptions,
    /** 2025-11-25 on: a stream opens with a priming event. */
    private readonly primes: boolean,
    private readonly end: PostEnd,
    private readonly id: Id,
    arrivedAt: number,
  ) {
    this.done = new Promise((resolve) => (this.finish = resolve));
    // The response's one `close` listener (wire/response-close.ts), shared with the drain's count.
    whenClosed(res, this);
    if (primes) this.sseAt = arrivedAt + (options.sseAfterMs ?? 1000);
    if (primes && options.sseCloseAfterMs !== undefined) this.closeAt = arrivedAt + options.sseCloseAfterMs;
  }

  /** The earliest deadline still ahead, `Infinity` when none is. */
  get nextDeadline(): number {
    return Math.min(this.sseAt ?? Infinity, this.closeAt ?? Infinity);
  }

  /** Takes the steps whose deadline `now` has passed, earliest first, as their own timers would; the next deadline. */
  deadlinesDue(now: number): number {
    const closeFirst = this.closeAt !== undefined && this.closeAt < (this.sseAt ?? Infinity);
    if (closeFirst && this.closeAt! <= now) this.closeDue();
    if (this.sseAt !== undefined && this.sseAt <= now) {
      this.sseAt = undefined;
      void this.enqueue(() => this.openStream());
    }
    if (this.closeAt !== undefined && this.closeAt <= now) this.closeDue();
    return this.nextDeadline;
  }

  private closeDue(): void {
    this.closeAt = undefined;
    void this.enqueue(() => this.closeForPolling());
  }

  /** The stream a client that left can resume, once the request is handed over. */
  get handedOverStream(): string | undefined {
    return this.state === 'left' ? this.stream : undefined;
  }

  send(message: JSONRPCMessage): Promise<void> {
    // The usual case, a reply with nothing before it (and nothing queued, a timer's switch to SSE included): written
    // at once, as `write` would write it a microtask later, without the queue's two promises.
    if (this.idle && this.state === 'pending' && isReply(message)) {
      this.writeJson(message);
      return WRITTEN;
    }
    return this.enqueue(() => this.write(message));
  }

  /** Writes in the order the session sent (storing an event is asynchronous). */
  private enqueue(step: () => Promise<void> | void): Promise<void> {
    this.idle = false;
    const next = this.queue.then(step);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async write(message: JSONRPCMessage): Promise<void> {
    if (this.state === 'answered') return;
    const reply = isReply(message);
    if (this.state === 'left') {
      // Handed over: the SDK stores it under this stream for a reconnection.
      if (this.stream !== undefined) return this.end.forward(this.id, message);
      // Left before anything was written: there is no stream to resume, so it is dropped.
      if (reply) this.end.settled(this.id, this);
      return;
    }
    if (reply && this.state === 'pending') return this.writeJson(message);
    if (this.state === 'pending') await this.openStream();
    const eventId = await this.options.events.storeEvent(this.stream!, message);
    if (!this.res.writableEnded) this.res.write(`event: message\nid: ${eventId}\ndata: ${JSON.stringify(message)}\n\n`);
    if (reply) {
      this.answered();
      this.res.end();
    }
  }

  /** The reply as `application/json`, as a transport in JSON-response mode writes it: headers and body in one write. */
  private writeJson(message: JSONRPCMessage): void {
    this.answered();
    const body = jsonTextOf(message);
    // A flat list rather than an object (Node walks it without `for...in`), the length as text as Node writes it:
    // a number sends Node's header checks down a path of their own.
    this.res
      .writeHead(200, [
        'content-type',
        'application/json',
        'content-length',
        String(Buffer.byteLength(body)),
        'mcp-session-id',
        this.options.sessionId,
      ])
      .end(body);
  }

  /** Switches the response to SSE: headers, then the priming event (kept in the store, as the SDK keeps it). */
  private async openStream(): Promise<void> {
    if (this.state !== 'pending') return;
    this.state = 'streaming';
    this.stream = randomUUID();
    this.res.writeHead(200, { ...SSE_HEADERS, 'mcp-session-id': this.options.sessionId });
    if (!this.primes) return;
    const primingId = await this.options.events.storeEvent(this.stream, {} as JSONRPCMessage);
    if (!this.res.writableEnded) this.res.write(`id: ${primingId}\nretry: ${this.options.retryMs}\ndata: \n\n`);
  }

  /**
   * SSE polling (SEP-1699): ends the response of a call still running, after the priming event's `retry`; the
   * request is handed over as if the client had left, so the client's `Last-Event-ID` reconnection gets the rest.
   */
  private async closeForPolling(): Promise<void> {
    if (this.state === 'pending') await this.openStream();
    if (this.state !== 'streaming') return;
    this.res.end();
    this.left();
  }

  /** The hot dispatch did not take the request: the post is undone (nothing was written) for the SDK's transport. */
  discard(): void {
    this.taken = false;
    notWhenClosed(this.res, this);
    this.answered();
  }

  /** The response closed: the client left, unless the post was answered (or left) before. */
  responseClosed(): void {
    this.left();
  }

  private answered(): void {
    this.state = 'answered';
    this.sseAt = this.closeAt = undefined;
    this.end.settled(this.id, this);
    this.over();
  }

  private over(): void {
    this.finish();
    if (!this.taken) return;
    this.taken = false;
    this.options.ended?.();
  }

  /**
   * The client closed the connection before the reply. A stream is handed over to the SDK's transport at once; a
   * request that wrote nothing stays in the table until its reply, so what it sends meanwhile is dropped here
   * rather than refused by the SDK's transport, which knows no stream for it.
   */
  private left(): void {
    if (this.state === 'answered' || this.state === 'left') return;
    const streaming = this.state === 'streaming';
    this.state = 'left';
    this.sseAt = this.closeAt = undefined;
    if (streaming) this.end.settled(this.id, this);
    this.over();
  }
}
