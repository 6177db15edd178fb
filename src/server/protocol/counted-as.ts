/**
 * Whom a request counts against for per-caller bounds (task quotas) when it carries no verified token: the client's
 * address as the HTTP endpoint reads it (`trustedProxies`). The endpoint tags what the SDK hands a handler: the web
 * `Request` of a per-request (2026-07-28) exchange, or the `Server` of a 2025-era session; a pooled exchange's
 * transport answers for its requests itself. A handler reads it back with `countedAs`. Kept in weak maps, so a tag lives exactly as long as its request or session.
 */
const tags = new WeakMap<object, string>();

/** Tags `target` (a web `Request` or a session's `Server`) with the caller it counts against. */
export function countAs(target: object, caller: string): void {
  tags.set(target, caller);
}

/** A transport that knows whom each request in progress counts against (the pooled 2026-07-28 exchanges). */
interface CountsCallers {
  countedCaller(requestId: string | number): string | undefined;
}

/**
 * The caller a request counts against: its web request's tag, else its server's, else what its transport knows of
 * the request, else `undefined` (stdio, in-memory).
 */
export function countedAs(
  request: object | undefined,
  server: { readonly transport?: unknown },
  requestId: string | number,
): string | undefined {
  const tagged = (request !== undefined ? tags.get(request) : undefined) ?? tags.get(server);
  if (tagged !== undefined) return tagged;
  const transport = server.transport as Partial<CountsCallers> | undefined;
  return typeof transport?.countedCaller === 'function' ? transport.countedCaller(requestId) : undefined;
}
