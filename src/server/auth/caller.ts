import type { AuthInfo as SdkAuthInfo } from '@modelcontextprotocol/server';
import type { AuthInfo } from '../../invoke/request/request-context';

/**
 * The verified caller travels from the HTTP layer to the request handlers inside the SDK's `AuthInfo` (which the
 * SDK's transports pass on as `ctx.http.authInfo`). The SDK's type also holds the raw token; ours never does, so
 * handlers read the caller from here and the token goes no further.
 */

const CALLER = 'onemodelcontext.caller';
const ANONYMOUS = 'onemodelcontext.anonymous';
const ENDPOINT = 'onemodelcontext.endpoint';

/** An item as `auth.authorize` is asked about it: its kind and the name (URI for resources) it is listed under. */
export interface AuthorizeItem {
  /** A skill (`server.addSkills`) is named by its `SKILL.md` URI (`skill://git-workflow/SKILL.md`). */
  readonly kind: 'tool' | 'resource' | 'template' | 'prompt' | 'skill';
  readonly name: string;
}

/** `auth.authorize`: whether a caller (`undefined` for a caller without a token) may see and use an item. */
export type AuthorizePolicy = (caller: AuthInfo | undefined, item: AuthorizeItem) => boolean | Promise<boolean>;

/** What the request handlers need to know of the endpoint a request came through (its `auth` options). */
export interface EndpointAuth {
  /** Scopes every request with a token needs (`auth.scopes`). */
  readonly baseScopes: readonly string[];
  readonly allowAnonymous: boolean;
  readonly authorize?: AuthorizePolicy;
  /** How long `authorize` may take to answer about one item; a later answer refuses it (`auth.authorizeTimeoutMs`, default 5,000). */
  readonly authorizeTimeoutMs?: number;
}

/** `auth.authorizeTimeoutMs` unless given: a policy that never answers must not hang every listing. */
export const DEFAULT_AUTHORIZE_TIMEOUT_MS = 5000;

/** The session owner of a caller without a token: a session opened so is taken over by the first verified caller. */
export const ANONYMOUS_OWNER = '"anonymous"';

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

/**
 * The SDK's `AuthInfo` of a request without a token on an endpoint that lets such requests in
 * (`allowAnonymous`): no token, no scope, and no verified caller, so handlers see `ctx.auth` undefined.
 */
export function anonymousAuthInfo(resource: string): SdkAuthInfo {
  return { token: '', clientId: '', scopes: [], resource: new URL(resource), extra: { [ANONYMOUS]: true } };
}

/** Whether the HTTP layer let this request in without a token. */
export function isAnonymous(info: SdkAuthInfo | undefined): boolean {
  return info?.extra?.[ANONYMOUS] === true;
}

/** The `AuthInfo` with the endpoint's options attached, for the handlers (listing filters, `authorize`). */
export function withEndpoint(info: SdkAuthInfo, endpoint: EndpointAuth): SdkAuthInfo {
  return { ...info, extra: { ...info.extra, [ENDPOINT]: endpoint } };
}

/** The auth options of the endpoint a request came through; `undefined` without auth (stdio, in-process, no `auth`). */
export function endpointOf(info: SdkAuthInfo | undefined): EndpointAuth | undefined {
  return info?.extra?.[ENDPOINT] as EndpointAuth | undefined;
}

/** The verified caller of a request, from the SDK's `AuthInfo` the HTTP layer attached. */
export function verifiedCallerOf(info: SdkAuthInfo | undefined): AuthInfo | undefined {
  return info?.extra?.[CALLER] as AuthInfo | undefined;
}
