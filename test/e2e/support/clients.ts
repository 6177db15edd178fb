import { join } from 'node:path';
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2Stdio } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1Stdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ROOT } from './build';

/**
 * The real clients of the end-to-end tests behind one small interface: the v1 SDK Client (2025 era, with
 * its `initialize` offer rewritten to pin 2024-11-05) and the v2 Client in `auto` mode (2026-07-28).
 * Every JSON-RPC message the server sends is recorded as parsed from the wire, so listings can be compared
 * byte for byte with what the server built.
 */
export type Transport = 'stdio' | 'http';
export type Flavour = { readonly client: 'v1'; readonly version: '2024-11-05' | '2025-11-25' } | { readonly client: 'v2' };

export const APPS = { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } };
export const FIXTURE_MAIN = join(ROOT, 'test/e2e/fixture/dist/main.js');

export interface CallOptions {
  readonly onprogress?: (progress: { progress: number; total?: number; message?: string }) => void;
  readonly signal?: AbortSignal;
}

export interface TestClient {
  readonly received: Record<string, unknown>[];
  callTool(name: string, args?: Record<string, unknown>, options?: CallOptions): Promise<Record<string, unknown>>;
  listTools(): Promise<unknown[]>;
  readResource(uri: string): Promise<Record<string, unknown>>;
  getPrompt(name: string, args?: Record<string, string>): Promise<Record<string, unknown>>;
  complete(params: Record<string, unknown>): Promise<unknown>;
  close(): Promise<void>;
}

interface AnyTransport {
  send(message: Record<string, unknown>, options?: unknown): Promise<void>;
  onmessage?: (message: Record<string, unknown>, extra?: unknown) => void;
}

/**
 * Records every inbound message; installed after connect, when the client has set its own handler. The SDK
 * clients run a notification's handler a microtask late but settle a response at once, dropping the
 * request's progress handler: when the last notifications and the result arrive in one read, `onprogress`
 * would miss them. A response is therefore handed on one macrotask later, after the notifications read with
 * it; the tests send a request only after the previous one settled, so no later message overtakes it.
 */
function tap(transport: AnyTransport, received: Record<string, unknown>[]): void {
  const handler = transport.onmessage!;
  transport.onmessage = (message, extra) => {
    received.push(message);
    if ('result' in message || 'error' in message) setImmediate(() => handler(message, extra));
    else handler(message, extra);
  };
}

/** v1 always offers its latest revision; rewriting the offer is how a 2024-11-05 client is made. */
function pinOffer(transport: AnyTransport, version: string): void {
  const send = transport.send.bind(transport);
  transport.send = (message, options) =>
    send(
      message.method === 'initialize' ? { ...message, params: { ...(message.params as object), protocolVersion: version } } : message,
      options,
    );
}

export async function connectClient(flavour: Flavour, over: Transport, url?: URL): Promise<TestClient> {
  const received: Record<string, unknown>[] = [];
  const stdio = { command: process.execPath, args: [FIXTURE_MAIN], stderr: 'pipe' as const };
  if (flavour.client === 'v1') {
    const client = new V1Client({ name: 'e2e-v1', version: '1.0.0' }, { capabilities: { extensions: APPS } as never });
    const transport = (over === 'stdio' ? new V1Stdio(stdio) : new V1Http(url!)) as unknown as AnyTransport;
    pinOffer(transport, flavour.version);
    await client.connect(transport as never);
    tap(transport, received);
    return {
      received,
      callTool: (name, args = {}, options = {}) =>
        client.callTool({ name, arguments: args }, undefined, options) as Promise<Record<string, unknown>>,
      listTools: async () => (await client.listTools()).tools,
      readResource: (uri) => client.readResource({ uri }) as Promise<Record<string, unknown>>,
      getPrompt: (name, args) => client.getPrompt({ name, arguments: args }) as Promise<Record<string, unknown>>,
      complete: (params) => client.complete(params as never),
      close: async () => {
        if (over === 'http') await (transport as unknown as V1Http).terminateSession();
        await client.close();
      },
    };
  }
  const client = new V2Client(
    { name: 'e2e-v2', version: '1.0.0' },
    { capabilities: { extensions: APPS } as never, versionNegotiation: { mode: 'auto' } },
  );
  const transport = (over === 'stdio' ? new V2Stdio(stdio) : new V2Http(url!)) as unknown as AnyTransport;
  await client.connect(transport as never);
  tap(transport, received);
  return {
    received,
    callTool: (name, args = {}, options = {}) => client.callTool({ name, arguments: args }, options) as Promise<Record<string, unknown>>,
    listTools: async () => (await client.listTools(undefined, { cacheMode: 'bypass' })).tools,
    readResource: (uri) => client.readResource({ uri }) as Promise<Record<string, unknown>>,
    getPrompt: (name, args) => client.getPrompt({ name, arguments: args }) as Promise<Record<string, unknown>>,
    complete: (params) => client.complete(params as never),
    close: () => client.close(),
  };
}

/** The `tools` of the last `tools/list` result the server sent, re-serialised from the parsed wire JSON. */
export function lastListedTools(received: readonly Record<string, unknown>[]): string {
  const results = received.filter((m) => Array.isArray((m.result as { tools?: unknown } | undefined)?.tools));
  return JSON.stringify((results[results.length - 1].result as { tools: unknown }).tools);
}

/** The text of the first content block of a tool result. */
export function textOf(result: Record<string, unknown>): string {
  return ((result.content as { text?: string }[])[0]?.text ?? '') as string;
}
