import { Injectable } from '@nestjs/common';
import { Tool } from '../../src';
import type { McpModuleOptions } from '../../src/nest';
import { NestApps } from '../support/nest-app';
import { send, type Reply } from '../support/raw-http';

/**
 * Issue 29 in the Nest module: `allowedHosts` reaches the endpoint on the application's adapter, and `Origin` is
 * checked even with `validateHost: false` (before, turning the loopback check off let every origin in).
 */
jest.setTimeout(60_000);

@Injectable()
class Greeter {
  @Tool()
  ping(): string {
    return 'pong';
  }
}

const apps = new NestApps('greeter', [Greeter]);
afterAll(() => apps.close());
const serve = (options: Partial<McpModuleOptions>) => apps.serve(options);

function initialize(url: string, headers: Record<string, string>): Promise<Reply> {
  return send(
    url,
    'POST',
    {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      host: new URL(url).host,
      ...headers,
    },
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    }),
  );
}

describe('McpModule Host and Origin checks', () => {
  it('answers the hosts allowedHosts names and refuses others, and foreign origins', async () => {
    const url = await serve({ allowedHosts: ['mcp.example.test'] });
    expect((await initialize(url, { host: 'mcp.example.test' })).status).toBe(200);
    expect((await initialize(url, { host: 'mcp.example.test', origin: 'https://mcp.example.test' })).status).toBe(200);
    expect((await initialize(url, { host: 'evil.example' })).status).toBe(403);
    expect((await initialize(url, { host: 'mcp.example.test', origin: 'https://evil.example' })).status).toBe(403);
  });

  it('refuses a foreign Origin with validateHost: false, and lets a request without one in', async () => {
    const url = await serve({ validateHost: false });
    expect((await initialize(url, { host: 'anything.example' })).status).toBe(200);
    expect((await initialize(url, { origin: 'https://evil.example' })).status).toBe(403);
  });
});
