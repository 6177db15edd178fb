import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ParamModel } from '../../../schema/model';
import { MODERN_REVISION } from '../../revisions';
import { methodsWhere } from '../../methods';
import { headerOf } from '../../protocol/wire';
import { isObjectLike } from '../../../objects';
import type { HeaderParams } from '../guards/options';

/**
 * SEP-2243 `Mcp-Param-*` headers on 2026-07-28 HTTP requests: a `tools/call` whose arguments declare an
 * `x-mcp-header` must carry the header, equal to the argument, so that a proxy that routed on the header routed on
 * the truth. The rules are the protocol's (and the MCP server SDK's, which applies them only to tools of its own
 * high-level server): a null or missing argument expects nothing; `=?base64?...?=` values are decoded as UTF-8;
 * integers compare as numbers. A disagreement is answered 400 with JSON-RPC -32020 before the tool runs.
 */

/** JSON-RPC code of a header that disagrees with the body (2026-07-28). */
export const HEADER_MISMATCH = -32020;

export interface HeaderRejection {
  readonly header: string;
  readonly message: string;
}

const BASE64_PREFIX = '=?base64?';
const BASE64_SUFFIX = '?=';
const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const DECIMAL = /^-?\d+(\.\d+)?$/;

/** The header's text of an argument value, `undefined` for what no header can carry. */
function headerText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' && Number.isFinite(value) && (!Number.isInteger(value) || Number.isSafeInteger(value)))
    return String(value);
  return undefined;
}

/** A header value decoded; `undefined` when its Base64 form is not canonical Base64 of UTF-8. */
function decoded(value: string): string | undefined {
  if (!(value.startsWith(BASE64_PREFIX) && value.endsWith(BASE64_SUFFIX) && value.length >= BASE64_PREFIX.length + BASE64_SUFFIX.length))
    return value;
  const base64 = value.slice(BASE64_PREFIX.length, value.length - BASE64_SUFFIX.length);
  if (!CANONICAL_BASE64.test(base64)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(base64, 'base64'));
  } catch {
    return undefined;
  }
}

/** Why the headers disagree with the arguments of a tool's call, or `undefined` when they agree. */
function headerRejection(
  params: readonly ParamModel[],
  args: unknown,
  headerValue: (name: string) => string | undefined,
): HeaderRejection | undefined {
  const values = isObjectLike(args) ? (args as Record<string, unknown>) : {};
  for (const p of params) {
    if (p.header === undefined) continue;
    const header = `Mcp-Param-${p.header}`;
    const body = values[p.name];
    const text = body === null || body === undefined ? undefined : headerText(body);
    if (text === undefined) continue;
    const sent = headerValue(header.toLowerCase());
    const disagree = (why: string): HeaderRejection => ({ header, message: `Bad Request: the request headers and body disagree: ${why}` });
    if (sent === undefined) return disagree(`the body carries ${p.name}=${JSON.stringify(body)} but the ${header} header is absent`);
    const value = decoded(sent);
    if (value === undefined) return disagree(`the ${header} header carries an invalid Base64 value`);
    const equal = typeof body === 'number' && DECIMAL.test(value) ? Number(value) === body : value === text;
    if (!equal)
      return disagree(
        `the ${header} header decodes to ${JSON.stringify(value.slice(0, 256))} but the body carries ${p.name}=${JSON.stringify(body)}`,
      );
  }
  return undefined;
}

/** The methods whose arguments `Mcp-Param-*` headers repeat (server/methods.ts, `paramHeaders`): `tools/call`. */
const PARAM_HEADER_METHODS: ReadonlySet<unknown> = methodsWhere((row) => row.paramHeaders === true);

/** Why a `tools/call`'s `Mcp-Param-*` headers disagree with its arguments, if its tool declares any. */
function rejectionOf(tools: HeaderParams, message: unknown, req: IncomingMessage): HeaderRejection | undefined {
  const { method, params } = (isObjectLike(message) ? message : {}) as { method?: unknown; params?: unknown };
  if (!PARAM_HEADER_METHODS.has(method) || !isObjectLike(params)) return undefined;
  const call = params as { name?: unknown; arguments?: unknown };
  const headed = tools.headerParamsOf(String(call.name));
  if (headed === undefined || headed.length === 0) return undefined;
  return headerRejection(headed, call.arguments, (name) => headerOf(req, name));
}

/** Answers 400 (-32020) when a 2026-07-28 request's `Mcp-Param-*` headers disagree with its body; whether it did. */
export function refusedParamHeaders(tools: HeaderParams, req: IncomingMessage, res: ServerResponse, body: unknown): boolean {
  const version = req.headers['mcp-protocol-version'];
  if (typeof version !== 'string' || version < MODERN_REVISION) return false;
  const rejection = rejectionOf(tools, body, req);
  if (!rejection) return false;
  const id = (body as { id?: unknown } | null)?.id ?? null;
  const error = {
    code: HEADER_MISMATCH,
    message: rejection.message,
    data: { mismatch: { header: rejection.header, body: rejection.message } },
  };
  res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id, error }));
  return true;
}
