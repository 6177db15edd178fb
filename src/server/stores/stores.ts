import type { ServerEvent as SdkServerEvent, ServerEventBus as SdkServerEventBus } from '@modelcontextprotocol/server';
import { asError } from '../../errors';

/**
 * The storage seams a deployment of several processes replaces: the change-event bus (catalog changes and
 * resource updates). These are the MCP SDK's own interfaces, so an implementation written for the SDK works here.
 */

/**
 * A change event: a list changed, or one resource's content did (`resource_updated` with its URI).
 * @example
 * const event: ServerEvent = { kind: 'resource_updated', uri: 'weather://today' };
 */
export type ServerEvent = SdkServerEvent;

/**
 * Where catalog changes and resource updates are published and heard (`McpServerOptions.eventBus`). Implement it
 * over a pub/sub (Redis, NATS, Postgres LISTEN) so every process serving one catalog tells its own clients.
 * @example
 * const bus: ServerEventBus = {
 *   publish: (event) => redis.publish('mcp-events', JSON.stringify(event)),
 *   subscribe: (listener) => onMessage('mcp-events', (text) => listener(JSON.parse(text))),
 * };
 * const server = new McpServer({ name: 'weather', version: '1.0.0' }, { eventBus: bus });
 */
export type ServerEventBus = SdkServerEventBus;

/**
 * The default event bus: listeners in this process, told synchronously; a throwing listener does not stop delivery
 * to the others (it goes to `onerror`). The SDK's `InMemoryServerEventBus`, line for line, written here so that a
 * server's construction loads no SDK module (sdk/lazy.ts).
 * @example
 * const server = new McpServer({ name: 'weather', version: '1.0.0' }, { eventBus: new InMemoryServerEventBus() });
 */
export class InMemoryServerEventBus implements ServerEventBus {
  private readonly listeners = new Set<(event: ServerEvent) => void>();

  /** @param onerror Receives what a listener throws while an event is delivered. */
  constructor(private readonly onerror?: (error: Error) => void) {}

  publish(event: ServerEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.onerror?.(asError(error));
      }
    }
  }

  subscribe(listener: (event: ServerEvent) => void): () => void {
    this.listeners.add(listener);
    let live = true;
    return () => {
      if (!live) return;
      live = false;
      this.listeners.delete(listener);
    };
  }

  /** How many listeners are subscribed now. */
  get listenerCount(): number {
    return this.listeners.size;
  }
}
