/**
 * An error whose message the model may see: the tool answers an `isError` result with exactly this text.
 * Any other exception is answered `The tool failed.` and published on `TOOL_FAILED_CHANNEL`.
 * @example
 * if (!found) throw new ToolError(`No docket ${id}.`);
 */
export class ToolError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ToolError';
  }
}

/**
 * A request that names no tool of the server (JSON-RPC -32602 on the wire).
 * @example
 * await expect(server.callTool('nope', {})).rejects.toThrow(UnknownToolError);
 */
export class UnknownToolError extends Error {
  readonly code = -32602;

  constructor(readonly tool: string) {
    super(`Unknown tool: ${tool.length > 128 ? `${tool.slice(0, 128)}…` : tool}`);
    this.name = 'UnknownToolError';
  }
}

/**
 * The `node:diagnostics_channel` channel on which tool failures are published as `{ tool, error }`.
 * @example
 * import { subscribe } from 'node:diagnostics_channel';
 * subscribe(TOOL_FAILED_CHANNEL, ({ tool, error }) => console.error(tool, error));
 */
export const TOOL_FAILED_CHANNEL = 'onemodelcontext:tool:failed';
