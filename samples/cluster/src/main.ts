import Redis from 'ioredis';
import { connectRedis } from 'onemodelcontext/redis';
import { clusterServer } from './server';

/**
 * One instance, configured by the environment as a deployment would: PORT, MCP_ROUTE (this instance's name in
 * session ids), MCP_STATE_SECRET (the same in every instance, at least 32 bytes), REDIS_URL (the shared event
 * bus and SSE event store; without it the instance shares nothing).
 */
async function main(): Promise<void> {
  const route = process.env.MCP_ROUTE ?? 'a';
  // Refuses to start when Redis does not answer: an instance that shares nothing would be a silent split brain.
  const redis = process.env.REDIS_URL
    ? await connectRedis({ client: new Redis(process.env.REDIS_URL, { lazyConnect: true }), prefix: 'cluster-demo:' })
    : undefined;
  const server = clusterServer(route, process.env.MCP_STATE_SECRET, redis);
  const { url } = await server.serveHttp({
    host: '127.0.0.1',
    port: Number(process.env.PORT ?? 3001),
    route,
    eventStore: redis?.eventStore,
    health: redis ? { ready: redis.ready } : true,
    shutdown: { signals: ['SIGTERM', 'SIGINT'], deadlineMs: 30_000 },
  });
  console.log(`instance ${route} listening on ${url}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
