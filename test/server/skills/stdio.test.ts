import { PassThrough, type Readable, type Writable } from 'node:stream';
import { McpServer } from 'onemodelcontext';
import { GUIDE, skillFolder, TWO_SKILLS, type SkillFolder } from './fixture';

/**
 * Skills over stdio: a server with skills is answered by the SDK from the first line (the stdio loop answers no
 * skills method itself), a 2025-11-25 connection after `initialize`, a 2026-07-28 request by its `_meta` envelope.
 */

interface Serving {
  serveStreams(stdin: Readable, stdout: Writable, options: object, loop: boolean): Promise<void>;
}

let folder: SkillFolder;
beforeAll(() => (folder = skillFolder(TWO_SKILLS)));
afterAll(() => folder.remove());

/** Serves the lines over in-memory stdio (through the loop, as `serveStdio` does); the answers by id. */
async function answers(lines: readonly object[]): Promise<Map<unknown, Record<string, unknown>>> {
  const server = await new McpServer({ name: 'skills', version: '1.0.0' }, { logger: false }).addSkills(folder.root);
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const byId = new Map<unknown, Record<string, unknown>>();
  const expected = lines.filter((l) => 'id' in l).length;
  let buffered = '';
  let wake: () => void = () => undefined;
  stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    let at: number;
    while ((at = buffered.indexOf('\n')) !== -1) {
      const message = JSON.parse(buffered.slice(0, at)) as Record<string, unknown>;
      if ('id' in message) byId.set(message.id, message);
      buffered = buffered.slice(at + 1);
    }
    wake();
  });
  await (server as unknown as Serving).serveStreams(stdin, stdout, {}, true);
  for (const line of lines) stdin.write(`${JSON.stringify(line)}\n`);
  while (byId.size < expected) await new Promise<void>((resolve) => (wake = resolve));
  await server.close();
  return byId;
}

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const request = (id: number, method: string, params: object = {}) => ({ jsonrpc: '2.0', id, method, params });
const skillUris = (answer: Record<string, unknown> | undefined) =>
  (answer?.result as { skills: { uri: string }[] }).skills.map((s) => s.uri);

describe('skills over stdio', () => {
  it('2025-11-25: the capability in the opening, then skills/list and a file', async () => {
    const got = await answers([
      request(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } }),
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      request(2, 'skills/list'),
      request(3, 'resources/read', { uri: 'skill://git-workflow/references/GUIDE.md' }),
    ]);
    const capabilities = (got.get(1)!.result as { capabilities: Record<string, unknown> }).capabilities;
    expect(capabilities.extensions).toEqual({ 'io.modelcontextprotocol/skills': { directoryRead: true } });
    expect(capabilities.resources).toEqual({ subscribe: true, listChanged: true });
    expect(skillUris(got.get(2))).toEqual(['skill://deploy/SKILL.md', 'skill://git-workflow/SKILL.md']);
    expect(got.get(3)!.result).toEqual({
      contents: [{ uri: 'skill://git-workflow/references/GUIDE.md', mimeType: 'text/markdown', text: GUIDE }],
    });
  });

  it('2026-07-28: each request by its envelope, with the cache fields', async () => {
    const got = await answers([
      request(1, 'skills/list', { _meta: META }),
      request(2, 'skills/get', { _meta: META, uri: 'skill://deploy/SKILL.md' }),
      request(3, 'skills/get', { _meta: META, uri: 'skill://nope/SKILL.md' }),
    ]);
    expect(skillUris(got.get(1))).toEqual(['skill://deploy/SKILL.md', 'skill://git-workflow/SKILL.md']);
    expect(got.get(1)!.result).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
    expect((got.get(2)!.result as { skill: { uri: string } }).skill.uri).toBe('skill://deploy/SKILL.md');
    expect(got.get(3)!.error).toEqual({ code: -32602, message: 'No skill is served at skill://nope/SKILL.md' });
  });
});
