import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { exportJWK, generateKeyPair, SignJWT, type JWK, type JWTPayload, type KeyLike } from 'jose';

/**
 * A real authorization server for tests: oidc-provider, run by the weather sample's issuer script in a child
 * process (oidc-provider is ESM only, which Jest's CommonJS runtime cannot load), with machine clients using the
 * client-credentials grant and resource indicators. The test owns the signing key, so it can sign deliberately
 * wrong tokens with the very key the issuer publishes.
 */

const SCRIPT = join(__dirname, '../../../samples/weather/scripts/issuer.mjs');

export interface TestClient {
  readonly client_id: string;
  readonly client_secret: string;
  readonly scope: string;
}

export const KID = 'issuer-key-1';

export class TestIssuer {
  private constructor(
    readonly url: string,
    private readonly child: ChildProcess,
    readonly privateKey: KeyLike,
    readonly publicJwk: JWK,
    private readonly errors: string[],
  ) {}

  static async start(clients: readonly TestClient[]): Promise<TestIssuer> {
    const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
    const jwk = { ...(await exportJWK(privateKey)), kid: KID, alg: 'RS256', use: 'sig' };
    const env = { ...process.env, ISSUER_PORT: '0', ISSUER_CLIENTS: JSON.stringify(clients), ISSUER_JWKS: JSON.stringify({ keys: [jwk] }) };
    const child = spawn(process.execPath, [SCRIPT], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const errors: string[] = [];
    child.stderr!.setEncoding('utf8').on('data', (text: string) => errors.push(text));
    const line = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the issuer did not start: ${errors.join('')}`)), 60_000);
      createInterface({ input: child.stdout! }).once('line', (l) => {
        clearTimeout(timer);
        resolve(l);
      });
      child.once('exit', (code) => reject(new Error(`the issuer exited (${code}): ${errors.join('')}`)));
    });
    const issuer = /^issuer listening on (\S+)$/.exec(line)?.[1];
    if (!issuer) throw new Error(`unexpected first line from the issuer: ${line}`);
    return new TestIssuer(issuer, child, privateKey, { ...(await exportJWK(publicKey)), kid: KID, alg: 'RS256' }, errors);
  }

  private basic(client: TestClient): string {
    return `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}`;
  }

  /** An access token from the issuer's token endpoint (client credentials, RFC 8707 resource). */
  async token(client: TestClient, scope: string, resource: string): Promise<string> {
    const response = await fetch(`${this.url}/token`, {
      method: 'POST',
      headers: { authorization: this.basic(client), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope, resource }),
    });
    const body = (await response.json()) as { access_token?: string };
    if (!response.ok || !body.access_token) throw new Error(`token request failed: ${response.status} ${JSON.stringify(body)}`);
    return body.access_token;
  }

  /** Revokes a token at the issuer (RFC 7009). */
  async revoke(client: TestClient, token: string): Promise<void> {
    const response = await fetch(`${this.url}/token/revocation`, {
      method: 'POST',
      headers: { authorization: this.basic(client), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
    });
    if (!response.ok) throw new Error(`revocation failed: ${response.status}`);
  }

  /** A JWT signed with the issuer's own key, with whatever claims and header the test wants. */
  sign(claims: JWTPayload, header: Record<string, unknown> = {}, key: KeyLike = this.privateKey): Promise<string> {
    return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: KID, ...header }).sign(key);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill();
    await exited;
  }
}
