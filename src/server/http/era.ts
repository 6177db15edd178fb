import type { IncomingMessage } from 'node:http';
import { classifyInboundRequest, type InboundClassificationOutcome } from '@modelcontextprotocol/server';
import { isPlainHotRequest } from '../protocol/hot-path';
import { MODERN_REVISION } from '../protocol/revisions';
import { MESSAGE_KEYS, headerOf, isId } from '../protocol/wire';
import { isPlainObject } from '../../objects';

/**
 * The SDK entry's era classification of an HTTP request (its `classifyInboundRequest`; `legacy` is its
 * `isLegacyRequest`), from the parsed body and Node's headers, without building a web `Request` for it.
 *
 * Two shortcuts, each giving exactly the classifier's answer:
 * - A plain hot request with no envelope in its `_meta` and no header claiming 2026-07-28 is 2025-era.
 * - A request whose envelope the classifier already accepted is modern again: the classifier's answer for a
 *   request depends only on the version and method headers, the method and the `_meta` (it checks the envelope
 *   there; validating it costs more than a tools/call's own reading), and clients send the same envelope with
 *   every request. Only accepted (modern) answers are remembered, keyed by exactly those inputs.
 */

/** What the classifier answers a request that claims no revision (the 2025 era's). */
const NO_CLAIM = { kind: 'legacy', reason: 'no-claim' } as const satisfies InboundClassificationOutcome;

/** Most remembered envelopes; the memory starts over when full (one client sends one envelope). */
const MAX_REMEMBERED = 1024;

type Modern = Extract<InboundClassificationOutcome, { kind: 'modern' }>;

/** The memo key of a JSON-RPC request with a `_meta`, when its shape is beyond doubt; else `undefined`. */
function keyOf(req: IncomingMessage, body: unknown): string | undefined {
  if (!isPlainObject(body) || body.jsonrpc !== '2.0' || typeof body.method !== 'string' || body.method === 'initialize') return undefined;
  if (!isId(body.id)) return undefined;
  for (const key of Object.keys(body)) if (!MESSAGE_KEYS.has(key)) return undefined;
  const params = body.params;
  if (!isPlainObject(params) || !isPlainObject(params._meta)) return undefined;
  return JSON.stringify([headerOf(req, 'mcp-protocol-version') ?? null, headerOf(req, 'mcp-method') ?? null, body.method, params._meta]);
}

export class EraClassifier {
  private readonly accepted = new Map<string, Modern['classification']>();

  classify(req: IncomingMessage, body: unknown): InboundClassificationOutcome {
    const version = req.headers['mcp-protocol-version'];
    if (
      (version === undefined || (typeof version === 'string' && version < MODERN_REVISION)) &&
      req.method === 'POST' &&
      isPlainHotRequest(body)
    ) {
      return version === undefined ? NO_CLAIM : { ...NO_CLAIM, requestedVersion: version };
    }
    const httpMethod = (req.method ?? 'GET').toUpperCase();
    // A POST without a JSON body is the 2025 transport's to refuse.
    if (httpMethod === 'POST' && body === undefined) return NO_CLAIM;
    const key = httpMethod === 'POST' ? keyOf(req, body) : undefined;
    const known = key === undefined ? undefined : this.accepted.get(key);
    if (known) return { kind: 'modern', messageKind: 'request', message: body, classification: known } as Modern;
    const outcome = classifyInboundRequest({
      httpMethod,
      protocolVersionHeader: headerOf(req, 'mcp-protocol-version'),
      mcpMethodHeader: headerOf(req, 'mcp-method'),
      mcpNameHeader: headerOf(req, 'mcp-name'),
      ...(body !== undefined && { body }),
    });
    if (key !== undefined && outcome.kind === 'modern' && outcome.messageKind === 'request') this.remember(key, outcome.classification);
    return outcome;
  }

  private remember(key: string, classification: Modern['classification']): void {
    if (this.accepted.size >= MAX_REMEMBERED) this.accepted.clear();
    this.accepted.set(key, classification);
  }
}
