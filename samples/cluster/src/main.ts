import { clusterServer } from './server';

/**
 * One instance, configured by the environment as a deployment would: PORT, MCP_ROUTE (this instance's name in
 * session ids), MCP_STATE_SECRET (the same in every instance, at least 32 bytes).
 */
async function main(): Promise<void> {
  const route = process.env.MCP_ROUTE ?? 'a';
  const server = clusterServer(route, process.env.MCP_STATE_SECRET);
  const { url } = await server.serveHttp({
    host: '127.0.0.1',
    port: Number(process.env.PORT ?? 3001),
    route,
    health: true,
    shutdown: { signals: ['SIGTERM', 'SIGINT'], deadlineMs: 30_000 },
  });
  console.log(`instance ${route} listening on ${url}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
