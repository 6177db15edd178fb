import type { IncomingMessage, ServerResponse } from 'node:http';
import { SERVER_CARD_PATHS } from '../../catalog/server-card';

/**
 * The server card's well-known document (`serverCard`, catalog/server-card.ts), at the root of the
 * host whatever the MCP endpoint's path. It is public metadata by design, so any origin may read it (the CORS
 * headers the server-cards proposal asks for), before the Host/Origin check that guards the endpoint itself.
 */

/** What every path of the card starts with. */
const CARD_PREFIX = '/.well-known/mcp/server-card';

const CARD_HEADERS = {
  'content-type': 'application/json',
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET',
  'access-control-allow-headers': 'Content-Type',
  // A few minutes: the listings can change while the server runs (the card's capabilities say `listChanged`).
  'cache-control': 'public, max-age=300',
};

/** Answers a request for the card (`GET`, `HEAD`, a preflight `OPTIONS`); whether it was one. */
export function answerServerCard(req: IncomingMessage, res: ServerResponse, card: () => string): boolean {
  // Asked of every request the endpoint gets: a URL is parsed only for a path that can be the card's.
  if (req.url?.startsWith(CARD_PREFIX) !== true) return false;
  const path = new URL(req.url, 'http://localhost').pathname;
  if (!SERVER_CARD_PATHS.includes(path)) return false;
  if (req.method === 'OPTIONS') {
    res.writeHead(204, CARD_HEADERS).end();
  } else if (req.method === 'GET' || req.method === 'HEAD') {
    const text = card();
    res.writeHead(200, { ...CARD_HEADERS, 'content-length': Buffer.byteLength(text) });
    res.end(req.method === 'HEAD' ? undefined : text);
  } else {
    res.writeHead(405, { ...CARD_HEADERS, allow: 'GET, HEAD, OPTIONS' }).end();
  }
  return true;
}
