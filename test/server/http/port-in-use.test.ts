import { McpServer } from '../../../src';

// Issue 11: a port already in use is one clear line, not an EADDRINUSE stack.
describe('serveHttp on a port that is taken', () => {
  const first = new McpServer({ name: 'a', version: '1' });
  const second = new McpServer({ name: 'b', version: '1' });
  afterAll(() => Promise.all([first.close(), second.close()]));

  it('rejects with one sentence that names the port and the fixes, keeping the code', async () => {
    const { port } = await first.serveHttp({ host: '127.0.0.1', port: 0 });
    await expect(second.serveHttp({ host: '127.0.0.1', port })).rejects.toMatchObject({
      message: `Port ${port} on 127.0.0.1 is already in use: stop the other server, or choose another port (port 0 picks a free one).`,
      code: 'EADDRINUSE',
    });
  });
});
