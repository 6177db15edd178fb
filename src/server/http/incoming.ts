import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { HttpRequestInfo } from '../../invoke/request/request-context';

/** The client's address (see `trustedProxies`): what the session caps count, and what `RequestContext.http.ip` says. */
export function addressOf(req: IncomingMessage, trustedProxies: number): string {
  const forwarded = req.headers['x-forwarded-for'];
  if (trustedProxies > 0 && typeof forwarded === 'string') {
    const hops = forwarded
      .split(',')
      .map((a) => a.trim())
      .filter((a) => a !== '');
    // The last `trustedProxies` entries were appended by our proxies; the one before the first of them is the client.
    const client = hops[hops.length - trustedProxies];
    if (client !== undefined) return client;
  }
  return req.socket.remoteAddress ?? 'unknown';
}

/**
 * `RequestContext.http` of the calls of one HTTP request: the headers are the request's own object, the address is
 * worked out when first read (few tools read it). One per HTTP request, made by the endpoint.
 */
export class IncomingRequest implements HttpRequestInfo {
  readonly #trustedProxies: number;
  #ip: string | undefined;

  constructor(
    readonly request: IncomingMessage,
    trustedProxies: number,
  ) {
    this.#trustedProxies = trustedProxies;
  }

  get headers(): IncomingHttpHeaders {
    return this.request.headers;
  }

  get ip(): string {
    return (this.#ip ??= addressOf(this.request, this.#trustedProxies));
  }
}
