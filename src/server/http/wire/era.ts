import type { IncomingMessage } from 'node:http';
import { classifyInboundRequest, type InboundClassificationOutcome } from '@modelcontextprotocol/server';
import { isPlainHotRequest } from '../../protocol/rules';
import { MODERN_REVISION } from '../../revisions';
import { MESSAGE_KEYS, headerOf, isId } from '../../protocol/wire';
import { isObject, isObjectLike, isPlainObject } from '../../../objects';

/**
 * The SDK entry's era classification of an HTTP request (its `classifyInboundRequest`; `legacy` is its
 * `isLegacyRequest`), from the parsed body and Node's headers, without building a web `Request` for it.
 *
 * Two shortcuts, each giving exactly the classifier's answer:
 * - A plain hot request with no envelope in its `_meta` and no header claiming 2026-07-28 is 2025-era.
 * - A request whose envelope the classifier already accepted is modern again: the classifier's answer for a
 *   request depends only on the version and method headers, the method and the `_meta` (it checks the envelope
 *   there; validating it costs more than a tools/call's own reading), and clients send the same envelope with
 *   every request. Only accepted (modern) answers are remembered, with exactly those inputs, and a request
 *   takes a remembered answer only when every one of them is equal (the envelope compared value by value).
 */

/** What the classifier answers a request that claims no revision (the 2025 era's). */
const NO_CLAIM = { kind: 'legacy', reason: 'no-claim' } as const satisfies InboundClassificationOutcome;

/** Most remembered envelopes; the memory starts over when full (one client sends one envelope). */
const MAX_REMEMBERED = 1024;
/** Most envelopes remembered for one method and client name (clients of one name with different envelopes). */
const PER_SLOT = 8;

type Modern = Extract<InboundClassificationOutcome, { kind: 'modern' }>;

/** What the classifier's answer depends on, for a request it accepted, and that answer. */
interface Remembered {
  readonly version: string | undefined;
  readonly mcpMethod: string | undefined;
  readonly method: string;
  /** Whether a `_meta` equals the remembered one (a snapshot: the request's own is handed on and may change). */
  readonly meta: (value: unknown) => boolean;
  readonly classification: Modern['classification'];
}

/** The `_meta` of a JSON-RPC request whose shape is beyond doubt (the memo's input), else `undefined`. */
function metaOf(body: unknown): Readonly<Record<string, unknown>> | undefined {
  if (!isPlainObject(body) || body.jsonrpc !== '2.0' || typeof body.method !== 'string' || body.method === 'initialize') return undefined;
  if (!isId(body.id)) return undefined;
  for (const key in body) if (!MESSAGE_KEYS.has(key)) return undefined;
  const params = body.params;
  return isPlainObject(params) && isPlainObject(params._meta) ? params._meta : undefined;
}

/**
 * Where remembered answers are looked for, under the method: the client's name (`''` for none). Only a lookup, not the
 * memo's key: every input is compared in full (`matcherOf`), which costs far less than serialising the envelope per
 * request. Two levels of maps rather than one key joined per request, which would make a string per request.
 */
function clientOf(meta: Readonly<Record<string, unknown>>): string | undefined {
  const client = meta[CLIENT_INFO] as { name?: unknown } | undefined;
  return typeof client?.name === 'string' ? client.name : undefined;
}

const CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';

/**
 * A test of equality with a parsed JSON value, key order included (as their JSON texts would be equal), made once
 * when an answer is remembered. It walks the value it is given with `for...in`, which for a plain object visits the
 * own keys in `Object.keys` order without making their list: every request is compared, few are remembered.
 */
function matcherOf(expected: unknown): (value: unknown) => boolean {
  if (!isObjectLike(expected)) return (value) => value === expected;
  if (Array.isArray(expected)) {
    const items = expected.map(matcherOf);
    return (value) => Array.isArray(value) && value.length === items.length && items.every((item, i) => item(value[i]));
  }
  const keys = Object.keys(expected);
  // An own `__proto__` (JSON.parse makes one) is not reachable by indexing: such an envelope never matches.
  if (keys.includes('__proto__')) return () => false;
  const values = keys.map((key) => matcherOf((expected as Record<string, unknown>)[key]));
  return (value) => {
    if (!isObject(value)) return false;
    let i = 0;
    for (const key in value) {
      if (key !== keys[i] || !values[i]((value as Record<string, unknown>)[key])) return false;
      i++;
    }
    return i === keys.length;
  };
}

/** The request's method in capitals, as the classifier is given it: Node's parser already gives the usual ones so. */
function upperMethod(method: string | undefined): string {
  if (method === undefined) return 'GET';
  // `toUpperCase` goes to the runtime, some 400 instructions for a string that has nothing to change.
  return method === 'POST' || method === 'GET' || method === 'DELETE' ? method : method.toUpperCase();
}

export class EraClassifier {
  /** Remembered answers by method, then by client name (`undefined` for none). */
  private readonly accepted = new Map<string, Map<string | undefined, Remembered[]>>();
  private remembered = 0;
  private lastClaim: (typeof NO_CLAIM & { readonly requestedVersion: string }) | undefined;

  classify(req: IncomingMessage, body: unknown): InboundClassificationOutcome {
    const version = req.headers['mcp-protocol-version'];
    if (
      (version === undefined || (typeof version === 'string' && version < MODERN_REVISION)) &&
      req.method === 'POST' &&
      isPlainHotRequest(body)
    ) {
      return version === undefined ? NO_CLAIM : this.claimOf(version);
    }
    const httpMethod = upperMethod(req.method);
    // A POST without a JSON body is the 2025 transport's to refuse.
    if (httpMethod === 'POST' && body === undefined) return NO_CLAIM;
    const meta = httpMethod === 'POST' ? metaOf(body) : undefined;
    const known = meta && this.recall(req, (body as { method: string }).method, meta);
    if (known) return { kind: 'modern', messageKind: 'request', message: body, classification: known } as Modern;
    const outcome = classifyInboundRequest({
      httpMethod,
      protocolVersionHeader: headerOf(req, 'mcp-protocol-version'),
      mcpMethodHeader: headerOf(req, 'mcp-method'),
      mcpNameHeader: headerOf(req, 'mcp-name'),
      ...(body !== undefined && { body }),
    });
    if (meta && outcome.kind === 'modern' && outcome.messageKind === 'request')
      this.remember(req, (body as { method: string }).method, meta, outcome.classification);
    return outcome;
  }

  /**
   * The answer to a 2025-era request whose header names its revision: the one made for the last such revision (a
   * session's client names the same one every time), shared as `NO_CLAIM` is, rather than one object per request.
   */
  private claimOf(version: string): InboundClassificationOutcome {
    if (this.lastClaim?.requestedVersion !== version) this.lastClaim = { ...NO_CLAIM, requestedVersion: version };
    return this.lastClaim;
  }

  private recall(req: IncomingMessage, method: string, meta: Readonly<Record<string, unknown>>): Modern['classification'] | undefined {
    const slot = this.accepted.get(method)?.get(clientOf(meta));
    if (!slot) return undefined;
    const version = headerOf(req, 'mcp-protocol-version');
    const mcpMethod = headerOf(req, 'mcp-method');
    for (const r of slot) {
      if (r.version === version && r.mcpMethod === mcpMethod && r.method === method && r.meta(meta)) return r.classification;
    }
    return undefined;
  }

  private remember(
    req: IncomingMessage,
    method: string,
    meta: Readonly<Record<string, unknown>>,
    classification: Modern['classification'],
  ): void {
    if (this.remembered >= MAX_REMEMBERED) {
      this.accepted.clear();
      this.remembered = 0;
    }
    let byClient = this.accepted.get(method);
    if (!byClient) this.accepted.set(method, (byClient = new Map()));
    const client = clientOf(meta);
    const slot = byClient.get(client) ?? [];
    if (slot.length >= PER_SLOT) slot.shift();
    else this.remembered++;
    slot.push({
      version: headerOf(req, 'mcp-protocol-version'),
      mcpMethod: headerOf(req, 'mcp-method'),
      method,
      meta: matcherOf(meta),
      classification,
    });
    byClient.set(client, slot);
  }
}
