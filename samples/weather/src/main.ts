import { weatherServer } from './server';

/** `npm start`: Streamable HTTP on 127.0.0.1:3000. `npm run start:stdio`: stdio (for clients that spawn it). */
async function main(): Promise<void> {
  const server = weatherServer();
  if (process.argv.includes('--stdio')) {
    await server.serveStdio();
    console.error('weather MCP server on stdio');
    return;
  }
  const { url } = await server.serveHttp({ host: '127.0.0.1', port: Number(process.env.PORT ?? 3000), path: '/mcp' });
  console.log(`weather MCP server listening on ${url}

Connect a client to it:
  MCP Inspector:  npx @modelcontextprotocol/inspector   (transport "Streamable HTTP", URL ${url})
  Claude Code:    claude mcp add --transport http weather ${url}
  Any client:     { "mcpServers": { "weather": { "type": "http", "url": "${url}" } } }
Over stdio instead: npm run start:stdio
Stop with Ctrl+C.`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

// One line a person can act on (a port in use, a definition problem), not a stack.
main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
