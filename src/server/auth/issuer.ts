import { OneModelContextError } from '../../errors';

/**
 * The authorization server as a resource server needs it: its metadata (RFC 8414, or OpenID Connect discovery),
 * fetched on first use and kept. A failed fetch is not kept, so the next request tries again, but at most once
 * per `retryMs` so an unreachable issuer is not hammered.
 */

export interface IssuerMetadata {
  readonly issuer: string;
  readonly jwks_uri?: string;
  readonly introspection_endpoint?: string;
  readonly [key: string]: unknown;
}

/** A refusal or failure while talking to the authorization server; its message names no token. */
export class IssuerUnavailableError extends OneModelContextError {
  readonly code = 'ISSUER_UNAVAILABLE';
}

const TIMEOUT_MS = 5000;

/** Where the metadata may be, in the order RFC 8414 section 3.1 and OpenID Connect Discovery give. */
function metadataUrls(issuer: string): readonly string[] {
  const url = new URL(issuer);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  const base = `${url.protocol}//${url.host}`;
  const urls = [`${base}/.well-known/oauth-authorization-server${path}`, `${base}/.well-known/openid-configuration${path}`];
  if (path) urls.push(`${base}${path}/.well-known/openid-configuration`);
  return urls;
}

export class Issuer {
  private cached: Promise<IssuerMetadata> | undefined;
  private failedAt = 0;

  constructor(
    readonly issuer: string,
    private readonly retryMs = 10_000,
  ) {}

  metadata(): Promise<IssuerMetadata> {
    if (this.cached) return this.cached;
    if (Date.now() - this.failedAt < this.retryMs)
      return Promise.reject(new IssuerUnavailableError('The authorization server metadata is unavailable.'));
    const fetched = this.fetchMetadata();
    this.cached = fetched;
    fetched.catch(() => {
      this.cached = undefined;
      this.failedAt = Date.now();
    });
    return fetched;
  }

  private async fetchMetadata(): Promise<IssuerMetadata> {
    // Why the last URL could not be fetched (connection refused, timeout ...), kept for the log.
    let failure: unknown;
    for (const url of metadataUrls(this.issuer)) {
      const response = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(TIMEOUT_MS) }).catch(
        (error: unknown) => void (failure = error),
      );
      if (!response?.ok) continue;
      const metadata = (await response.json().catch(() => undefined)) as IssuerMetadata | undefined;
      // RFC 8414 section 3.3: metadata naming another issuer must not be used.
      if (metadata?.issuer === this.issuer) return metadata;
      throw new IssuerUnavailableError(`The metadata at ${url} names another issuer.`);
    }
    throw new IssuerUnavailableError(`No authorization server metadata found for ${this.issuer}.`, { cause: failure });
  }
}
