import { UsageTypeError } from '../../errors';
import { JsonRpcCode, sdk } from '../sdk/lazy';
import type { Log } from '../../log';

/**
 * A bound on what one tool result may weigh (`McpServerOptions.maxResultBytes`): a 50 MB result would otherwise be
 * serialized and sent whole, to a client that likely cannot hold it either. Measured cheaply, without serializing:
 * the characters of the text, base64 data and embedded resource contents of the result's `content`, which is where
 * a large result lives (structured content mirrors it).
 */

/** Default bound: 16 MiB of text and base64 data. */
export const DEFAULT_MAX_RESULT_BYTES = 16 * 1024 * 1024;

export function checkMaxResultBytes(value: number | undefined): number {
  const bytes = value ?? DEFAULT_MAX_RESULT_BYTES;
  if (!Number.isInteger(bytes) || bytes < 1)
    throw new UsageTypeError(
      `maxResultBytes takes a whole number of bytes from 1, for example { maxResultBytes: 16777216 }; got ${String(value)}.`,
    );
  return bytes;
}

function lengthOf(value: unknown): number {
  return typeof value === 'string' ? value.length : 0;
}

/** The characters of a result's content items: text, image and audio data, embedded resource text and blobs. */
function weightOf(result: unknown): number {
  const content = (result as { content?: unknown } | null)?.content;
  if (!Array.isArray(content)) return 0;
  let weight = 0;
  for (const item of content as { text?: unknown; data?: unknown; resource?: { text?: unknown; blob?: unknown } }[]) {
    weight += lengthOf(item?.text) + lengthOf(item?.data) + lengthOf(item?.resource?.text) + lengthOf(item?.resource?.blob);
  }
  return weight;
}

/** The result as it is, or a JSON-RPC error (-32603) naming the bound when it is larger; logged for the developer. */
export function boundedResult<T>(result: T, tool: string, maxBytes: number, log: Log): T {
  const weight = weightOf(result);
  if (weight <= maxBytes) return result;
  log.error(
    `Tool '${tool}' returned a result of ${weight} characters, more than maxResultBytes (${maxBytes}); the client got an error instead`,
    { event: 'tool.failed', tool },
  );
  throw new (sdk().ProtocolError)(
    JsonRpcCode.InternalError,
    `The result of tool '${tool}' is larger than this server sends (${weight} characters; the limit is ${maxBytes}).`,
  );
}
