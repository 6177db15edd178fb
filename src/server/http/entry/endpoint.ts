/**
 * Streamable HTTP for both eras on one endpoint: 2026-07-28 requests (they carry the `_meta` envelope) go
 * to the modern pool or the SDK's stateless per-request handler; 2025-era requests get a session each
 * (`Mcp-Session-Id`), so progress, cancellation, logging, sampling and elicitation work for them.
 */

// The face of http/: what mcp-server.ts, server/connections.ts, src/index.ts and the tests import of the endpoint
// (start.ts requires it when a server first serves HTTP). The handler's steps are in handler.ts, its own
// listener in listen.ts, the options and the shapes it takes and returns in guards/options.ts.
export type {
  HttpAddress,
  HttpHandler,
  HttpHandlerOptions,
  HttpServing,
  ListeningEndpoint,
  MemberRules,
  ServeHttpOptions,
  SessionTuning,
} from '../guards/options';
export { createHttpHandler } from './handler';
export { startHttp } from './listen';
