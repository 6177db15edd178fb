import type { AuthInfo, ServerContext } from '@modelcontextprotocol/server';
import type { HttpRequestInfo } from '../../invoke/request/request-context';
import type { CarriesIncoming } from '../sdk/server';

export type { CarriesIncoming };

/**
 * How the HTTP request of a call reaches its `RequestContext.http`: the endpoint (http/) makes one
 * `HttpRequestInfo` per HTTP request and hands it on beside the verified caller (`authInfo`), as `incoming` of the
 * message's extra information. The hot dispatch (hot-path.ts) and the SDK's own dispatch (`buildContext` of
 * sdk/server.ts) carry it into the handler context's `http`; a per-request exchange of the SDK's web-standard
 * handler, whose extra information the SDK makes itself, is found by its web `Request` (tagged here). Kept by
 * reference: nothing of the request is copied.
 */

/** What the endpoint hands on with a 2025-era session's POST (http/legacy/legacy-posts.ts): the verified caller and the request. */
export interface HttpExtra extends CarriesIncoming {
  readonly authInfo?: AuthInfo;
}

const tagged = new WeakMap<object, HttpRequestInfo>();

/** Tags the web `Request` of a per-request exchange with the HTTP request it was made from. */
export function tagIncoming(request: object, incoming: HttpRequestInfo): void {
  tagged.set(request, incoming);
}

/** The HTTP request of a handler context, `undefined` for a call that did not come over HTTP. */
export function incomingOf(ctx: ServerContext): HttpRequestInfo | undefined {
  const http = ctx.http as (NonNullable<ServerContext['http']> & CarriesIncoming) | undefined;
  if (http === undefined) return undefined;
  return http.incoming ?? (http.req !== undefined ? tagged.get(http.req) : undefined);
}
