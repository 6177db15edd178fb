import { TextMethodFailedError, ResourceNotFoundError } from './text-methods';
import { isObject } from '../../objects';

/** `resources/read` and `prompts/get` results as sent. */
export interface ReadResourceResult {
  readonly contents: readonly Readonly<Record<string, unknown>>[];
  readonly [key: string]: unknown;
}

export interface GetPromptResult {
  readonly description?: string;
  readonly messages: readonly Readonly<Record<string, unknown>>[];
  readonly [key: string]: unknown;
}

function isResourceContents(v: unknown): v is Record<string, unknown> {
  return isObject(v) && typeof v.uri === 'string' && (typeof v.text === 'string' || typeof v.blob === 'string');
}

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/**
 * What a resource method returned, as a `ReadResourceResult` (docs/serving.md): text (`text/plain`
 * unless `mimeType` says otherwise), bytes (a blob), a `ReadResourceResult`, resource contents, or any
 * other JSON value as `application/json` text. `null` or `undefined` means there is no such resource.
 */
export function resourceResult(value: unknown, uri: string, mimeType: string | undefined): ReadResourceResult {
  if (value === undefined || value === null) throw new ResourceNotFoundError(uri);
  if (typeof value === 'string') return { contents: [{ uri, mimeType: mimeType ?? 'text/plain', text: value }] };
  if (value instanceof Uint8Array) return { contents: [{ uri, mimeType: mimeType ?? 'application/octet-stream', blob: base64(value) }] };
  if (isObject(value) && Array.isArray(value.contents)) return value as unknown as ReadResourceResult;
  if (isResourceContents(value)) return { contents: [value] };
  if (Array.isArray(value) && value.length > 0 && value.every(isResourceContents)) return { contents: value };
  const text = JSON.stringify(value);
  if (text === undefined) throw new TextMethodFailedError('The resource failed.');
  return { contents: [{ uri, mimeType: mimeType ?? 'application/json', text }] };
}

function isPromptMessage(v: unknown): v is Record<string, unknown> {
  return isObject(v) && (v.role === 'user' || v.role === 'assistant') && isObject(v.content);
}

/**
 * What a prompt method returned, as a `GetPromptResult`: text (one user message), prompt messages, or a
 * `GetPromptResult`.
 */
export function promptResult(value: unknown, description: string | undefined): GetPromptResult {
  const withDescription = (messages: readonly Record<string, unknown>[]): GetPromptResult =>
    description === undefined ? { messages } : { description, messages };
  if (typeof value === 'string') return withDescription([{ role: 'user', content: { type: 'text', text: value } }]);
  if (isObject(value) && Array.isArray(value.messages)) return value as unknown as GetPromptResult;
  if (isPromptMessage(value)) return withDescription([value]);
  if (Array.isArray(value) && value.every(isPromptMessage)) return withDescription(value);
  throw new TextMethodFailedError('The prompt failed.');
}
