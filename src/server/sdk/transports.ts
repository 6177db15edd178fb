import type { JSONRPCMessage, MessageExtraInfo, Server, Transport, TransportSendOptions } from '@modelcontextprotocol/server';

/**
 * Helpers for what this library does with an SDK transport: its close and connect hooks, the opening's held view,
 * the SDK session transport's stream map. The stages our layers put on a transport's `send` and `onmessage` are
 * protocol/stages.ts's.
 */

export type Send = (message: JSONRPCMessage, options?: TransportSendOptions) => Promise<void>;
export type Receive = (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

/** Puts `send` in the transport's place (protocol/stages.ts's outbound list, which ends in the transport's own). */
export function replaceSend(transport: Transport, send: Send): void {
  transport.send = send;
}

/** Puts `receive` in the transport's handler's place (protocol/stages.ts's inbound list, which ends in the SDK's). */
export function replaceReceive(transport: Transport, receive: Receive | undefined): void {
  transport.onmessage = receive;
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

  /** The transport this view sends through (its outbound stages are that transport's). */
  get underlying(): Transport {
    return this.transport;
  }

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
