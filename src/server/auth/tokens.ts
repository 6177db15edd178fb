import { OneModelContextError } from '../../errors';
import type { AuthInfo } from './options';

/**
 * What every verifier shares: the refusal it throws, and reading scopes and client ids out of claims.
 */

/** A token refused (answered 401 `invalid_token`); the message is sent as `error_description` and names no token. */
export class TokenRefusedError extends OneModelContextError {
  readonly code = 'TOKEN_REFUSED';
}

/** Checks one access token: resolves the caller or throws `TokenRefusedError` (or a failure to reach the issuer). */
export type TokenCheck = (token: string) => Promise<AuthInfo>;

/** `scope` (RFC 9068 and RFC 7662: space-separated), or `scp` as some servers write it (a list or a string). */
function scopesOf(claims: Readonly<Record<string, unknown>>): readonly string[] {
  const value = claims.scope ?? claims.scp;
  if (typeof value === 'string') return value.split(' ').filter((s) => s.length > 0);
  if (Array.isArray(value)) return value.filter((s): s is string => typeof s === 'string');
  return [];
}

/** Whether `aud` (a string or a list) names the resource. */
export function audienceIncludes(audience: unknown, resource: string): boolean {
  return typeof audience === 'string' ? audience === resource : Array.isArray(audience) && audience.includes(resource);
}

/** The caller a set of verified claims describes. */
export function authInfoOf(claims: Readonly<Record<string, unknown>>): AuthInfo {
  if (typeof claims.exp !== 'number') throw new TokenRefusedError('The access token has no expiry.');
  const clientId = claims.client_id ?? claims.azp;
  return {
    subject: typeof claims.sub === 'string' ? claims.sub : undefined,
    clientId: typeof clientId === 'string' ? clientId : '',
    scopes: Object.freeze(scopesOf(claims)),
    expiresAt: claims.exp,
    claims: Object.freeze({ ...claims }),
  };
}
