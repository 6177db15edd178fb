import { createHash } from 'node:crypto';
import { IssuerUnavailableError, type Issuer } from './issuer';
import type { AuthInfo, IntrospectionOptions } from './options';
import { audienceIncludes, authInfoOf, TokenRefusedError, type TokenCheck } from './tokens';

/**
 * Token introspection (RFC 7662) for opaque tokens. Every answer, active or not, is kept for a short time
 * (`cacheTtlMs`, never past the token's expiry), keyed by a hash of the token so the cache holds no token; a
 * revoked token is therefore refused at most that long after revocation. Failures to reach the issuer are not
 * kept.
 */

const MAX_ENTRIES = 10_000;

interface Entry {
  readonly until: number;
  readonly answer: Promise<AuthInfo>;
}

/** `client_secret_basic` (RFC 6749 section 2.3.1: both parts form-encoded first). */
function basicAuthorization(clientId: string, clientSecret: string): string {
  const encode = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${encode(clientId)}:${encode(clientSecret)}`).toString('base64')}`;
}

export function introspectionVerifier(issuer: Issuer, resource: string, options: IntrospectionOptions): TokenCheck {
  const ttl = options.cacheTtlMs ?? 30_000;
  const cache = new Map<string, Entry>();
  const authorization = basicAuthorization(options.clientId, options.clientSecret);

  async function introspect(token: string): Promise<AuthInfo> {
    const endpoint = options.endpoint ?? (await issuer.metadata()).introspection_endpoint;
    if (!endpoint) throw new IssuerUnavailableError('The authorization server publishes no introspection_endpoint.');
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
      signal: AbortSignal.timeout(5000),
    }).catch(() => undefined);
    if (!response?.ok) throw new IssuerUnavailableError(`Token introspection at ${endpoint} failed${response ? ` (HTTP ${response.status})` : ''}.`);
    const claims = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
    if (typeof claims !== 'object' || claims === null) throw new IssuerUnavailableError('Token introspection answered no JSON object.');
    if (claims.active !== true) throw new TokenRefusedError('The access token is not active.');
    if (claims.iss !== undefined && claims.iss !== issuer.issuer)
      throw new TokenRefusedError('The access token was issued by another authorization server.');
    // An answer without `aud` says nothing about the resource, and a token for another one must never pass.
    if (!audienceIncludes(claims.aud, resource)) throw new TokenRefusedError('The access token was not issued for this resource.');
    return authInfoOf(claims);
  }

  function remember(key: string, answer: Promise<AuthInfo>): void {
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
    cache.set(key, { until: Date.now() + ttl, answer });
    answer.then(
      (info) => {
        // An answer is never reused past the token's own expiry.
        const until = Math.min(Date.now() + ttl, info.expiresAt * 1000);
        if (cache.get(key)?.answer === answer) cache.set(key, { until, answer });
      },
      (error: unknown) => {
        if (!(error instanceof TokenRefusedError) && cache.get(key)?.answer === answer) cache.delete(key);
      },
    );
  }

  return (token) => {
    const key = createHash('sha256').update(token).digest('base64url');
    const cached = cache.get(key);
    if (cached && cached.until > Date.now()) return cached.answer;
    const answer = introspect(token);
    remember(key, answer);
    return answer;
  };
}
