import { UsageTypeError } from '../../errors';
import { createHash } from 'node:crypto';
import { IssuerUnavailableError, type Issuer } from './issuer';
import type { AuthInfo, IntrospectionOptions } from './options';
import { audienceIncludes, authInfoOf, TokenRefusedError, type TokenCheck } from './tokens';
import { isObjectLike } from '../../objects';

/**
 * Token introspection (RFC 7662) for opaque tokens. Every answer, active or not, is kept for a short time
 * (`cacheTtlMs`, never past the token's expiry), keyed by a hash of the token so the cache holds no token; a
 * revoked token is therefore refused at most that long after revocation. Active and refused answers are kept
 * apart, each up to `cacheSize`: made-up tokens (each costs one call) churn only the refused ones. Failures to
 * reach the issuer are not kept. The endpoint is never followed through a redirect, which would send the token
 * and the server's client secret to wherever it points.
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

/** Answers by token hash, oldest dropped first past `size`. */
class AnswerCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly size: number) {}

  get(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.until > Date.now()) return entry;
    if (entry) this.entries.delete(key);
    return undefined;
  }

  set(key: string, entry: Entry): void {
    this.entries.delete(key);
    if (this.entries.size >= this.size) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, entry);
  }
}

function checkCacheSize(size: unknown): number {
  if (size === undefined) return MAX_ENTRIES;
  if (!Number.isSafeInteger(size) || (size as number) < 1) {
    throw new UsageTypeError(
      `auth.introspection.cacheSize takes a whole number from 1, for example { cacheSize: 10000 }; got ${String(size)}.`,
    );
  }
  return size as number;
}

export function introspectionVerifier(issuer: Issuer, resource: string, options: IntrospectionOptions): TokenCheck {
  const ttl = options.cacheTtlMs ?? 30_000;
  const size = checkCacheSize(options.cacheSize);
  const active = new AnswerCache(size);
  const refused = new AnswerCache(size);
  // Calls under way, so that concurrent requests with one token cost one call; each leaves once answered.
  const pending = new Map<string, Promise<AuthInfo>>();
  const authorization = basicAuthorization(options.clientId, options.clientSecret);

  async function introspect(token: string): Promise<AuthInfo> {
    const endpoint = options.endpoint ?? (await issuer.metadata()).introspection_endpoint;
    if (!endpoint) throw new IssuerUnavailableError('The authorization server publishes no introspection_endpoint.');
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
      redirect: 'error',
      signal: AbortSignal.timeout(5000),
    }).catch(() => undefined);
    if (!response?.ok)
      throw new IssuerUnavailableError(`Token introspection at ${endpoint} failed${response ? ` (HTTP ${response.status})` : ''}.`);
    const claims = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
    if (!isObjectLike(claims)) throw new IssuerUnavailableError('Token introspection answered no JSON object.');
    if (claims.active !== true) throw new TokenRefusedError('The access token is not active.');
    if (claims.iss !== undefined && claims.iss !== issuer.issuer)
      throw new TokenRefusedError('The access token was issued by another authorization server.');
    // An answer without `aud` says nothing about the resource, and a token for another one must never pass.
    if (!audienceIncludes(claims.aud, resource)) throw new TokenRefusedError('The access token was not issued for this resource.');
    return authInfoOf(claims);
  }

  function remember(key: string, answer: Promise<AuthInfo>): void {
    pending.set(key, answer);
    answer.then(
      (info) => {
        pending.delete(key);
        // An answer is never reused past the token's own expiry.
        active.set(key, { until: Math.min(Date.now() + ttl, info.expiresAt * 1000), answer });
      },
      (error: unknown) => {
        pending.delete(key);
        if (error instanceof TokenRefusedError) refused.set(key, { until: Date.now() + ttl, answer });
      },
    );
  }

  return (token) => {
    const key = createHash('sha256').update(token).digest('base64url');
    const known = pending.get(key) ?? active.get(key)?.answer ?? refused.get(key)?.answer;
    if (known) return known;
    const answer = introspect(token);
    remember(key, answer);
    return answer;
  };
}
