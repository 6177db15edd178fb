import { InMemoryServerEventBus as SdkInMemoryServerEventBus, type ServerEvent as SdkServerEvent, type ServerEventBus as SdkServerEventBus } from '@modelcontextprotocol/server';

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
 * The default event bus: listeners in this process, told synchronously.
 * @example
 * const server = new McpServer({ name: 'weather', version: '1.0.0' }, { eventBus: new InMemoryServerEventBus() });
 */
export class InMemoryServerEventBus extends SdkInMemoryServerEventBus {}
