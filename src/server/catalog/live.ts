import type { Server, ServerEvent, ServerEventBus } from '@modelcontextprotocol/server';
import { asError } from '../../errors';
import { JsonRpcCode, sdk } from '../sdk/lazy';
import type { CatalogKind } from './entries';
import { sendNotification } from '../sdk/notify';

/**
 * Change notifications for the connections that outlive a request: a 2025-era session (stdio or HTTP) and a
 * 2026-07-28 stdio connection. Every change is published once on the `ServerEventBus`; each such connection's
 * `Server` listens to the bus and writes the notification on its own wire. A 2026-07-28 HTTP client listens
 * through `subscriptions/listen`, which the SDK's HTTP entry serves from the same bus; on stdio the SDK's entry
 * turns the notifications this file writes into deliveries to the open `subscriptions/listen` streams, filtered
 * by each stream's filter.
 */

/** The bus event for a change of one kind of list. */
export function listChangedEvent(kind: CatalogKind): ServerEvent {
  return { kind: kind === 'tool' ? 'tools_list_changed' : kind === 'prompt' ? 'prompts_list_changed' : 'resources_list_changed' };
}

function notificationOf(event: ServerEvent): { method: string; params?: Record<string, unknown> } {
  switch (event.kind) {
    case 'tools_list_changed':
      return { method: 'notifications/tools/list_changed' };
    case 'prompts_list_changed':
      return { method: 'notifications/prompts/list_changed' };
    case 'resources_list_changed':
      return { method: 'notifications/resources/list_changed' };
    case 'resource_updated':
      return { method: 'notifications/resources/updated', params: { uri: event.uri } };
  }
}

/** Whether the connection declared the capability a notification needs (capabilities are fixed when it opens). */
function declares(server: Server, event: ServerEvent): boolean {
  const capabilities = server.getCapabilities();
  if (event.kind === 'tools_list_changed') return capabilities.tools?.listChanged === true;
  if (event.kind === 'prompts_list_changed') return capabilities.prompts?.listChanged === true;
  if (event.kind === 'resources_list_changed') return capabilities.resources?.listChanged === true;
  return capabilities.resources?.subscribe === true;
}

/** The URI of a `resources/subscribe` or `resources/unsubscribe` request. */
export function subscribedUri(params: unknown): string {
  const uri = (params as { uri?: unknown } | undefined)?.uri;
  if (typeof uri !== 'string' || uri.length === 0)
    throw new (sdk().ProtocolError)(JsonRpcCode.InvalidParams, 'Invalid params: uri must be a non-empty string.');
  return uri;
}

/**
 * Makes a connection's `Server` follow the bus. A 2025-era connection receives `notifications/resources/updated`
 * only for the URIs in `subscribed` (what its `resources/subscribe` requests admitted: protocol/server.ts); a
 * 2026-07-28 connection receives every event and the SDK's entry filters by subscription. Returns the function
 * that stops following (call it when the connection closes; the subscriptions go with it).
 */
export function followBus(server: Server, bus: ServerEventBus, era: 'legacy' | 'modern', subscribed: Set<string>): () => void {
  const stop = bus.subscribe((event) => {
    if (!declares(server, event)) return;
    if (era === 'legacy' && event.kind === 'resource_updated' && !subscribed.has(event.uri)) return;
    sendNotification(server, notificationOf(event)).catch((error: unknown) => server.onerror?.(asError(error)));
  });
  return () => {
    subscribed.clear();
    stop();
  };
}
