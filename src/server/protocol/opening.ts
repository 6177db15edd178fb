import type { JSONRPCMessage, MessageExtraInfo, Transport } from '@modelcontextprotocol/server';
import { asError } from '../../errors';
import { HeldView, deliverTo } from '../sdk/transports';

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
  // The view the route's server connects to: the handler it installs takes over once the messages that arrived
  // while it connected are delivered.
  const view = new HeldView(transport);
  deliverTo(transport, (message, extra) => {
    waiting.push([message, extra]);
    if (waiting.length > 1) return;
    void Promise.resolve((isInitialize(message) ? routes.legacy : routes.other)(view, message)).then(
      () => {
        for (const [m, e] of waiting.splice(0)) view.installed?.(m, e);
        view.live();
      },
      (error: unknown) => transport.onerror?.(asError(error)),
    );
  });
  await transport.start();
}
