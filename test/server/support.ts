import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import type { McpServer } from '../../src';

/** A v2 SDK Client connected in-process to a server, in the 2025 era (`legacy`) or 2026-07-28 (`auto`). */
export async function connected(
  server: McpServer,
  mode: 'legacy' | 'auto',
  capabilities: Record<string, unknown> = {},
): Promise<{ client: Client; received: Record<string, unknown>[] }> {
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  await server.connect(serverEnd);
  const client = new Client(
    { name: 'test-client', version: '2.0.0' },
    { capabilities: capabilities as never, versionNegotiation: { mode } },
  );
  await client.connect(clientEnd);
  const received: Record<string, unknown>[] = [];
  const handler = clientEnd.onmessage!;
  clientEnd.onmessage = (message, extra) => {
    received.push(message as Record<string, unknown>);
    handler(message, extra);
  };
  return { client, received };
}

export const ERAS = [
  ['2025-11-25', 'legacy'],
  ['2026-07-28', 'auto'],
] as const;

export const APPS = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };
