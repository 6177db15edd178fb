import { UsageTypeError } from '../../../errors';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CorsOptions } from '../../auth/options';

/**
 * CORS for browser hosts, off unless origins are given. Allowed origins get their own origin echoed (never `*`:
 * requests carry an `Authorization` header), the MCP headers a browser script must read are exposed, and
 * preflights are answered here. Other origins get no CORS headers, so the browser keeps the answer from them.
 */

const METHODS = 'GET, POST, DELETE, OPTIONS';
const EXPOSED = 'Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate';
const ALLOWED_HEADERS = 'Authorization, Content-Type, Accept, Last-Event-ID, Mcp-Session-Id, Mcp-Protocol-Version';

export class Cors {
  private readonly origins: ReadonlySet<string>;
  private readonly maxAge: string;

  constructor(options: CorsOptions) {
    if (
      !Array.isArray(options.origins) ||
      options.origins.some((o) => typeof o !== 'string' || o === '*' || o === 'null' || o.endsWith('/'))
    ) {
      throw new UsageTypeError(
        `cors.origins must list origins such as ['https://app.example.com'] (no '*', no 'null', no trailing slash).`,
      );
    }
    this.origins = new Set(options.origins);
    this.maxAge = String(options.maxAgeSeconds ?? 600);
  }

  allows(origin: string | undefined): boolean {
    return origin !== undefined && this.origins.has(origin);
  }

  /** Adds the CORS headers of an allowed origin's request. */
  decorate(req: IncomingMessage, res: ServerResponse): void {
    res.appendHeader('vary', 'Origin');
    const origin = req.headers.origin;
    if (!this.allows(origin)) return;
    res.setHeader('access-control-allow-origin', origin!);
    res.setHeader('access-control-expose-headers', EXPOSED);
  }

  /** Answers a preflight (`OPTIONS` with `Access-Control-Request-Method`); false for any other request. */
  preflight(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'OPTIONS' || req.headers['access-control-request-method'] === undefined) return false;
    res.appendHeader('vary', 'Origin');
    if (!this.allows(req.headers.origin)) {
      res.writeHead(403, { 'content-type': 'text/plain' }).end('Origin not allowed');
      return true;
    }
    // The requested headers are echoed so the newer MCP request headers pass without a list to keep current.
    const requested = req.headers['access-control-request-headers'];
    res.writeHead(204, {
      'access-control-allow-origin': req.headers.origin,
      'access-control-allow-methods': METHODS,
      'access-control-allow-headers': typeof requested === 'string' && requested.length > 0 ? requested : ALLOWED_HEADERS,
      'access-control-max-age': this.maxAge,
    });
    res.end();
    return true;
  }
}
