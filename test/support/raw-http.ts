import { request, type IncomingMessage } from 'node:http';

/**
 * A raw HTTP peer of the MCP endpoint, for what the SDK clients hide: SSE event ids, `Last-Event-ID`
 * resumption, a connection dropped in the middle of a stream.
 */

/** The headers of a 2025-11-25 POST. */
export const LEGACY_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
};

export interface Stream {
  readonly response: IncomingMessage;
  /** Settles when the response body ended (or the connection was dropped). */
  readonly ended: Promise<void>;
  /** The raw SSE text read so far. */
  text(): string;
  close(): void;
}

/** Sends one request to `http://127.0.0.1:<port><path>` and resolves once the response headers arrived. */
export function open(port: number, method: 'GET' | 'POST', headers: Record<string, string>, body?: string, path = '/mcp'): Promise<Stream> {
  return new Promise((resolve, reject) => {
    let text = '';
    const req = request({ host: '127.0.0.1', port, path, method, headers: { host: `127.0.0.1:${port}`, ...headers } }, (response) => {
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      const ended = new Promise<void>((done) => {
        response.on('end', done);
        response.on('close', done);
      });
      resolve({ response, ended, text: () => text, close: () => req.destroy() });
    });
    req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
    req.end(body);
  });
}

/** A whole HTTP answer. */
export interface Reply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** Sends one request to a full URL and resolves with the whole answer. */
export function send(target: string, method: string, headers: Record<string, string>, body?: string): Promise<Reply> {
  const at = new URL(target);
  return new Promise((resolve, reject) => {
    const req = request({ host: at.hostname, port: at.port, method, path: at.pathname, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

export async function readAll(stream: Stream): Promise<string> {
  await stream.ended;
  return stream.text();
}

/** Polls `check` every 10 ms, at most `tries` times; the assertions after it say what was expected. */
export async function until(check: () => boolean, tries = 400): Promise<void> {
  for (let i = 0; i < tries && !check(); i++) await new Promise((r) => setTimeout(r, 10));
}

/** Opens a 2025-11-25 session (initialize + initialized) and returns its id. */
export async function openSession(port: number, path = '/mcp', capabilities: object = {}): Promise<string> {
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 'raw', version: '1' } },
  };
  const init = await open(port, 'POST', LEGACY_HEADERS, JSON.stringify(initialize), path);
  await readAll(init);
  const sessionId = init.response.headers['mcp-session-id'] as string;
  await readAll(
    await open(
      port,
      'POST',
      { ...LEGACY_HEADERS, 'mcp-session-id': sessionId },
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      path,
    ),
  );
  return sessionId;
}

/** The `data:` payloads of the complete events in an SSE text, parsed, with their ids. */
export function eventsOf(text: string): { id?: string; data: Record<string, unknown> }[] {
  return text
    .split('\n\n')
    .filter((event) => /^data: \{/m.test(event))
    .map((event) => ({
      id: /^id: (\S+)$/m.exec(event)?.[1],
      data: JSON.parse(/^data: (.*)$/m.exec(event)![1]) as Record<string, unknown>,
    }));
}
