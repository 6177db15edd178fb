import type { InterceptorContext } from '../invoke/calling/interceptors';

/**
 * Who made a call, as a key: the verified caller (subject and client) when the endpoint authenticates, else the
 * HTTP client's address, else the session, else `local` (stdio and in-process calls have one caller, the host).
 * @example rateLimit({ limit: 60, windowMs: 60_000, key: (call) => `${callerKey(call)} ${call.name}` })
 */
export function callerKey(call: InterceptorContext): string {
  const { auth, http, sessionId } = call.request;
  if (auth) return `caller:${auth.subject ?? ''}@${auth.clientId}`;
  if (http) return `ip:${http.ip}`;
  if (sessionId !== undefined) return `session:${sessionId}`;
  return 'local';
}
