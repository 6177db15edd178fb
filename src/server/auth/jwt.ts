import { UsageTypeError } from '../../errors';
import type { JWTVerifyGetKey } from 'jose';
import { IssuerUnavailableError, type Issuer } from './issuer';
import type { JwtVerifierOptions } from './options';
import { authInfoOf, TokenRefusedError, type TokenCheck } from './tokens';

/**
 * The default verifier: JWT access tokens (RFC 9068) checked with `jose` against the issuer's key set. The key
 * set is found from the issuer's metadata, kept for ten minutes, and fetched again when a token names a key it
 * does not hold, at most every 30 seconds (jose's cooldown), so forged `kid`s cannot make us hammer the issuer.
 */

const ASYMMETRIC = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'] as const;

/** The allow-list, refusing at startup what can never be right with a public key set. */
export function allowedAlgorithms(algorithms: readonly string[] | undefined): readonly string[] {
  const allowed = algorithms ?? ASYMMETRIC;
  const wrong = allowed.filter((a) => a.toLowerCase() === 'none' || /^HS\d+$/i.test(a));
  if (wrong.length > 0) {
    throw new UsageTypeError(
      `auth.jwt.algorithms must not hold ${wrong.map((a) => `'${a}'`).join(', ')}: tokens are checked against the issuer's public keys, so an unsigned or HMAC token would be forgeable. Use asymmetric algorithms such as 'RS256' or 'ES256'.`,
    );
  }
  if (allowed.length === 0) throw new UsageTypeError(`auth.jwt.algorithms must name at least one algorithm, such as 'RS256'.`);
  return allowed;
}

type Jose = typeof import('jose');

/** Why jose refused a token, in words that name no token. */
function refusalOf(jose: Jose, error: unknown): Error {
  const { errors } = jose;
  if (error instanceof errors.JWTExpired) return new TokenRefusedError('The access token has expired.');
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'nbf' || error.claim === 'iat') return new TokenRefusedError('The access token is not valid yet.');
    if (error.claim === 'iss') return new TokenRefusedError('The access token was issued by another authorization server.');
    if (error.claim === 'aud') return new TokenRefusedError('The access token was not issued for this resource.');
    if (error.claim === 'typ') return new TokenRefusedError('The token is not an access token (typ).');
    return new TokenRefusedError(`The access token's '${error.claim}' claim is not valid.`);
  }
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) {
    return new TokenRefusedError('The access token is signed with an algorithm this server does not accept.');
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) return new TokenRefusedError('The access token signature is not valid.');
  if (error instanceof errors.JWKSNoMatchingKey)
    return new TokenRefusedError('The access token is signed with a key the authorization server does not publish.');
  if (error instanceof IssuerUnavailableError) return error;
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) {
    return new IssuerUnavailableError("The authorization server's keys are unavailable.", { cause: error });
  }
  if (error instanceof errors.JOSEError) return new TokenRefusedError('The access token is malformed.');
  // fetch failures reaching the key set
  return new IssuerUnavailableError("The authorization server's keys are unavailable.");
}

/**
 * The key set, where a failure to fetch it (a 503, a timeout, a refused connection, a body that is no key set) is
 * the issuer's trouble, named with its URL, and never a verdict on the token: jose reports a 503 as a plain
 * `JOSEError`, which would otherwise read as a malformed token (a 401 telling the client to drop a good token).
 */
function unavailableWhenUnreachable(jose: Jose, remote: JWTVerifyGetKey, jwksUri: string): JWTVerifyGetKey {
  return async (header, token) => {
    try {
      return await remote(header, token);
    } catch (error) {
      if (error instanceof jose.errors.JWKSNoMatchingKey || error instanceof jose.errors.JWKSMultipleMatchingKeys) throw error;
      throw new IssuerUnavailableError(`The key set at ${jwksUri} could not be fetched.`, { cause: error });
    }
  };
}

export function jwtVerifier(issuer: Issuer, resource: string, options: JwtVerifierOptions = {}): TokenCheck {
  const algorithms = [...allowedAlgorithms(options.algorithms)];
  const clockTolerance = options.clockToleranceSeconds ?? 30;
  const typ = options.tokenType === false ? undefined : (options.tokenType ?? 'at+jwt');
  // jose is loaded with the first token, so servers without auth never pay for it.
  let keys: Promise<{ jose: Jose; keySet: JWTVerifyGetKey }> | undefined;
  const keySet = async () => {
    const jose = await import('jose');
    const jwksUri = options.jwksUri ?? (await issuer.metadata()).jwks_uri;
    if (!jwksUri) throw new IssuerUnavailableError('The authorization server publishes no jwks_uri.');
    const remote = jose.createRemoteJWKSet(new URL(jwksUri), { cooldownDuration: 30_000, cacheMaxAge: 600_000, timeoutDuration: 5000 });
    return { jose, keySet: unavailableWhenUnreachable(jose, remote, jwksUri) };
  };

  return async (token) => {
    const loading = (keys ??= keySet());
    loading.catch(() => (keys = undefined));
    const { jose, keySet: getKey } = await loading;
    try {
      const { payload } = await jose.jwtVerify(token, getKey, {
        issuer: issuer.issuer,
        audience: resource,
        algorithms,
        clockTolerance,
        typ,
        requiredClaims: ['exp'],
      });
      return authInfoOf(payload);
    } catch (error) {
      throw refusalOf(jose, error);
    }
  };
}
