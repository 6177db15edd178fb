/**
 * What a tool can know about the request that called it. Declare a parameter of this type and it is
 * filled in, never listed in the schema.
 * @example
 * @Tool()
 * async importAll(@Param('url') url: string, ctx: RequestContext) {
 *   await ctx.reportProgress(1, 10, 'downloading');
 * }
 */
export class RequestContext {
  constructor(
    /** Aborts when the client cancels the request, the server times it out, or the connection closes. */
    readonly signal: AbortSignal,
    readonly requestId: string | number | undefined,
    readonly sessionId: string | undefined,
    readonly protocolVersion: string | undefined,
    readonly clientInfo: { readonly name: string; readonly version: string } | undefined,
    readonly clientCapabilities: Readonly<Record<string, unknown>> | undefined,
    /** The request's `_meta`. */
    readonly meta: Readonly<Record<string, unknown>> | undefined,
    private readonly progress: (progress: number, total?: number, message?: string) => Promise<void>,
  ) {}

  /** Sends `notifications/progress` when the caller asked for progress; does nothing otherwise. */
  reportProgress(progress: number, total?: number, message?: string): Promise<void> {
    return this.progress(progress, total, message);
  }
}
