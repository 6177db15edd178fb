import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  ProtocolErrorCode,
  isJsonContentType,
  type AuthInfo,
  type InboundClassificationOutcome,
  type JSONRPCMessage,
  type Server,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import { PER_REQUEST_EXCHANGES } from './exchanges';
import { jsonTextOf } from '../wire/json-text';
import { acceptsBoth } from '../wire/incoming';
import { HEADER_MISMATCH } from './param-headers';
import { MODERN_REVISION } from '../../revisions';
import { METHODS, isModernHot, methodsWhere } from '../../methods';
import { SSE_HEADERS, headerOf } from '../../protocol/wire';
import { servesRevision } from '../../sdk/server';
import { InFlight } from '../../protocol/in-flight';
import type { CarriesIncoming } from '../../protocol/incoming';
import type { HttpRequestInfo } from '../../../invoke/request/request-context';

/**
 * 2026-07-28 requests answered without the SDK's per-request machinery. The SDK's entry builds a `Server` for every
 * request, installs its handlers, connects a per-request transport, and answers through a web `Response`; here a
 * few long-lived `Server`s (each serving the revision, connected once to an {@link ExchangeTransport}) take the
 * requests, and the answer is written on Node's own response. The dispatch inside the `Server` is the SDK's own
 * (`Protocol`'s request handling, its codec, its result checks), so the answers are the SDK's; the tests compare
 * them with the entry's for the same requests.
 *
 * Only a hot request (a hot row of server/methods.ts of the modern era: `tools/call`, the four lists,
 * `resources/read`, `prompts/get`) that the entry would certainly accept as it is comes here: a valid envelope for 2026-07-28 (the SDK's classifier said so), the standard headers
 * present and equal to the body, JSON both ways, no multi-round-trip retry material. Anything else goes to the
 * SDK's entry, which writes every refusal.
 *
 * JSON-RPC ids are the clients' and may repeat across concurrent requests (every client may send id 1), while a
 * `Server` tells its requests apart by id: a request goes to the first server of the pool with no request of that
 * id in progress, and the pool grows when none is free (up to {@link MAX_SERVERS} by default; past it, the SDK's
 * entry answers, so a client that floods one id costs a bounded number of servers).
 *
 * The response is written as the SDK's per-request transport writes it: a lone reply as `application/json` (an
 * error produced while the request was being dispatched with the HTTP status the protocol gives it), a reply
 * preceded by notifications as an SSE stream of `message` events with keep-alive comments. A client that closes
 * the response cancels its request.
 */

/** Most servers in the pool: as many requests with one id as may run at once before the entry takes over. */
export const MAX_SERVERS = 256;

/** The methods the pool takes: the hot rows of the modern era (server/methods.ts). */
const HOT_METHODS: ReadonlySet<string> = methodsWhere(isModernHot);

/**
 * The params field whose value the `Mcp-Name` header repeats, per pool method: the field that names its catalog
 * entry (`name` of `tools/call` and `prompts/get`, `uri` of `resources/read`); the others have none.
 */
const NAME_FIELD: Readonly<Record<string, string>> = Object.fromEntries(
  METHODS.flatMap((row) => (HOT_METHODS.has(row.method) && typeof row.names === 'object' ? [[row.method, row.names.field]] : [])),
);

/** HTTP statuses of errors produced while a request is dispatched (the SDK's "ladder"); other errors are 200. */
const DISPATCH_ERROR_STATUS: Readonly<Record<number, number>> = {
  [ProtocolErrorCode.ParseError]: 400,
  [ProtocolErrorCode.InvalidRequest]: 400,
  [ProtocolErrorCode.MethodNotFound]: 404,
  [ProtocolErrorCode.UnsupportedProtocolVersion]: 400,
  [ProtocolErrorCode.MissingRequiredClientCapability]: 400,
  [HEADER_MISMATCH]: 400,
};

/** What `send` answers once a message is written (or has nowhere to go): one settled promise for all. */
const SENT: Promise<void> = Promise.resolve();

/** The SDK per-request transport's keep-alive comment interval. */
const KEEP_ALIVE_MS = 15_000;

type Id = string | number;
type Route = Extract<InboundClassificationOutcome, { kind: 'modern' }>;

/** A header value exactly as the body has it: plain printable ASCII with no encoding sentinel, no edge whitespace. */
const plainlyEqual = (value: unknown, headerValue: string | undefined) =>
  typeof value === 'string' && value === headerValue && plainHeaderText(value);

/**
 * Whether the text is `/^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/` and holds no `=?`: one walk over its characters,
 * which for a tool's name costs less than the expression and the search.
 */
export function plainHeaderText(text: string): boolean {
  const last = text.length - 1;
  if (last < 0) return false;
  for (let i = 0; i <= last; i++) {
    const c = text.charCodeAt(i);
    // Printable ASCII; a space only inside.
    if (c > 0x7e || c < (i === 0 || i === last ? 0x21 : 0x20)) return false;
    if (c === 0x3f && i > 0 && text.charCodeAt(i - 1) === 0x3d) return false;
  }
  return true;
}

/** The modern request this path takes, or `undefined` when the SDK's entry must answer. */
export function modernPoolRoute(req: IncomingMessage, route: InboundClassificationOutcome): Route | undefined {
  if (route.kind !== 'modern' || route.messageKind !== 'request' || route.classification.revision !== MODERN_REVISION) return undefined;
  const message = route.message as { method: string; params?: Record<string, unknown> };
  if (!HOT_METHODS.has(message.method)) return undefined;
  const params = message.params ?? {};
  if ('inputResponses' in params || 'requestState' in params || 'task' in params) return undefined;
  if (!acceptsBoth(req.headers.accept) || !isJsonContentType(req.headers['content-type'])) return undefined;
  if (headerOf(req, 'mcp-protocol-version') !== MODERN_REVISION || headerOf(req, 'mcp-method') !== message.method) return undefined;
  const nameField = NAME_FIELD[message.method];
  if (nameField !== undefined && !plainlyEqual(params[nameField], headerOf(req, 'mcp-name'))) return undefined;
  return route;
}

/** A server of the pool: the SDK `Server` and the exchanges in progress on it, by request id. */
interface Member {
  readonly server: Server;
  readonly transport: ExchangeTransport;
}

/** Delivers the request to a server of the pool; resolves (with `true`) once its response is complete. */
function deliver(
  member: Member,
  req: IncomingMessage,
  res: ServerResponse,
  route: Route,
  incoming: HttpRequestInfo | undefined,
): Promise<true> {
  const { classification } = route;
  const authInfo = (req as IncomingMessage & { auth?: AuthInfo }).auth;
  return member.transport.exchange(res, route.message as JSONRPCMessage & { id: Id }, { classification, authInfo, incoming });
}

/** The pool of long-lived servers and the dispatch of a request to one of them. */
export class ModernPool {
  private readonly members: Member[] = [];
  private closed = false;

  /** `factory` makes a `Server` over the catalog, as the SDK's entry gets one per request. */
  constructor(
    private readonly factory: () => Server,
    private readonly maxServers = MAX_SERVERS,
    /** Whom a request counts against for task quotas (the endpoint's rule: token owner, else address). */
    private readonly countedCaller?: (req: IncomingMessage) => string,
  ) {}

  /**
   * Answers the request; resolves once its response is complete. `false` when the pool is full (nothing written).
   * Not an async function: with a server free (the usual case) the exchange's own promise is the answer.
   */
  handle(req: IncomingMessage, res: ServerResponse, route: Route, incoming?: HttpRequestInfo): Promise<boolean> {
    const member = this.memberFree((route.message as { id: Id }).id);
    return member ? deliver(member, req, res, route, incoming) : this.handleOnNew(req, res, route, incoming);
  }

  /** Answers the request on a new server of the pool: no server is free for its id. */
  private async handleOnNew(
    req: IncomingMessage,
    res: ServerResponse,
    route: Route,
    incoming: HttpRequestInfo | undefined,
  ): Promise<boolean> {
    const member = await this.newMember((route.message as { id: Id }).id);
    return member ? deliver(member, req, res, route, incoming) : false;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.members.splice(0).map((m) => m.server.close()));
  }

  /** The first server with no request of this id in progress (found without a promise: the usual case). */
  private memberFree(id: Id): Member | undefined {
    for (const member of this.members) if (!member.transport.busy(id)) return member;
    return undefined;
  }

  /** A new server for the pool, unless it is closed or full. */
  private async newMember(id: Id): Promise<Member | undefined> {
    if (this.closed || this.members.length >= this.maxServers) return undefined;
    const server = this.factory();
    servesRevision(server, MODERN_REVISION);
    const transport = new ExchangeTransport(this.countedCaller);
    const member = { server, transport };
    this.members.push(member);
    await server.connect(transport);
    return member.transport.busy(id) ? undefined : member;
  }
}

/**
 * The transport of one pooled server: every request delivered is an exchange with its own HTTP response, and what
 * the server sends goes to the exchange of the request it belongs to.
 */
export class ExchangeTransport implements Transport {
  readonly [PER_REQUEST_EXCHANGES] = true;
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private readonly exchanges = new InFlight<Exchange>();

  constructor(private readonly callerOfRequest?: (req: IncomingMessage) => string) {}

  async start(): Promise<void> {}

  /** Whom the request in progress under `id` counts against (protocol/counted-as.ts); asked only when a task starts. */
  countedCaller(id: Id): string | undefined {
    const exchange = this.exchanges.get(id);
    return exchange && this.callerOfRequest?.(exchange.request);
  }

  busy(id: Id): boolean {
    return this.exchanges.has(id);
  }

  /** Delivers the request and resolves once its response is complete. */
  exchange(
    res: ServerResponse,
    message: JSONRPCMessage & { id: Id },
    extra: { classification: Route['classification']; authInfo?: AuthInfo } & CarriesIncoming,
  ): Promise<true> {
    const exchange = new Exchange(res, this, message.id);
    this.exchanges.set(message.id, exchange);
    exchange.dispatching = true;
    try {
      this.onmessage?.(message, extra);
    } finally {
      exchange.dispatching = false;
    }
    return exchange.done;
  }

  /** The exchange of `id` is over: its id is free again. */
  ended(id: Id, exchange: Exchange): void {
    this.exchanges.settle(id, exchange);
  }

  /** Written at once; not an async function, which would cost a promise per message (a throw still rejects). */
  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const reply = (message as { method?: unknown }).method === undefined;
    const id = reply ? (message as { id?: Id }).id : options?.relatedRequestId;
    const exchange = id === undefined ? undefined : this.exchanges.get(id);
    // As the SDK's per-request transport: anything not tied to a request in progress has nowhere to go.
    if (!exchange) return SENT;
    try {
      exchange.write(message, reply);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    return SENT;
  }

  async close(): Promise<void> {
    for (const exchange of this.exchanges.takeAll()) exchange.abandon();
    this.onclose?.();
  }

  /** The client left before the reply: the request is cancelled as the SDK cancels a per-request exchange. */
  left(id: Id, exchange: Exchange): void {
    if (this.exchanges.get(id) !== exchange) return;
    this.exchanges.settle(id, exchange);
    this.onmessage?.({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: id, reason: 'The client closed the request stream.' },
    });
  }
}

/** One request's HTTP response: pending, then JSON, or an SSE stream. */
class Exchange {
  /** Resolves (with `true`, what the pool's `handle` answers) once the response is complete. */
  readonly done: Promise<true>;
  /** True while the request is being delivered: an error reply then is a refusal with its HTTP status. */
  dispatching = false;
  private finish!: (value: true) => void;
  private state: 'pending' | 'streaming' | 'ended' = 'pending';
  private keepAlive: NodeJS.Timeout | undefined;

  /** The HTTP request this exchange answers. */
  get request(): IncomingMessage {
    return this.res.req;
  }

  constructor(
    private readonly res: ServerResponse,
    private readonly transport: ExchangeTransport,
    private readonly id: Id,
  ) {
    this.done = new Promise<true>((resolve) => (this.finish = resolve));
    // `on`, not `once`: a response closes once, and `once` costs a wrapper per request.
    res.on('close', () => {
      if (this.state === 'ended') return;
      // Still in the table: `left` cancels the request, then `end` frees its id.
      this.transport.left(this.id, this);
      this.end();
    });
  }

  write(message: JSONRPCMessage, reply: boolean): void {
    if (this.state === 'ended') return;
    if (reply && this.state === 'pending') {
      const code = (message as { error?: { code?: unknown } }).error?.code;
      const status =
        typeof code === 'number' && (this.dispatching || code === ProtocolErrorCode.MissingRequiredClientCapability)
          ? (DISPATCH_ERROR_STATUS[code] ?? 200)
          : 200;
      const body = jsonTextOf(message);
      // A flat list rather than an object, the length as text as Node writes it (legacy/legacy-posts.ts writes it so too):
      // the same header bytes, with less of Node's header checking.
      this.res.writeHead(status, ['content-type', 'application/json', 'content-length', String(Buffer.byteLength(body))]).end(body);
      this.end();
      return;
    }
    if (this.state === 'pending') this.openStream();
    this.res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
    if (reply) {
      this.res.end();
      this.end();
    }
  }

  /** The server closed before the reply: as the SDK's entry answers then, 499 and no body (or the stream ends). */
  abandon(): void {
    if (this.state === 'pending' && !this.res.headersSent) this.res.writeHead(499).end();
    this.end();
  }

  end(): void {
    if (this.state === 'ended') return;
    this.state = 'ended';
    if (this.keepAlive) clearInterval(this.keepAlive);
    if (!this.res.writableEnded && this.res.headersSent) this.res.end();
    this.transport.ended(this.id, this);
    this.finish(true);
  }

  private openStream(): void {
    this.state = 'streaming';
    this.res.writeHead(200, SSE_HEADERS);
    this.keepAlive = setInterval(() => this.res.write(': keepalive\n\n'), KEEP_ALIVE_MS);
    this.keepAlive.unref();
  }
}
