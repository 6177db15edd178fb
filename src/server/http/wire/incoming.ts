import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { HttpRequestInfo } from '../../../invoke/request/request-context';

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

/** What a client sends that accepts both answers, as the specification writes it (and `defaultAccept` fills it in). */
const USUAL_ACCEPT = 'application/json, text/event-stream';

/** The last other Accept value that named both answer types: a client sends the same one with every POST. */
let lastAccept: string | undefined;

/**
 * Whether Accept names both `application/json` and `text/event-stream`, as the SDK's transports require. The usual
 * value and the last one accepted are compared whole, which costs less than searching the header twice.
 */
export function acceptsBoth(accept: string | undefined): boolean {
  if (accept === USUAL_ACCEPT || (accept !== undefined && accept === lastAccept)) return true;
  if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) return false;
  lastAccept = accept;
  return true;
}
