import { UsageTypeError } from '../../../errors';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { hostHeaderValidation, originValidation } from '@modelcontextprotocol/node';
import { localhostAllowedHostnames } from '@modelcontextprotocol/server';
import { jsonRpcError } from '../../answers';
import type { Cors } from './cors';

/**
 * The `Host` and `Origin` checks of every request (DNS rebinding, cross-site requests; the transport
 * specification says servers must validate `Origin`), whatever address the endpoint is bound to:
 * - `Host` is checked against `allowedHosts` when given, else against loopback names when the endpoint is
 *   bound to loopback (or a mounted handler keeps `validateHost`), else not at all;
 * - a request without `Origin` passes (MCP clients that are not browsers send none); `Origin: null` (sandboxed
 *   frames, `file:` pages, redirects) never does; an origin listed in `cors.origins` does; otherwise the
 *   origin's host name must be one of the checked host names. With no checked host names (a public bind
 *   without `allowedHosts`), only listed origins pass.
 * Refusals are answered 403 here.
 */

export interface SourceOptions {
  /** Check `Host` (and `Origin`) against loopback names. */
  readonly loopback: boolean;
  /** Host names (no port; IPv6 in brackets) the endpoint answers to, such as `['mcp.example.com']`. */
  readonly allowedHosts?: readonly string[];
  readonly cors?: Cors;
}

type Guard = (req: IncomingMessage, res: ServerResponse) => boolean;

export function checkAllowedHosts(hosts: unknown): readonly string[] | undefined {
  if (hosts === undefined) return undefined;
  if (
    !Array.isArray(hosts) ||
    hosts.length === 0 ||
    hosts.some((h) => typeof h !== 'string' || h === '' || /[:/\s]/.test(h.replace(/^\[.*\]$/, '')))
  ) {
    throw new UsageTypeError(
      `allowedHosts lists the host names the endpoint answers to, without scheme or port (IPv6 in brackets), such as ['mcp.example.com']; got ${JSON.stringify(hosts)}.`,
    );
  }
  return hosts.map((h: string) => h.toLowerCase());
}

function forbidden(res: ServerResponse, message: string): false {
  jsonRpcError(res, 403, -32000, message);
  return false;
}

/** Most Host values remembered as accepted; the memory starts over when full (one endpoint has a few names). */
const MAX_ACCEPTED_HOSTS = 64;

/**
 * The SDK's Host check, skipped for a value it accepted before: its answer depends on the value alone, and it
 * parses a URL for every request (a measurable part of a call's CPU).
 */
function rememberingAccepted(check: Guard): Guard {
  const accepted = new Set<string>();
  // The last value accepted, compared before the set: each request's Host is a new string, which a set lookup hashes
  // first (a few hundred instructions), where comparing it with the last one costs a few dozen.
  let last: string | undefined;
  return (req, res) => {
    const host = req.headers.host;
    if (host !== undefined && (host === last || accepted.has(host))) {
      last = host;
      return true;
    }
    if (!check(req, res)) return false;
    if (host !== undefined) {
      if (accepted.size >= MAX_ACCEPTED_HOSTS) accepted.clear();
      accepted.add(host);
      last = host;
    }
    return true;
  };
}

/** The guard of an endpoint: true when the request may go on, false after answering 403. */
export function sourceGuard(options: SourceOptions): Guard {
  const hosts = options.allowedHosts ?? (options.loopback ? localhostAllowedHostnames() : undefined);
  const validHost: Guard = hosts ? rememberingAccepted(hostHeaderValidation([...hosts])) : () => true;
  const validOrigin: Guard = hosts ? originValidation([...hosts]) : (_req, res) => forbidden(res, 'Forbidden: this Origin is not allowed.');
  const cors = options.cors;
  return (req, res) => {
    if (!validHost(req, res)) return false;
    const origin = req.headers.origin;
    if (origin === undefined || origin === '') return true;
    if (origin === 'null') return forbidden(res, 'Forbidden: the null Origin is not allowed.');
    return cors?.allows(origin) === true || validOrigin(req, res);
  };
}
