import type * as Sdk from '@modelcontextprotocol/server';

/**
 * The MCP SDK, loaded on first use. `require('@modelcontextprotocol/server')` costs more than half of a stdio
 * server's cold start (it builds zod and every schema of both eras); the stdio loop (stdio/loop.ts) answers a
 * connection's opening and its lists without it, so every module a stdio server loads before its first answer
 * reaches the SDK through here, inside the function that needs it, never at the top of a module.
 */

let loaded: typeof Sdk | undefined;

/** `@modelcontextprotocol/server`, required on the first call. */
export function sdk(): typeof Sdk {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (loaded ??= require('@modelcontextprotocol/server') as typeof Sdk);
}

/**
 * The JSON-RPC error codes the modules of the first answers name, as numbers (the SDK's `ProtocolErrorCode` enum
 * holds the same values: test/server/stdio/stdio-loop.test.ts compares them), so naming one loads nothing.
 */
export const JsonRpcCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
} as const;
