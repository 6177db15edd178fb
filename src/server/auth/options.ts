import type { AuthInfo } from '../../invoke/request/request-context';
import type { AuthorizeItem, AuthorizePolicy } from './caller';

export type { AuthInfo, AuthorizeItem, AuthorizePolicy };

/**
 * The default verifier: JWT access tokens (RFC 9068) checked against the issuer's published keys.
 * @example
 * await server.serveHttp({ auth: { issuer: 'https://auth.example.com', jwt: { clockToleranceSeconds: 10 } } });
 */
export interface JwtVerifierOptions {
  /**
   * Signature algorithms accepted. Default: the asymmetric ones (`RS256`, `RS384`, `RS512`, `PS256`, `PS384`,
   * `PS512`, `ES256`, `ES384`, `ES512`, `EdDSA`). `none` and the HMAC algorithms (`HS256` ...) are refused:
   * the keys come from a public key set.
   */
  readonly algorithms?: readonly string[];
  /** Clock difference tolerated when checking `exp`, `nbf` and `iat`, in seconds. Default 30. */
  readonly clockToleranceSeconds?: number;
  /** The key set's URL; default: `jwks_uri` from the issuer's metadata. */
  readonly jwksUri?: string;
  /**
   * Accepted `typ` header values. Default `at+jwt` (RFC 9068, which tells access tokens from ID tokens); `false`
   * accepts tokens of any type, for authorization servers that write `JWT`.
   */
  readonly tokenType?: string | false;
}

/**
 * Token introspection (RFC 7662), for opaque access tokens: the authorization server is asked about each token,
 * and its answer is kept for a short time.
 * @example
 * await server.serveHttp({
 *   auth: { issuer: 'https://auth.example.com', introspection: { clientId: 'mcp-server', clientSecret: process.env.SECRET! } },
 * });
 */
export interface IntrospectionOptions {
  /** This server's own client id at the authorization server (client_secret_basic). */
  readonly clientId: string;
  readonly clientSecret: string;
  /** Default: `introspection_endpoint` from the issuer's metadata. */
  readonly endpoint?: string;
  /** How long an answer is reused, in milliseconds (never past the token's expiry). Default 30,000. */
  readonly cacheTtlMs?: number;
  /**
   * Most answers kept, for active and for refused tokens each (a flood of made-up tokens fills only the
   * refused ones, so it never pushes out the answers of real callers). Default 10,000.
   */
  readonly cacheSize?: number;
}

/**
 * Makes an HTTP endpoint an OAuth 2.1 resource server (the MCP authorization specification): protected resource
 * metadata (RFC 9728), bearer tokens checked on every request, audience binding (RFC 8707) and scope
 * challenges. Give at most one of `jwt` (the default), `introspection` and `verify`.
 * @example
 * await server.serveHttp({
 *   port: 3000,
 *   auth: { issuer: 'https://auth.example.com', resource: 'https://mcp.example.com/mcp', scopes: ['mcp'] },
 * });
 */
export interface HttpAuthOptions {
  /** The authorization server's issuer identifier (its metadata is found from it). */
  readonly issuer: string;
  /**
   * This server's resource identifier: its public URL, which tokens must name in `aud`. Default for
   * `serveHttp()`: the endpoint's URL; required for `createHttpHandler()` and behind a proxy.
   */
  readonly resource?: string;
  /** Scopes every request needs, whatever it calls (also named in the 401 challenge). */
  readonly scopes?: readonly string[];
  /** `scopes_supported` in the metadata; default: `scopes` and every scope a tool, resource or prompt declares. */
  readonly scopesSupported?: readonly string[];
  /** Options of the default JWT verifier. */
  readonly jwt?: JwtVerifierOptions;
  /** Check tokens by introspection instead of as JWTs. */
  readonly introspection?: IntrospectionOptions;
  /**
   * Check tokens yourself: resolve the caller, or `undefined` for a token you refuse (answered 401). When the
   * returned `claims` carry `aud`, it must name `resource`; otherwise checking the audience is yours.
   */
  readonly verify?: (token: string) => Promise<AuthInfo | undefined>;
  /**
   * Let requests without a token in, as an anonymous caller: it lists and uses the items marked `public: true`;
   * calling any other item answers the 401 challenge (naming the scopes that item needs), so a client starts
   * OAuth at that moment. A token that fails its check is still refused (401): anonymity is the absence of a
   * token. Default `false`: every request needs a token.
   */
  readonly allowAnonymous?: boolean;
  /**
   * One policy deciding, per caller, which tools, resources, templates and prompts exist for it: what it refuses
   * is absent from every listing and its calls are answered as an unknown item's (the refusal is logged).
   * `caller` is the verified caller, `undefined` for an anonymous one; `item.name` is the listed name (the URI
   * or URI template for resources). Runs after the scope checks; may be async. Listings are cached per
   * distinct set of answers.
   * @example authorize: (caller, item) => item.name !== 'delete_tenant' || caller?.claims.role === 'admin'
   */
  readonly authorize?: AuthorizePolicy;
  /**
   * How long `authorize` may take to answer about one item, in milliseconds. An answer that takes longer refuses
   * that item for that request, as `false` does (left out of the listing, a call answered as an unknown item's),
   * and is logged at warn (`auth.failed`, naming the item; once a minute per item): a policy that never answers
   * must not hang every listing. Default 5,000.
   */
  readonly authorizeTimeoutMs?: number;
  /** `resource_name` in the metadata. */
  readonly resourceName?: string;
  /** Accept an `http:` issuer outside localhost. For tests only. */
  readonly allowInsecureIssuer?: boolean;
}

/**
 * Cross-origin access for browser hosts (the Inspector's web UI, MCP Apps hosts). Off unless given.
 * @example
 * await server.serveHttp({ cors: { origins: ['http://localhost:6274'] } });
 */
export interface CorsOptions {
  /** Origins allowed, exactly as browsers send them (`https://app.example.com`, no trailing slash). */
  readonly origins: readonly string[];
  /** How long a browser may reuse a preflight answer, in seconds. Default 600. */
  readonly maxAgeSeconds?: number;
}
