import type { IncomingMessage, ServerResponse } from 'node:http';
import { jsonRpcError } from '../../answers';
import { MAX_BODY_DEPTH, TOO_DEEP, textNestsDeeperThan } from './json-depth';
import { REVISION_2025_06_18 } from '../../revisions';
import { utf8Text } from '../../protocol/utf8';

/**
 * A POST body, read once: within the size limit (413 past it), valid UTF-8, valid JSON, not nested too deep
 * (400 otherwise), and not a JSON-RPC batch where the revision forbids batches (400).
 */

/** What a body that is still arriving when its request closes is rejected with (made only then). */
const CLOSED = Symbol('closed');

type Body = { body: unknown } | undefined;

/**
 * Reads the bytes of a request body and hands them to `read` once they are in, or `'too large'` as soon as they pass
 * `limit`; the promise of what `read` answers. Chunks are gathered and joined once at the end, with plain stream
 * events (an async iterator costs a promise per chunk). `read` runs in the `end` event itself, so a body is read and
 * parsed without a promise and a tick of its own between its bytes and its JSON.
 */
function readBytes(req: IncomingMessage, limit: number, read: (bytes: Buffer | 'too large') => Body | Promise<Body>): Promise<Body> {
  // Read by someone else already: nothing more will arrive.
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0)).then(read);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    // The listeners stay: after the first outcome the others are ignored (a request always closes after its end),
    // which costs less than taking four listeners off every request.
    const finish = (outcome: Buffer | 'too large' | Error | typeof CLOSED) => {
      if (done) return;
      done = true;
      // eslint-disable-next-line no-restricted-syntax -- answered by the endpoint, never thrown to a caller (src/errors.ts)
      if (outcome === CLOSED) reject(new Error('The request was closed before its body ended.'));
      else if (outcome instanceof Error) reject(outcome);
      // A body too large is answered a tick later, as it always was; the usual body is read here and now.
      else if (outcome === 'too large') resolve(Promise.resolve(outcome).then(read));
      else {
        try {
          resolve(read(outcome));
        } catch (error) {
          reject(error as Error);
        }
      }
    };
    const onData = (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        finish('too large');
      } else chunks.push(chunk);
    };
    const onEnd = () => finish(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
    const onClose = () => finish(CLOSED);
    req.on('data', onData).on('end', onEnd).on('error', finish).on('close', onClose);
  });
}

/** Answers 413 and closes the connection after the answer. */
function tooLarge(req: IncomingMessage, res: ServerResponse, limit: number): undefined {
  res.setHeader('connection', 'close');
  jsonRpcError(res, 413, -32000, `Payload Too Large: the request body must not exceed ${limit} bytes.`);
  req.resume();
  return undefined;
}

/** Reads a POST body up to `limit` bytes; `undefined` after answering 413 or 400 itself. */
export function readJsonBody(req: IncomingMessage, res: ServerResponse, limit: number): Promise<{ body: unknown } | undefined> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve(tooLarge(req, res, limit));
  return readBytes(req, limit, (bytes) => jsonOf(req, res, limit, bytes));
}

/** The body's JSON, once its bytes are in; `undefined` after answering 413 or 400. */
function jsonOf(req: IncomingMessage, res: ServerResponse, limit: number, bytes: Buffer | 'too large'): Body {
  if (bytes === 'too large') {
    tooLarge(req, res, limit);
    // Stop reading a body that is still arriving: the connection closes after the answer.
    req.destroy();
    return undefined;
  }
  const text = utf8Text(bytes);
  if (text === undefined) {
    jsonRpcError(res, 400, -32700, 'Parse error: the request body is not valid UTF-8.');
    return undefined;
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    jsonRpcError(res, 400, -32700, 'Parse error: the request body is not valid JSON.');
    return undefined;
  }
  if (textNestsDeeperThan(text, MAX_BODY_DEPTH)) {
    jsonRpcError(res, 400, -32600, TOO_DEEP);
    return undefined;
  }
  return { body };
}

/**
 * The revision a batch is sent under: an `initialize` in it names its own, anything else the
 * `MCP-Protocol-Version` header (on a session, the negotiated revision when the header is missing); a request
 * with neither is 2025-03-26, which allows batches.
 */
function batchRevisionOf(req: IncomingMessage, batch: readonly unknown[]): string | undefined {
  const initialize = batch.find((m) => (m as { method?: unknown } | null)?.method === 'initialize') as
    { params?: { protocolVersion?: unknown } } | undefined;
  const version = initialize ? initialize.params?.protocolVersion : req.headers['mcp-protocol-version'];
  return typeof version === 'string' ? version : undefined;
}

/** Answers 400 to a JSON-RPC batch where the revision forbids batches (2025-06-18 removed them); whether it did. */
export function refusedBatch(req: IncomingMessage, res: ServerResponse, body: unknown): boolean {
  if (!Array.isArray(body)) return false;
  const revision = batchRevisionOf(req, body);
  if (revision === undefined || revision < REVISION_2025_06_18) return false;
  jsonRpcError(
    res,
    400,
    -32600,
    `Invalid Request: protocol revision ${revision.replace(/[^\w.-]/g, '?').slice(0, 20)} does not allow JSON-RPC batches (removed in ${REVISION_2025_06_18}); send one message per request.`,
  );
  return true;
}
