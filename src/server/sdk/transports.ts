import type { JSONRPCMessage, MessageExtraInfo, Server, Transport, TransportSendOptions } from '@modelcontextprotocol/server';

/**
 * Where this library puts itself between an SDK transport and the SDK `Server` connected to it. A transport has one
 * `onmessage`, one `send`, one `onclose`, which the SDK sets on `connect` and which several of our layers wrap (the
 * hot dispatch, telemetry, the 2025-era not-found code, the legacy session posts): each wrap is one call here, so the
 * order the layers see a message in is the order of these calls, written at one place each. An HTTP session's hot
 * POST passes none of them: the hot dispatch takes it and takes those steps itself (protocol/hot-path.ts).
 */

export type Send = (message: JSONRPCMessage, options?: TransportSendOptions) => Promise<void>;
export type Receive = (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

/** Puts `wrap` in front of what the transport sends; it gets the `send` it replaces (already bound). */
export function interceptSend(transport: Transport, wrap: (next: Send) => Send): void {
  transport.send = wrap(transport.send.bind(transport));
}

/** Puts `wrap` in front of the transport's delivery of each message; it gets the handler it replaces (maybe none). */
export function interceptMessages(transport: Transport, wrap: (next: Receive | undefined) => Receive): void {
  transport.onmessage = wrap(transport.onmessage);
}

/** Runs `run` once the transport's close handler so far has run (even when it throws). */
export function afterClose(transport: Transport, run: () => void): void {
  const closed = transport.onclose;
  transport.onclose = () => {
    try {
      closed?.();
    } finally {
      run();
    }
  };
}

/** Runs `run` each time `server` has connected to a transport (the SDK has installed its handlers on it). */
export function afterConnect(server: Server, run: (transport: Transport) => void): void {
  const connect = server.connect.bind(server);
  server.connect = async (transport: Transport) => {
    await connect(transport);
    run(transport);
  };
}

/** Delivers the messages a transport receives to `receive` from now on, replacing whatever handler it had. */
export function deliverTo(transport: Transport, receive: Receive | undefined): void {
  transport.onmessage = receive;
}

/**
 * A view of a started transport that a `Server` can connect to: `start` does nothing, and the handler the server
 * installs is kept (`installed()`) and put on the transport only once `live()` is called, so the messages that
 * arrived while it connected can be delivered first.
 */
export class HeldView implements Transport {
  private handler: Receive | undefined;
  private isLive = false;

  constructor(private readonly transport: Transport) {}

  /** The handler the connected server installed. */
  get installed(): Receive | undefined {
    return this.handler;
  }

  /** From now on the transport delivers straight to the installed handler. */
  live(): void {
    this.isLive = true;
    this.transport.onmessage = this.handler;
  }

  async start(): Promise<void> {}
  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.transport.send(message, options);
  }
  close(): Promise<void> {
    return this.transport.close();
  }
  get sessionId(): string | undefined {
    return this.transport.sessionId;
  }
  get onmessage(): Receive | undefined {
    return this.handler;
  }
  set onmessage(handler: Receive | undefined) {
    this.handler = handler;
    if (this.isLive) this.transport.onmessage = handler;
  }
  get onclose(): (() => void) | undefined {
    return this.transport.onclose;
  }
  set onclose(handler: (() => void) | undefined) {
    this.transport.onclose = handler;
  }
  get onerror(): ((error: Error) => void) | undefined {
    return this.transport.onerror;
  }
  set onerror(handler: ((error: Error) => void) | undefined) {
    this.transport.onerror = handler;
  }
  setProtocolVersion(version: string): void {
    this.transport.setProtocolVersion?.(version);
  }
}

/** The private request-to-stream map of the SDK's session transport (its inner web-standard transport's). */
interface SessionStreams {
  readonly _webStandardTransport: { readonly _requestToStreamMapping: Map<string | number, string> };
}

/**
 * Tells the SDK's session transport that what the session sends for `requestId` from now on belongs to `streamId`
 * (a stream a legacy post opened and its client left), so it stores it there for the client's `Last-Event-ID`.
 */
export function handOverStream(transport: Transport, requestId: string | number, streamId: string): void {
  (transport as unknown as SessionStreams)._webStandardTransport._requestToStreamMapping.set(requestId, streamId);
}
