import { SSE_CLOSE_AFTER_MS, conformanceServer } from './conformance';

/** `node dist/main.js [--stdio] [--port N]`: serves the conformance server over HTTP (default) or stdio. */
async function main(): Promise<void> {
  const server = conformanceServer();
  if (process.argv.includes('--stdio')) {
    await server.serveStdio();
    return;
  }
  const at = process.argv.indexOf('--port');
  const port = at >= 0 ? Number(process.argv[at + 1]) : Number(process.env.PORT ?? 3001);
  // SSE polling: a call running past this has its stream closed and resumed by the client (server-sse-polling).
  const { url } = await server.serveHttp({ port, sseCloseAfterMs: SSE_CLOSE_AFTER_MS });
  console.log(`MCP conformance server listening on ${url}`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
