import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { McpServer } from '../../../src';

/**
 * The exact bytes (status line, headers in order, body) of the JSON-RPC errors the Host/Origin guard and the
 * resource server answer, as a raw socket reads them: they are written through server/answers.ts, and were the same
 * bytes when each file wrote its own (the expected texts below were read from the code before the change).
 */
jest.setTimeout(60_000);

const servers: Server[] = [];
const mcp = new McpServer({ name: 'bytes', version: '1' }, { logger: false }).tool('ping', {}, () => 'pong');

afterAll(async () => {
  await mcp.close();
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function listening(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** A handler of the server's on a Node server of its own; its port. */
function mounted(options: Parameters<McpServer['createHttpHandler']>[0]): Promise<number> {
  const handler = mcp.createHttpHandler(options);
  return listening(createServer((req, res) => void handler.handle(req, res)));
}

/** Sends one raw POST and reads the whole answer off the socket, its `Date` header masked. */
function rawPost(port: number, headers: Record<string, string>): Promise<string> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
  const lines = [
    `POST /mcp HTTP/1.1`,
    `host: 127.0.0.1:${port}`,
    'connection: close',
    'content-type: application/json',
    'accept: application/json, text/event-stream',
    'mcp-protocol-version: 2025-11-25',
    `content-length: ${Buffer.byteLength(body)}`,
  ];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('end', () =>
      resolve(
        Buffer.concat(chunks)
          .toString('latin1')
          .replace(/\r\nDate: [^\r]+/, '\r\nDate: <date>'),
      ),
    );
    socket.on('error', reject);
    socket.write(`${lines.join('\r\n')}\r\n\r\n${body}`);
  });
}

describe('the bytes of the answers written through server/answers.ts', () => {
  it('403 for the null Origin (origin.ts)', async () => {
    const port = await mounted({});
    expect(await rawPost(port, { origin: 'null' })).toBe(
      'HTTP/1.1 403 Forbidden\r\ncontent-type: application/json\r\nDate: <date>\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n6a\r\n' +
        '{"jsonrpc":"2.0","error":{"code":-32000,"message":"Forbidden: the null Origin is not allowed."},"id":null}\r\n0\r\n\r\n',
    );
  });

  it('403 for an Origin no list allows, without host names to check (origin.ts)', async () => {
    const port = await mounted({ validateHost: false });
    expect(await rawPost(port, { origin: 'https://evil.example' })).toBe(
      'HTTP/1.1 403 Forbidden\r\ncontent-type: application/json\r\nDate: <date>\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n66\r\n' +
        '{"jsonrpc":"2.0","error":{"code":-32000,"message":"Forbidden: this Origin is not allowed."},"id":null}\r\n0\r\n\r\n',
    );
  });

  it('503 with Retry-After when the issuer cannot be reached (auth/resource-server.ts)', async () => {
    // The introspection endpoint (and issuer) is down: answers 503 to everything.
    const down = await listening(
      createServer((req, res) => void req.resume().on('end', () => res.writeHead(503, { 'content-type': 'text/plain' }).end('down'))),
    );
    const issuer = `http://127.0.0.1:${down}`;
    const port = await mounted({
      auth: {
        issuer,
        resource: 'http://127.0.0.1/mcp',
        introspection: { endpoint: `${issuer}/introspect`, clientId: 'rs', clientSecret: 'rs-secret' },
      },
    });
    expect(await rawPost(port, { authorization: 'Bearer opaque-token' })).toBe(
      'HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nretry-after: 5\r\nDate: <date>\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\nad\r\n' +
        '{"jsonrpc":"2.0","error":{"code":-32000,"message":"Service Unavailable: the authorization server cannot be reached to check the access token; try again shortly."},"id":null}\r\n0\r\n\r\n',
    );
  });
});
