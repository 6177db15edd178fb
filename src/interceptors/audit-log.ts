import { UsageTypeError } from '../errors';
import { ToolError } from '../invoke/calling/errors';
import type { Interceptor, InterceptorContext } from '../invoke/calling/interceptors';

/** One call as {@link auditLog} writes it. */
export interface AuditEntry {
  readonly at: string;
  readonly kind: InterceptorContext['kind'];
  readonly name: string;
  /** The verified caller (`subject`, else the OAuth client), when the endpoint authenticates. */
  readonly caller?: string;
  /** The client application's name from its `clientInfo`. */
  readonly client?: string;
  readonly requestId?: string | number;
  /** `ok` (a value), `refused` (a `ToolError`: its message is `reason`) or `failed` (anything else thrown). */
  readonly outcome: 'ok' | 'refused' | 'failed';
  readonly reason?: string;
  readonly durationMs: number;
  /** The read arguments, only with `{ args: true }` (they may hold what an audit log must not). */
  readonly args?: Readonly<Record<string, unknown>>;
}

/**
 * Writes one {@link AuditEntry} per call, after it ends, however it ends; the call's own outcome is unchanged. A
 * promise that `write` returns is awaited, and a `write` that throws or rejects fails the call (an audit that
 * cannot be written is not skipped silently).
 * @example server.use(auditLog((entry) => process.stderr.write(`${JSON.stringify(entry)}\n`)));
 */
export function auditLog(write: (entry: AuditEntry) => unknown, options: { readonly args?: boolean } = {}): Interceptor {
  if (typeof write !== 'function') throw new UsageTypeError('auditLog() takes a function that writes each entry.');
  return async (call, next) => {
    const started = performance.now();
    const { auth, clientInfo, requestId } = call.request;
    const entry = (outcome: AuditEntry['outcome'], reason?: string): AuditEntry => ({
      at: new Date().toISOString(),
      kind: call.kind,
      name: call.name,
      ...(auth && { caller: auth.subject ?? auth.clientId }),
      ...(clientInfo?.name !== undefined && { client: clientInfo.name }),
      ...(requestId !== undefined && { requestId }),
      outcome,
      ...(reason !== undefined && { reason }),
      durationMs: Math.round((performance.now() - started) * 1000) / 1000,
      ...(options.args && { args: call.args }),
    });
    let value: unknown;
    try {
      value = await next();
    } catch (error) {
      await write(error instanceof ToolError ? entry('refused', error.message) : entry('failed'));
      throw error;
    }
    await write(entry('ok'));
    return value;
  };
}
