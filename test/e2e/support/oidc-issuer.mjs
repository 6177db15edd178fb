// A real authorization server for the auth tests: oidc-provider (ESM only, so it runs in this child process
// rather than inside Jest's CommonJS runtime), on 127.0.0.1 with an ephemeral port.
//
// Input: one JSON line on stdin, { jwks, clients }. `jwks` is the signing key set (the test made it, so it can
// also sign deliberately broken tokens with the same key). Resources whose path ends in `/opaque` get opaque
// tokens (checked by introspection); every other resource gets JWT access tokens (RFC 9068).
// Output: one JSON line on stdout, { issuer }, once the server listens. The process ends when stdin closes.
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

const input = await new Promise((resolve) => {
  let text = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => {
    text += chunk;
    const end = text.indexOf('\n');
    if (end >= 0) resolve(JSON.parse(text.slice(0, end)));
  });
});

const http = createServer();
await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${http.address().port}`;

const provider = new Provider(issuer, {
  clients: input.clients,
  scopes: ['openid', 'offline_access', 'mcp', 'weather:read', 'orders:read', 'orders:write', 'admin'],
  jwks: input.jwks,
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    introspection: { enabled: true },
    revocation: { enabled: true },
    resourceIndicators: {
      enabled: true,
      // Client-credentials tokens name their resource (RFC 8707); every resource knows every test scope.
      getResourceServerInfo: (_ctx, resource) => ({
        scope: 'mcp weather:read orders:read orders:write admin',
        audience: resource,
        accessTokenTTL: 600,
        accessTokenFormat: new URL(resource).pathname.endsWith('/opaque') ? 'opaque' : 'jwt',
        jwt: { sign: { alg: 'RS256' } },
      }),
    },
  },
});
provider.on('server_error', (_ctx, error) => process.stderr.write(`issuer error: ${error.message}\n`));
http.on('request', provider.callback());
process.stdout.write(`${JSON.stringify({ issuer })}\n`);
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
