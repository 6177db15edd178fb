// A local OAuth authorization server for trying the weather sample's auth mode (and for the project's auth
// tests): oidc-provider on 127.0.0.1, with a machine client that gets JWT access tokens through the
// client-credentials grant for the resource it names (RFC 8707 resource indicators).
//
//   npm run issuer                 listens on http://127.0.0.1:4000 (ISSUER_PORT to change; 0 picks a free port)
//
// ISSUER_CLIENTS (JSON list of { client_id, client_secret, scope }) and ISSUER_JWKS (JSON key set) replace the
// defaults. Resources whose path ends in `/opaque` get opaque tokens, to be checked by introspection. The first
// line written is `issuer listening on <url>`. oidc-provider is ESM only, hence a .mjs script.
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

const SCOPES = ['mcp', 'weather:read', 'orders:read', 'orders:write', 'admin'];
const clients = JSON.parse(process.env.ISSUER_CLIENTS ?? 'null') ?? [
  { client_id: 'weather-cli', client_secret: 'weather-secret', scope: 'weather:read' },
];
const jwks = process.env.ISSUER_JWKS ? JSON.parse(process.env.ISSUER_JWKS) : undefined;

const http = createServer();
await new Promise((resolve) => http.listen(Number(process.env.ISSUER_PORT ?? 4000), '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${http.address().port}`;

const provider = new Provider(issuer, {
  clients: clients.map((c) => ({ ...c, grant_types: ['client_credentials'], redirect_uris: [], response_types: [] })),
  scopes: ['openid', ...SCOPES],
  ...(jwks && { jwks }),
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    introspection: { enabled: true },
    revocation: { enabled: true },
    resourceIndicators: {
      enabled: true,
      // Every resource may be asked for; its tokens carry it in `aud`.
      getResourceServerInfo: (_ctx, resource) => ({
        scope: SCOPES.join(' '),
        audience: resource,
        accessTokenTTL: 600,
        accessTokenFormat: new URL(resource).pathname.endsWith('/opaque') ? 'opaque' : 'jwt',
        jwt: { sign: { alg: 'RS256' } },
      }),
    },
  },
});
provider.on('server_error', (_ctx, error) => console.error(`issuer error: ${error.message}`));
http.on('request', provider.callback());

const [client] = clients;
console.log(`issuer listening on ${issuer}

Get a token for the weather sample (started with npm run start:auth) with:
  curl -s -u ${client.client_id}:${client.client_secret} -d grant_type=client_credentials \\
    -d scope=${client.scope.split(' ')[0]} -d resource=http://127.0.0.1:3000/mcp ${issuer}/token
Stop with Ctrl+C.`);
