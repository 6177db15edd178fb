import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Node's request and response as the SDK's web-standard handler takes them. The body is not part of the web
 * `Request`: it was parsed once already and travels beside it (the SDK's `parsedBody`), so it is never
 * serialised again.
 */

const BODY_HEADERS = new Set(['content-length', 'transfer-encoding', 'content-encoding']);

/** A web `Request` with the headers of `req` and no body; `signal` aborts when the client leaves. */
export function webRequestOf(req: IncomingMessage, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(':') || BODY_HEADERS.has(name)) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  return new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, { method: req.method, headers, signal });
}

/** Writes a web `Response` to `res`: a JSON answer whole, an SSE body streamed with backpressure until the client leaves. */
export async function writeWebResponse(res: ServerResponse, response: Response, signal: AbortSignal): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  if (response.body === null) return void res.writeHead(response.status, headers).end();
  // A single JSON answer is sent whole, with its length: one write, no chunked framing.
  if (!headers['content-type']?.startsWith('text/event-stream')) {
    const body = Buffer.from(await response.arrayBuffer());
    headers['content-length'] = String(body.length);
    return void res.writeHead(response.status, headers).end(body);
  }
  res.writeHead(response.status, headers);
  const reader = response.body.getReader();
  signal.addEventListener('abort', () => void reader.cancel().catch(() => undefined), { once: true });
  try {
    for (let chunk = await reader.read(); !chunk.done && !signal.aborted; chunk = await reader.read()) {
      if (!res.write(chunk.value)) await new Promise((resolve) => res.once('drain', resolve).once('close', resolve));
    }
  } catch {
    // The client went away mid-stream; there is nobody left to answer.
  } finally {
    res.end();
  }
}
