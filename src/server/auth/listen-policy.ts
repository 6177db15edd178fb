import { AsyncLocalStorage } from 'node:async_hooks';
import type { McpHttpHandler, ServerEvent, ServerEventBus } from '@modelcontextprotocol/server';
import type { Visibility } from './visibility';
import { isObjectLike } from '../../objects';

/**
 * `auth.authorize` on 2026-07-28's `subscriptions/listen` over HTTP, as 2025's `resources/subscribe` has it
 * (protocol/server.ts): a resource the policy refuses the caller is acknowledged as an unknown URI is, the refusal
 * is logged, and its updates never reach the stream.
 *
 * The SDK's HTTP entry serves `subscriptions/listen` itself: its listen router subscribes the stream to the event
 * bus while it serves the request, with no hook per request. So the per-request handler is wrapped: a listen
 * request's refused URIs are worked out (the policy may be asynchronous) before the SDK sees it, and the SDK is
 * run in an async context that carries them; the bus the SDK subscribes to reads that context at subscription
 * time and leaves the refused URIs' updates out of that one stream. Leaving the URIs out of the request instead
 * would leave them out of the acknowledgement, telling the client which resources it is refused.
 */
export class ListenPolicy {
  /** The URIs the stream being subscribed may not follow, for the SDK's serving of one listen request. */
  private readonly refusedHere = new AsyncLocalStorage<ReadonlySet<string>>();

  constructor(private readonly visibility: Visibility) {}

  /** The bus to give the SDK's per-request handler: a listen stream subscribed while refusals are in force skips them. */
  bus(inner: ServerEventBus): ServerEventBus {
    return {
      publish: (event) => inner.publish(event),
      subscribe: (listener) => {
        const refused = this.refusedHere.getStore();
        if (refused === undefined) return inner.subscribe(listener);
        return inner.subscribe((event: ServerEvent) => {
          if (event.kind !== 'resource_updated' || !refused.has(event.uri)) listener(event);
        });
      },
    };
  }

  /** The SDK's per-request handler, serving each `subscriptions/listen` with the refused resources' updates left out. */
  handler<H extends McpHttpHandler>(inner: H): H {
    const fetch: McpHttpHandler['fetch'] = async (request, options) => {
      const listen = listenRequestOf(options?.parsedBody);
      if (listen === undefined) return inner.fetch(request, options);
      const refused = await this.visibility.refusedSubscriptions(options?.authInfo, listen.uris, listen.id);
      if (refused.size === 0) return inner.fetch(request, options);
      return this.refusedHere.run(refused, () => inner.fetch(request, options));
    };
    return { ...inner, fetch };
  }
}

/** The id and the `resourceSubscriptions` of a `subscriptions/listen` request that names resources. */
function listenRequestOf(body: unknown): { readonly id: string | number | undefined; readonly uris: readonly unknown[] } | undefined {
  if (!isObjectLike(body) || (body as { method?: unknown }).method !== 'subscriptions/listen') return undefined;
  const { id, params } = body as { id?: unknown; params?: { notifications?: { resourceSubscriptions?: unknown } } };
  const uris = params?.notifications?.resourceSubscriptions;
  if (!Array.isArray(uris) || uris.length === 0) return undefined;
  return { id: typeof id === 'string' || typeof id === 'number' ? id : undefined, uris };
}
