import { InMemoryTransport } from '@modelcontextprotocol/client';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { IN_STAGES, OUT_STAGES, stageIn, stageOut } from '../../../src/server/protocol/stages';
import { HeldView } from '../../../src/server/sdk/transports';

/** A linked pair of the SDK's in-memory transports; what `server` sends arrives at `client`, in order. */
async function pair(): Promise<{ server: InMemoryTransport; received: JSONRPCMessage[] }> {
  const [client, server] = InMemoryTransport.createLinkedPair();
  const received: JSONRPCMessage[] = [];
  client.onmessage = (message) => void received.push(message);
  await client.start();
  await server.start();
  return { server, received };
}

const ping = (id: number): JSONRPCMessage => ({ jsonrpc: '2.0', id, method: 'ping' });

/** An outbound step that notes its name in the message's `params.seen` and passes a copy on. */
const noting = (name: string) => (message: JSONRPCMessage) =>
  ({
    ...message,
    params: { seen: [...(((message as { params?: { seen?: string[] } }).params?.seen ?? []) as string[]), name] },
  }) as JSONRPCMessage;

describe('the stages of a connection', () => {
  it('are named in one order per direction', () => {
    expect(JSON.stringify(OUT_STAGES)).toBe('["legacy-codes","telemetry","legacy-posts","stdio-hand-over"]');
    expect(JSON.stringify(IN_STAGES)).toBe('["session-request","telemetry","hot-dispatch"]');
  });

  it('pass an outgoing message in the list order, whatever order they were installed in', async () => {
    const { server, received } = await pair();
    stageOut(server, 'stdio-hand-over', noting('stdio-hand-over'));
    stageOut(server, 'legacy-codes', noting('legacy-codes'));
    stageOut(server, 'telemetry', noting('telemetry'));
    await server.send(ping(1));
    expect(JSON.stringify(received)).toBe(
      '[{"jsonrpc":"2.0","id":1,"method":"ping","params":{"seen":["legacy-codes","telemetry","stdio-hand-over"]}}]',
    );
  });

  it('replace a stage installed again under its name, keeping its place', async () => {
    const { server, received } = await pair();
    stageOut(server, 'telemetry', noting('first'));
    stageOut(server, 'legacy-posts', noting('legacy-posts'));
    stageOut(server, 'telemetry', noting('second'));
    await server.send(ping(2));
    expect(JSON.stringify(received)).toBe('[{"jsonrpc":"2.0","id":2,"method":"ping","params":{"seen":["second","legacy-posts"]}}]');
  });

  it('end a message at a stage that sends it itself: later stages and the transport do not see it', async () => {
    const { server, received } = await pair();
    const taken: JSONRPCMessage[] = [];
    const later = jest.fn((message: JSONRPCMessage) => message);
    const own = stageOut(server, 'legacy-posts', (message) => {
      taken.push(message);
      return Promise.resolve();
    });
    stageOut(server, 'stdio-hand-over', later);
    await server.send(ping(3));
    expect(taken).toEqual([ping(3)]);
    expect(later).not.toHaveBeenCalled();
    expect(received).toEqual([]);
    // What the installer is given back is the transport's own `send`, past every stage.
    await own(ping(4));
    expect(received).toEqual([ping(4)]);
  });

  it('of a held view are its underlying transport’s: one outbound list per connection', async () => {
    const { server, received } = await pair();
    const view = new HeldView(server);
    stageOut(server, 'legacy-codes', noting('legacy-codes'));
    stageOut(view, 'telemetry', noting('telemetry'));
    await view.send(ping(5));
    await server.send(ping(6));
    expect(received.map((message) => JSON.stringify((message as { params?: unknown }).params))).toEqual([
      '{"seen":["legacy-codes","telemetry"]}',
      '{"seen":["legacy-codes","telemetry"]}',
    ]);
  });

  it('run an incoming message through the inbound list in its order, then the handler installed before the first stage', async () => {
    const { server } = await pair();
    const order: string[] = [];
    server.onmessage = () => void order.push('sdk');
    const around = (name: string) => (next: ((message: JSONRPCMessage) => void) | undefined) => (message: JSONRPCMessage) => {
      order.push(name);
      next?.(message);
    };
    stageIn(server, 'hot-dispatch', around('hot-dispatch'));
    stageIn(server, 'session-request', around('session-request'));
    stageIn(server, 'telemetry', around('telemetry'));
    server.onmessage!(ping(7));
    expect(order).toEqual(['session-request', 'telemetry', 'hot-dispatch', 'sdk']);
  });

  it('let an inbound stage keep a message from the rest', async () => {
    const { server } = await pair();
    const sdk = jest.fn();
    server.onmessage = sdk;
    stageIn(server, 'hot-dispatch', () => () => undefined);
    stageIn(server, 'telemetry', (next) => (message) => next?.(message));
    server.onmessage!(ping(8));
    expect(sdk).not.toHaveBeenCalled();
  });
});
