import type { AuthInfo as SdkAuthInfo } from '@modelcontextprotocol/server';
import type { AuthInfo } from '../../request-context';

/**
 * The verified caller travels from the HTTP layer to the request handlers inside the SDK's `AuthInfo` (which the
 * SDK's transports pass on as `ctx.http.authInfo`). The SDK's type also holds the raw token; ours never does, so
 * handlers read the caller from here and the token goes no further.
 */

const CALLER = 'onemodelcontext.caller';

/** The SDK's `AuthInfo` for a verified caller. */
export function sdkAuthInfoOf(token: string, caller: AuthInfo, resource: string): SdkAuthInfo {
  return {
    token,
    clientId: caller.clientId,
    scopes: [...caller.scopes],
    expiresAt: caller.expiresAt,
    resource: new URL(resource),
    extra: { [CALLER]: caller },
  };
}

/**
 * The one key of a verified caller, wherever something belongs to one (a 2025-era session, a 2026-07-28 task): its
 * issuer, subject and client as a JSON array, so no issuer, subject or client id, whatever characters it holds,
 * makes two callers' keys alike (a `:` join let client `app:u` with subject `42` read the tasks of client `app`
 * with subject `u:42`).
 */
export function callerKeyOf(caller: AuthInfo): string {
  const issuer = caller.claims.iss;
  return JSON.stringify([typeof issuer === 'string' ? issuer : null, caller.subject ?? null, caller.clientId]);
}

/** The verified caller of a request, from the SDK's `AuthInfo` the HTTP layer attached. */
export function verifiedCallerOf(info: SdkAuthInfo | undefined): AuthInfo | undefined {
  return info?.extra?.[CALLER] as AuthInfo | undefined;
}
