import { UsageTypeError } from '../../../errors';
import { randomUUID } from 'node:crypto';
import type { Log } from '../../../log';
import { ResourceServer } from '../../auth/resource-server';
import type { HttpHandlerOptions, MemberRules } from './options';

/** The endpoint's options that need a check or a build before it serves, each thrown as it is read. */

const ROUTE = /^[A-Za-z0-9_-]{1,64}$/;
export function sessionIds(route: string | undefined): () => string {
  if (route === undefined) return randomUUID;
  if (typeof route !== 'string' || !ROUTE.test(route)) {
    throw new UsageTypeError(
      `route must be 1 to 64 letters, digits, '_' or '-' (it prefixes session ids, such as 'a' or 'mcp-1'); got ${JSON.stringify(route)}.`,
    );
  }
  return () => `${route}.${randomUUID()}`;
}

export function checkTrustedProxies(value: number | undefined): number {
  const hops = value ?? 0;
  if (!Number.isInteger(hops) || hops < 0)
    throw new UsageTypeError(`trustedProxies takes the number of reverse proxies in front of the server, such as 1; got ${String(value)}.`);
  return hops;
}

export function checkRetry(retryMs: number): number {
  if (!Number.isInteger(retryMs) || retryMs < 0) {
    throw new UsageTypeError(
      `sseRetryMs takes a whole number of milliseconds from 0, for example { sseRetryMs: 1000 }; got ${String(retryMs)}.`,
    );
  }
  return retryMs;
}

export function checkCloseAfter(ms: number | undefined): number | undefined {
  if (ms !== undefined && (!Number.isInteger(ms) || ms < 1)) {
    throw new UsageTypeError(
      `sseCloseAfterMs takes a whole number of milliseconds from 1, for example { sseCloseAfterMs: 30000 }; got ${String(ms)}.`,
    );
  }
  return ms;
}

export function resourceServerOf(options: HttpHandlerOptions, rules: MemberRules, log: Log): ResourceServer | undefined {
  const auth = options.auth;
  if (!auth) return undefined;
  if (auth.resource === undefined) {
    throw new UsageTypeError(
      `auth.resource is required when the server does not listen itself (createHttpHandler(), McpModule): the endpoint's public URL, such as 'https://mcp.example.com/mcp'.`,
    );
  }
  return new ResourceServer({ ...auth, resource: auth.resource }, () => rules.declaredScopes, options.path, log);
}
