import type { JSONRPCMessage, Transport, TransportSendOptions } from '@modelcontextprotocol/server';
import { HeldView, replaceReceive, replaceSend, type Receive, type Send } from '../sdk/transports';

/**
 * The stages a connection's messages pass between the SDK `Server` and its transport, each a named place in one
 * ordered list per direction (as fastify's lifecycle is a list of named hooks): the order a message passes them
 * in is the order of the list, whoever installs first. Every message a connection sends leaves through the
 * outbound list, the SDK's own answers and the hot dispatch's alike, an HTTP session's hot POST included (its
 * answer is routed to the POST's response by the `legacy-posts` stage). An HTTP session's hot POST comes in past the
 * inbound list: the session hands it to the hot dispatch, which opens its telemetry itself (hot-path.ts).
 */

/**
 * What a connection sends passes these, in this order, before the transport writes it:
 * - `legacy-codes`: a 2025-era connection's resource-not-found code written back (wire.ts, `withLegacyNotFoundCode`);
 * - `telemetry`: a reply ends its request's operation, seeing the code the client gets (telemetry/telemetry.ts);
 * - `legacy-posts`: what belongs to an HTTP session's open hot POST goes to that POST's response (http/legacy/legacy-posts.ts);
 * - `stdio-hand-over`: what the stdio loop already answered is not sent again by the SDK (stdio/serve.ts).
 */
export const OUT_STAGES = ['legacy-codes', 'telemetry', 'legacy-posts', 'stdio-hand-over'] as const;
export type OutStage = (typeof OUT_STAGES)[number];

/**
 * What an outbound stage that wrote its message at once answers: a promise already settled, which the sender need not
 * wait a tick for (the hot dispatch does not, hot-path.ts).
 */
export const WRITTEN: Promise<void> = Promise.resolve();

/**
 * What a connection receives passes these, in this order, before the SDK's handler:
 * - `session-request`: an HTTP session's message carries its own POST's request (http/legacy/sessions.ts);
 * - `telemetry`: a request opens its operation and is dispatched inside its context (telemetry/telemetry.ts);
 * - `hot-dispatch`: a hot request is answered below the SDK (hot-path.ts); anything else goes on to the SDK.
 */
export const IN_STAGES = ['session-request', 'telemetry', 'hot-dispatch'] as const;
export type InStage = (typeof IN_STAGES)[number];

/**
 * An outbound stage: the message to pass on (the same, or rewritten), or the promise of having written it itself,
 * which ends the message's way (no later stage sees it).
 */
export type OutStep = (message: JSONRPCMessage, options: TransportSendOptions | undefined) => JSONRPCMessage | Promise<void>;

/** An inbound stage: given what comes after it, what runs in its place (it runs around the rest, a span's context). */
export type InStep = (next: Receive | undefined) => Receive;

/** One transport's two lists: the stages installed so far, by name, and what each list ends in. */
interface Lists {
  readonly out: Map<OutStage, OutStep>;
  readonly in: Map<InStage, InStep>;
  /** The transport's own `send`, taken when the first outbound stage was installed. */
  sent?: Send;
  /** The handler the SDK installed on connecting, taken when the first inbound stage was installed. */
  received?: { readonly handler: Receive | undefined };
}

const LISTS = new WeakMap<Transport, Lists>();

function listsOf(transport: Transport): Lists {
  let lists = LISTS.get(transport);
  if (!lists) LISTS.set(transport, (lists = { out: new Map(), in: new Map() }));
  return lists;
}

/** The outbound list run over one message: each installed stage in order, then the transport's own `send`. */
function runOut(steps: readonly OutStep[], sent: Send): Send {
  return (message, options) => {
    let passed = message;
    for (const step of steps) {
      const next = step(passed, options);
      if (next instanceof Promise) return next;
      passed = next;
    }
    return sent(passed, options);
  };
}

/**
 * Installs `step` as the outbound stage `name` of the connection (a view sending through another transport, the
 * opening's, installs it on that one: one list per connection); installing a name again replaces it. Returns the
 * transport's own `send`, past every stage.
 */
export function stageOut(transport: Transport, name: OutStage, step: OutStep): Send {
  const target = transport instanceof HeldView ? transport.underlying : transport;
  const lists = listsOf(target);
  const sent = (lists.sent ??= target.send.bind(target));
  lists.out.set(name, step);
  const steps = OUT_STAGES.flatMap((named) => {
    const installed = lists.out.get(named);
    return installed ? [installed] : [];
  });
  replaceSend(target, runOut(steps, sent));
  return sent;
}

/**
 * Installs `step` as the inbound stage `name` of the transport, once the SDK `Server` has connected to it (its
 * handler is what the list ends in); installing a name again replaces it.
 */
export function stageIn(transport: Transport, name: InStage, step: InStep): void {
  const lists = listsOf(transport);
  lists.received ??= { handler: transport.onmessage };
  lists.in.set(name, step);
  // Built from the last stage outwards: each wraps what follows it.
  const receive = IN_STAGES.reduceRight<Receive | undefined>((next, named) => lists.in.get(named)?.(next) ?? next, lists.received.handler);
  replaceReceive(transport, receive);
}
