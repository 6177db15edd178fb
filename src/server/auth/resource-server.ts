import { UsageTypeError } from '../../errors';
import type { IncomingMessage } from 'node:http';
import {
  OAuthError,
  OAuthErrorCode,
  bearerAuthChallengeResponse,
  buildOAuthProtectedResourceMetadata,
  getOAuthProtectedResourceMetadataUrl,
  verifyBearerToken,
  type AuthInfo as SdkAuthInfo,
  type OAuthMetadata,
  type OAuthProtectedResourceMetadata,
  type OAuthTokenVerifier,
} from '@modelcontextprotocol/server';
import { Log } from '../../log';
import { jsonRpcErrorResponse } from '../answers';
import {
  ANONYMOUS_OWNER,
  DEFAULT_AUTHORIZE_TIMEOUT_MS,
  anonymousAuthInfo,
  callerKeyOf,
  isAnonymous,
  sdkAuthInfoOf,
  verifiedCallerOf,
  withEndpoint,
  type EndpointAuth,
} from './caller';
import { introspectionVerifier } from './introspection';
import { Issuer, IssuerUnavailableError } from './issuer';
import { jwtVerifier } from './jwt';
import type { AuthInfo, HttpAuthOptions } from './options';
import { audienceIncludes, TokenRefusedError, type TokenCheck } from './tokens';

/**
 * The endpoint as an OAuth 2.1 resource server (MCP authorization specification). The SDK provides the
 * parts that are the same for every server, and they are used as they are: the metadata document
 * (`buildOAuthProtectedResourceMetadata`), its URL (`getOAuthProtectedResourceMetadataUrl`), the bearer check
 * (`verifyBearerToken`: header parsing, audience comparison, expiry) and the challenge answers
 * (`bearerAuthChallengeResponse` for 401 `invalid_token` and 403 `insufficient_scope`). What is ours: the
 * verifiers (JWT, introspection, custom), the challenge for a request with no token at all (RFC 6750 section
 * 3.1 says it carries no error code, which the SDK's does) and the scopes each request needs. Every refusal
 * is logged for the developer (never the token): the client sees only the challenge.
 */

const WELL_KNOWN = '/.well-known/oauth-protected-resource';

/** A check that failed for want of the issuer or of a working verifier, not because of the token: answered 500. */
class TokenCheckFailure extends OAuthError {
  constructor(
    message: string,
    readonly failure: unknown,
  ) {
    super(OAuthErrorCode.ServerError, message);
  }
}

/** `POST /mcp`: the path only, since a query string may carry a token. */
function requestLine(req: IncomingMessage): string {
  return `HTTP ${req.method ?? '?'} ${new URL(req.url ?? '/', 'http://localhost').pathname}`;
}

function sessionOf(req: IncomingMessage): string | undefined {
  const sid = req.headers['mcp-session-id'];
  return typeof sid === 'string' ? sid : undefined;
}

/** Who was refused, in words a log may hold: the client and subject, never the token. */
function callerLine(info: SdkAuthInfo): string {
  const subject = verifiedCallerOf(info)?.subject;
  const granted = info.scopes.length > 0 ? info.scopes.join(' ') : 'none';
  return `client '${info.clientId}'${subject === undefined ? '' : ` (subject '${subject}')`}, granted scopes: ${granted}`;
}

function headerQuoted(value: string): string {
  return value.replace(/[\\"]/g, '\\$&');
}

export class ResourceServer {
  readonly resource: string;
  readonly metadataUrl: string;
  /** Scopes every request needs. */
  readonly baseScopes: readonly string[];
  private readonly verifier: OAuthTokenVerifier;
  private readonly metadataPaths: ReadonlySet<string>;
  /** What the request handlers are told of this endpoint (with every request's `AuthInfo`). */
  private readonly endpoint: EndpointAuth;

  /**
   * @param declaredScopes every scope a member needs now (members can be added after the endpoint starts)
   * @param localPath the endpoint's path on this server, when it differs from the public one
   */
  constructor(
    private readonly options: HttpAuthOptions & { readonly resource: string },
    private readonly declaredScopes: () => readonly string[],
    localPath: string | undefined,
    private readonly log: Log = Log.silent,
  ) {
    checkOptions(options);
    this.resource = options.resource;
    this.baseScopes = Object.freeze([...(options.scopes ?? [])]);
    const resourceUrl = new URL(options.resource);
    this.metadataUrl = getOAuthProtectedResourceMetadataUrl(resourceUrl);
    this.metadata(); // checks the issuer URL now rather than at the first request
    // The document is served at the root and path-suffixed forms (RFC 9728 section 3.1), for the public path
    // and for the local one when a proxy maps one onto the other.
    const suffix = (path: string) => (path === '/' ? '' : path.replace(/\/$/, ''));
    this.metadataPaths = new Set([
      WELL_KNOWN,
      WELL_KNOWN + suffix(resourceUrl.pathname),
      ...(localPath ? [WELL_KNOWN + suffix(localPath)] : []),
    ]);
    this.verifier = { verifyAccessToken: sdkVerifier(checkOf(options), options.resource) };
    this.endpoint = Object.freeze({
      baseScopes: this.baseScopes,
      allowAnonymous: options.allowAnonymous === true,
      authorize: options.authorize,
      authorizeTimeoutMs: options.authorizeTimeoutMs ?? DEFAULT_AUTHORIZE_TIMEOUT_MS,
    });
  }

  /** Whether a request path names the metadata document. */
  servesMetadata(pathname: string): boolean {
    return this.metadataPaths.has(pathname);
  }

  /** The protected resource metadata document (RFC 9728). */
  metadata(): OAuthProtectedResourceMetadata {
    const { options } = this;
    // Only `issuer` is read from the authorization server metadata here; the rest is fetched when needed.
    const metadata = buildOAuthProtectedResourceMetadata({
      oauthMetadata: { issuer: options.issuer } as OAuthMetadata,
      resourceServerUrl: new URL(options.resource),
      scopesSupported: [...new Set(options.scopesSupported ?? [...this.baseScopes, ...this.declaredScopes()])],
      resourceName: options.resourceName,
      dangerouslyAllowInsecureIssuerUrl: options.allowInsecureIssuer,
    });
    return { ...metadata, bearer_methods_supported: ['header'] };
  }

  /** Who a caller is, for tying a session to the caller that opened it. */
  ownerOf(info: SdkAuthInfo): string {
    if (isAnonymous(info)) return ANONYMOUS_OWNER;
    const caller = verifiedCallerOf(info);
    return caller ? callerKeyOf(caller) : JSON.stringify([null, null, info.clientId]);
  }

  /**
   * The verified caller of a request that holds the scopes it needs, or the answer refusing it: 401 without a
   * valid token, 403 when a scope is missing, 500 when the token could not be checked. Each refusal is logged.
   * With `allowAnonymous`, a request without a token that `openToAnonymous` is let in as an anonymous caller;
   * one that names a protected item gets the 401 challenge with the scopes that item needs.
   */
  async authorize(req: IncomingMessage, needed: readonly string[], openToAnonymous = false): Promise<SdkAuthInfo | Response> {
    if (!req.headers.authorization && this.endpoint.allowAnonymous) return this.anonymous(req, needed, openToAnonymous);
    const verified = await this.authenticate(req);
    if (verified instanceof Response) return verified;
    return this.challenge(req, verified, needed) ?? withEndpoint(verified, this.endpoint);
  }

  /** A request without a token on an endpoint with `allowAnonymous`: let in, or challenged when it needs a caller. */
  private anonymous(req: IncomingMessage, needed: readonly string[], open: boolean): SdkAuthInfo | Response {
    if (open) return withEndpoint(anonymousAuthInfo(this.resource), this.endpoint);
    // The moment a client starts OAuth: not a warning.
    this.log.info(`${requestLine(req)} refused with 401: it names an item that is not public and carries no access token`, {
      event: 'auth.refused',
      sessionId: sessionOf(req),
    });
    return this.unauthenticated([...new Set([...this.baseScopes, ...needed])]);
  }

  /** The verified caller, or the answer refusing the request (401, or 403 when a base scope is missing). */
  private async authenticate(req: IncomingMessage): Promise<SdkAuthInfo | Response> {
    const header = req.headers.authorization;
    if (!header) {
      // The first request of every OAuth client: how it learns where to get a token. Not a warning.
      this.log.info(`${requestLine(req)} refused with 401: it carries no access token (Authorization: Bearer)`, {
        event: 'auth.refused',
        sessionId: sessionOf(req),
      });
      return this.unauthenticated();
    }
    const options = {
      verifier: this.verifier,
      expectedResource: new URL(this.resource),
      requiredScopes: [...this.baseScopes],
      resourceMetadataUrl: this.metadataUrl,
    };
    try {
      return await verifyBearerToken(header, options);
    } catch (error) {
      if (error instanceof TokenCheckFailure && error.failure instanceof IssuerUnavailableError)
        return this.issuerUnavailable(req, error.failure);
      const answer = bearerAuthChallengeResponse(error, options);
      this.logRefusal(req, answer.status, error);
      return answer;
    }
  }

  /**
   * The scope challenge (403 `insufficient_scope`) when the caller lacks a scope the request needs. It names the
   * scopes already granted too, so a client stepping up does not lose them (the MCP specification's
   * recommendation).
   */
  private challenge(req: IncomingMessage, info: SdkAuthInfo, needed: readonly string[]): Response | undefined {
    const granted = new Set(info.scopes);
    const missing = needed.filter((s) => !granted.has(s));
    if (missing.length === 0) return undefined;
    const error = new OAuthError(
      OAuthErrorCode.InsufficientScope,
      `This request needs the scope${missing.length > 1 ? 's' : ''} ${missing.join(' ')}.`,
    );
    this.log.warn(`${requestLine(req)} refused with 403 insufficient_scope: ${error.message} The caller is ${callerLine(info)}.`, {
      event: 'auth.refused',
      sessionId: sessionOf(req),
    });
    return bearerAuthChallengeResponse(error, {
      requiredScopes: [...new Set([...info.scopes, ...needed])],
      resourceMetadataUrl: this.metadataUrl,
    });
  }

  /** Logs why the bearer check refused a request; the text is the `error_description` the client got too. */
  private logRefusal(req: IncomingMessage, status: number, error: unknown): void {
    const details = { event: 'auth.refused', sessionId: sessionOf(req) } as const;
    if (error instanceof OAuthError && !(error instanceof TokenCheckFailure)) {
      this.log.warn(`${requestLine(req)} refused with ${status} ${error.code}: ${error.message}`, details);
    } else {
      const failure = error instanceof TokenCheckFailure ? error.failure : error;
      this.log.error(`${requestLine(req)} answered ${status}: the access token could not be checked`, {
        ...details,
        event: 'auth.failed',
        error: failure,
      });
    }
  }

  /**
   * 503 with `Retry-After` when the issuer (its metadata, key set or introspection endpoint) cannot be reached: the
   * token may be perfectly good, so it is never a 401 telling the client to throw it away. The log names the URL.
   */
  private issuerUnavailable(req: IncomingMessage, failure: IssuerUnavailableError): Response {
    this.log.error(
      `${requestLine(req)} answered 503: the authorization server ${this.options.issuer} cannot be reached, so the access token could not be checked`,
      {
        event: 'issuer.unavailable',
        sessionId: sessionOf(req),
        error: failure,
      },
    );
    const message = 'Service Unavailable: the authorization server cannot be reached to check the access token; try again shortly.';
    return jsonRpcErrorResponse(503, -32000, message, { 'retry-after': String(Math.ceil(ISSUER_COOLDOWN_MS / 1000)) });
  }

  /**
   * 401 for a request without credentials: no error code (RFC 6750 section 3.1), where to find the metadata and
   * the scopes to ask for.
   */
  private unauthenticated(scopes: readonly string[] = this.baseScopes): Response {
    const scope = scopes.length > 0 ? `, scope="${headerQuoted(scopes.join(' '))}"` : '';
    const body = { error: 'invalid_request', error_description: 'This endpoint needs an access token (Authorization: Bearer).' };
    return Response.json(body, {
      status: 401,
      headers: { 'www-authenticate': `Bearer resource_metadata="${headerQuoted(this.metadataUrl)}"${scope}` },
    });
  }
}

function checkOptions(options: HttpAuthOptions): void {
  if (typeof options.issuer !== 'string' || !URL.canParse(options.issuer)) {
    throw new UsageTypeError(`auth.issuer must be the authorization server's issuer URL, such as 'https://auth.example.com'.`);
  }
  if (!URL.canParse(options.resource ?? '')) {
    throw new UsageTypeError(`auth.resource must be this server's public URL, such as 'https://mcp.example.com/mcp'.`);
  }
  const chosen = (['jwt', 'introspection', 'verify'] as const).filter((k) => options[k] !== undefined);
  if (chosen.length > 1) throw new UsageTypeError(`auth takes one of jwt, introspection and verify; it has ${chosen.join(' and ')}.`);
  if (options.verify !== undefined && typeof options.verify !== 'function')
    throw new UsageTypeError('auth.verify must be a function (token) => Promise<AuthInfo | undefined>.');
  const timeout = options.authorizeTimeoutMs;
  if (timeout !== undefined && (typeof timeout !== 'number' || !Number.isFinite(timeout) || timeout <= 0 || timeout > MAX_TIMER_MS)) {
    throw new UsageTypeError(
      `auth.authorizeTimeoutMs takes a number of milliseconds above 0 (at most ${MAX_TIMER_MS}), for example { authorizeTimeoutMs: 5000 }; got ${String(timeout)}.`,
    );
  }
}

/** The longest delay a Node timer keeps (a longer one fires after 1 ms). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** How long an issuer that could not be reached is answered as unreachable without asking it again. */
const ISSUER_COOLDOWN_MS = 5000;

/**
 * Remembers that the issuer could not be reached, for a short cooldown: a burst of requests during an outage
 * makes one fetch (the first), and the rest are answered 503 at once instead of each asking a server that is down.
 */
function rememberingFailures(check: TokenCheck): TokenCheck {
  let failure: { readonly error: IssuerUnavailableError; readonly until: number } | undefined;
  return async (token) => {
    if (failure && Date.now() < failure.until) throw failure.error;
    try {
      return await check(token);
    } catch (error) {
      if (error instanceof IssuerUnavailableError) failure = { error, until: Date.now() + ISSUER_COOLDOWN_MS };
      throw error;
    }
  };
}

function checkOf(options: HttpAuthOptions & { readonly resource: string }): TokenCheck {
  const issuer = new Issuer(options.issuer, ISSUER_COOLDOWN_MS);
  if (options.introspection) return rememberingFailures(introspectionVerifier(issuer, options.resource, options.introspection));
  const verify = options.verify;
  if (!verify) return rememberingFailures(jwtVerifier(issuer, options.resource, options.jwt));
  return async (token) => {
    const info = await verify(token);
    if (!info) throw new TokenRefusedError('The access token is not valid.');
    if (info.claims?.aud !== undefined && !audienceIncludes(info.claims.aud, options.resource)) {
      throw new TokenRefusedError('The access token was not issued for this resource.');
    }
    return info;
  };
}

/**
 * Our check as the SDK's verifier: refusals become `invalid_token`, anything else `server_error` (500), which
 * keeps the failure itself for the log.
 */
function sdkVerifier(check: TokenCheck, resource: string): OAuthTokenVerifier['verifyAccessToken'] {
  return async (token) => {
    let caller: AuthInfo;
    try {
      caller = await check(token);
    } catch (error) {
      if (error instanceof TokenRefusedError) throw new OAuthError(OAuthErrorCode.InvalidToken, error.message);
      const message = error instanceof IssuerUnavailableError ? error.message : 'The access token could not be checked.';
      throw new TokenCheckFailure(message, error);
    }
    // Every audience was compared with ours already; `resource` tells the SDK's own check it was.
    return sdkAuthInfoOf(token, caller, resource);
  };
}
