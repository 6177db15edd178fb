import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpAdapterHost } from '@nestjs/core';
import type { McpServer } from '../index';

/** What Express (Node objects with `body`) and Fastify (`raw`, `hijack`) hand a route. */
interface FrameworkRequest {
  readonly raw?: IncomingMessage;
  readonly body?: unknown;
}
interface FrameworkReply {
  readonly raw?: ServerResponse;
  hijack?: () => void;
}

/**
 * Mounts the MCP endpoint on the application's own HTTP adapter, Express or Fastify, for POST, GET and
 * DELETE at `path`. The framework's JSON body parser has already read the body; it is handed on parsed.
 */
export function mountHttp(host: HttpAdapterHost, server: McpServer, path: string, validateHost: boolean): void {
  const adapter = host.httpAdapter;
  if (!adapter) {
    throw new Error(
      "McpModule: transport 'http' needs an HTTP application (NestFactory.create). For an application context " +
        "(NestFactory.createApplicationContext) use transport 'stdio' or 'none'.",
    );
  }
  const handler = server.createHttpHandler({ validateHost });
  const route = (req: FrameworkRequest & IncomingMessage, res: FrameworkReply & ServerResponse): Promise<void> => {
    const fastify = typeof res.hijack === 'function';
    if (fastify) res.hijack!();
    const rawReq = fastify ? req.raw! : req;
    const rawRes = fastify ? res.raw! : res;
    return handler.handle(rawReq, rawRes, req.body === undefined ? undefined : { body: req.body });
  };
  adapter.post(path, route);
  adapter.get(path, route);
  adapter.delete(path, route);
}
