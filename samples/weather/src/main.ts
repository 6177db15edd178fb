import type { HttpAuthOptions } from 'onemodelcontext';
import { weatherServer } from './server';

/**
 * `--auth`: an OAuth-protected endpoint. Tokens come from the issuer at `ISSUER` (default: the local one that
 * `npm run issuer` starts) and must grant `weather:read`; the Inspector's web UI may connect from the browser.
 */
function authOptions(): { auth?: HttpAuthOptions; cors?: { origins: string[] } } {
  if (!process.argv.includes('--auth')) return {};
  return {
    auth: { issuer: process.env.ISSUER ?? 'http://127.0.0.1:4000', scopes: ['weather:read'] },
    cors: { origins: ['http://localhost:6274'] },
  };
}

/**
 * `npm start`: Streamable HTTP on 127.0.0.1:3000. `npm run start:auth`: the same, protected by OAuth.
 * `npm run start:stdio`: stdio (for clients that spawn it).
 */
async function main(): Promise<void> {
  const server = weatherServer();
  if (process.argv.includes('--stdio')) {
    await server.serveStdio();
    console.error('weather MCP server on stdio');
    return;
  }
  const secured = authOptions();
  const { url } = await server.serveHttp({ host: '127.0.0.1', port: Number(process.env.PORT ?? 3000), path: '/mcp', ...secured });
  console.log(`weather MCP server listening on ${url}

Connect a client to it:
  MCP Inspector:  npx @modelcontextprotocol/inspector   (transport "Streamable HTTP", URL ${url})
  Claude Code:    claude mcp add --transport http weather ${url}
  Any client:     { "mcpServers": { "weather": { "type": "http", "url": "${url}" } } }
Over stdio instead: npm run start:stdio
Stop with Ctrl+C.`);
  if (secured.auth) {
    console.log(`
Auth mode: requests need a token from ${secured.auth.issuer} granting weather:read (npm run issuer starts a local
issuer and prints the curl command that fetches one). In the Inspector, paste it as the Bearer token.`);
  }
  const stop = () => void server.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

// One line a person can act on (a port in use, a definition problem), not a stack.
main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
