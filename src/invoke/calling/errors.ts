import { OneModelContextError } from '../../errors';

/**
 * An error whose message the model may see: the tool answers an `isError` result with exactly this text.
 * Any other exception is answered `The tool failed.` and published on `TOOL_FAILED_CHANNEL`.
 * @example
 * if (!found) throw new ToolError(`No docket ${id}.`);
 */
export class ToolError extends OneModelContextError {
  readonly code = 'TOOL_ERROR';
}

/**
 * A request that names no tool of the server (JSON-RPC -32602 on the wire).
 * @example
 * await expect(server.callTool('nope', {})).rejects.toThrow(UnknownToolError);
 */
export class UnknownToolError extends OneModelContextError {
  readonly code = 'UNKNOWN_TOOL';
  readonly jsonRpcCode = -32602;

  constructor(readonly tool: string) {
    super(`Unknown tool: ${tool.length > 128 ? `${tool.slice(0, 128)}…` : tool}`);
  }
}

/**
 * The reason a tool's `signal` aborts when the server's `requestTimeoutMs` passes; the client gets an
 * `isError` result saying the tool did not finish in time.
 * @example
 * if (signal.aborted && signal.reason instanceof ToolTimeoutError) return partialResult;
 */
export class ToolTimeoutError extends OneModelContextError {
  readonly code = 'TOOL_TIMEOUT';

  constructor(readonly timeoutMs: number) {
    super(`The tool did not finish within ${timeoutMs} ms.`);
  }
}

/**
 * The `node:diagnostics_channel` channel on which tool failures are published as `{ tool, error }`.
 * @example
 * import { subscribe } from 'node:diagnostics_channel';
 * subscribe(TOOL_FAILED_CHANNEL, ({ tool, error }) => console.error(tool, error));
 */
export const TOOL_FAILED_CHANNEL = 'onemodelcontext:tool:failed';
