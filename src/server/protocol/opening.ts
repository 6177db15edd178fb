import type { JSONRPCMessage, MessageExtraInfo, Transport } from '@modelcontextprotocol/server';

/**
 * Reads a connection's opening message and hands the connection to whoever serves that era: an
 * `initialize` request goes straight to a 2025-era `Server` (`server.connect`), anything else (a
 * `server/discover` probe, an enveloped request) to the SDK's `serveStdio` entry, which owns the era
 * decision. The SDK's entry would serve `initialize` too, but relays every later message through its own
 * queue, which costs a fifth of a tools/call round trip on fast transports.
 */
export type Route = (transport: Transport, opening: JSONRPCMessage) => void | Promise<void>;

function isInitialize(message: JSONRPCMessage): boolean {
  return 'method' in message && message.method === 'initialize' && 'id' in message;
}

/** Starts the transport, waits for its first message and routes the connection by it. */
export async function routeByOpening(transport: Transport, routes: { readonly legacy: Route; readonly other: Route }): Promise<void> {
  const waiting: [JSONRPCMessage, MessageExtraInfo | undefined][] = [];
  let installed: Transport['onmessage'];
  let live = false;
  // A view of the started transport that a server can connect to: `start` does nothing, and the handler
  // the server installs takes over once the messages that arrived while it connected are delivered.
  const view: Transport = {
    start: async () => {},
    send: (message, options) => transport.send(message, options),
    close: () => transport.close(),
    get sessionId() {
      return transport.sessionId;
    },
    get onmessage() {
      return installed;
    },
    set onmessage(handler) {
      installed = handler;
      if (live) transport.onmessage = handler;
    },
    get onclose() {
      return transport.onclose;
    },
    set onclose(handler) {
      transport.onclose = handler;
    },
    get onerror() {
      return transport.onerror;
    },
    set onerror(handler) {
      transport.onerror = handler;
    },
    setProtocolVersion: (version) => transport.setProtocolVersion?.(version),
  };
  transport.onmessage = (message, extra) => {
    waiting.push([message, extra]);
    if (waiting.length > 1) return;
    void Promise.resolve((isInitialize(message) ? routes.legacy : routes.other)(view, message)).then(
      () => {
        for (const [m, e] of waiting.splice(0)) installed?.(m, e);
        live = true;
        transport.onmessage = installed;
      },
      (error: unknown) => transport.onerror?.(error instanceof Error ? error : new Error(String(error))),
    );
  };
  await transport.start();
}
