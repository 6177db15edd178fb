import type { IncomingMessage, ServerResponse } from 'node:http';
import { jsonRpcError } from '../../answers';
import type { StoreUnavailableError } from '../../stores/degraded';

/** Work this instance cannot take now, answered so that a load balancer sends it elsewhere. */

/**
 * New work sent to an instance that is shutting down: a session's request is answered 404 (the session ends
 * with this instance, so its client opens a new one, which the balancer places elsewhere); anything else
 * 503, which a balancer retries on another instance.
 */
export function refuseWhileDraining(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('connection', 'close');
  if (req.headers['mcp-session-id'] !== undefined) return jsonRpcError(res, 404, -32001, 'Session not found');
  res.setHeader('retry-after', '1');
  jsonRpcError(res, 503, -32000, 'Service Unavailable: this instance is shutting down; try again.');
}

/**
 * A shared store did not answer within its bound: 503 with `Retry-After`, which a balancer retries on another
 * instance where that is safe (docs/scaling.md). The store's own words went to the log.
 */
export function storeUnavailable(res: ServerResponse, error: StoreUnavailableError): void {
  res.setHeader('retry-after', String(error.retryAfterSeconds));
  jsonRpcError(res, 503, -32000, `Service Unavailable: ${error.message}`);
}
