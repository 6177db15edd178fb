import { McpServer } from 'onemodelcontext';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { McpServer as SdkMcpServer } from '@modelcontextprotocol/server';
import { SkillsExtension } from '@modelcontextprotocol/server/ext/skills';
import { nodeSkillFiles } from '@modelcontextprotocol/server/ext/skills/node';
import { connected, ERAS } from '../support';
import { DEPLOY_SKILL, GIT_SKILL, GUIDE, skillFolder, TWO_SKILLS, type SkillFolder } from './fixture';

/**
 * `server.addSkills(folder)` served through the SDK's Skills extension, to the SDK's own client, in both eras:
 * the capability, `skills/list`, `skills/get`, each file with `resources/read`, directory reads; and the answers
 * to unknown skills, unpublished files and paths that climb out of a skill.
 */

let folder: SkillFolder;
beforeAll(() => (folder = skillFolder(TWO_SKILLS)));
afterAll(() => folder.remove());

async function served(): Promise<McpServer> {
  const server = new McpServer({ name: 'skills', version: '1.0.0' }, { logger: false });
  server.tool('ping', {}, () => 'pong');
  return server.addSkills(folder.root);
}

describe.each(ERAS)('skills over %s', (revision, mode) => {
  it('declares the extension as the SDK does, and lists both skills', async () => {
    const { client } = await connected(await served(), mode);
    expect(client.getServerCapabilities()?.extensions).toEqual({ 'io.modelcontextprotocol/skills': { directoryRead: true } });
    const skills = new SkillsClient(client);
    expect(skills.supported).toBe(true);
    const listing = await skills.list();
    expect(listing.invalid).toEqual([]);
    expect(listing.skills.map((s) => [s.uri, s.frontmatter.name, s.frontmatter.description])).toEqual([
      ['skill://deploy/SKILL.md', 'deploy', 'How we deploy.'],
      ['skill://git-workflow/SKILL.md', 'git-workflow', 'How we branch and commit.'],
    ]);
    expect(listing.skills[1].resources).toEqual([
      { uri: 'skill://git-workflow/SKILL.md', digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/), size: Buffer.byteLength(GIT_SKILL) },
      {
        uri: 'skill://git-workflow/references/GUIDE.md',
        digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
        size: Buffer.byteLength(GUIDE),
      },
    ]);
    if (revision === '2026-07-28') expect([listing.ttlMs, listing.cacheScope]).toEqual([0, 'private']);
    else expect([listing.ttlMs, listing.cacheScope]).toEqual([undefined, undefined]);
    await client.close();
  });

  it('gets a skill and reads its files, verified against the listing', async () => {
    const { client } = await connected(await served(), mode);
    const skills = new SkillsClient(client);
    const { skill } = await skills.get('skill://git-workflow/SKILL.md');
    expect(skill.frontmatter).toEqual({ name: 'git-workflow', description: 'How we branch and commit.' });
    const manifest = await skills.read(skill);
    expect([manifest.verified, manifest.text]).toEqual([true, GIT_SKILL]);
    const guide = await skills.read(skill, 'references/GUIDE.md');
    expect([guide.uri, guide.verified, guide.text]).toEqual(['skill://git-workflow/references/GUIDE.md', true, GUIDE]);
    const deploy = await client.readResource({ uri: 'skill://deploy/SKILL.md' });
    expect(deploy.contents).toEqual([{ uri: 'skill://deploy/SKILL.md', mimeType: 'text/markdown', text: DEPLOY_SKILL }]);
    await client.close();
  });

  it("lists the skill:// template in resources/templates/list as the SDK's McpServer does, byte for byte", async () => {
    const sdk = new SdkMcpServer({ name: 'skills', version: '1.0.0' });
    (await SkillsExtension.load(nodeSkillFiles(folder.root), { strict: true })).attach(sdk);
    const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
    await sdk.connect(serverEnd);
    const theirs = new Client({ name: 'test-client', version: '2.0.0' }, { versionNegotiation: { mode } });
    await theirs.connect(clientEnd);
    const { client } = await connected(await served(), mode);
    const ours = JSON.stringify((await client.listResourceTemplates()).resourceTemplates);
    expect(ours).toBe('[{"name":"io.modelcontextprotocol/skills","uriTemplate":"skill://{+path}"}]');
    expect(ours).toBe(JSON.stringify((await theirs.listResourceTemplates()).resourceTemplates));
    await Promise.all([client.close(), theirs.close()]);
  });

  it("lists each skill's SKILL.md in resources/list, as the SDK's template does", async () => {
    const { client } = await connected(await served(), mode);
    expect((await client.listResources()).resources).toEqual([
      {
        uri: 'skill://deploy/SKILL.md',
        name: 'deploy',
        description: 'How we deploy.',
        mimeType: 'text/markdown',
        size: Buffer.byteLength(DEPLOY_SKILL),
      },
      {
        uri: 'skill://git-workflow/SKILL.md',
        name: 'git-workflow',
        description: 'How we branch and commit.',
        mimeType: 'text/markdown',
        size: Buffer.byteLength(GIT_SKILL),
      },
    ]);
    await client.close();
  });

  it('reads a skill folder as a directory', async () => {
    const { client } = await connected(await served(), mode);
    const skills = new SkillsClient(client);
    expect((await skills.readDirectory('skill://git-workflow')).resources).toEqual([
      { uri: 'skill://git-workflow/SKILL.md', name: 'SKILL.md', mimeType: 'text/markdown', size: Buffer.byteLength(GIT_SKILL) },
      { uri: 'skill://git-workflow/references', name: 'references', mimeType: 'inode/directory' },
    ]);
    expect((await skills.readDirectory('skill://git-workflow/references')).resources.map((r) => r.uri)).toEqual([
      'skill://git-workflow/references/GUIDE.md',
    ]);
    await expect(skills.readDirectory('skill://git-workflow/SKILL.md')).rejects.toThrow(
      'skill://git-workflow/SKILL.md is not a directory resource',
    );
    await client.close();
  });

  it('answers an unknown skill, an unpublished file and a climbing path as unknown', async () => {
    const { client, received } = await connected(await served(), mode);
    await expect(new SkillsClient(client).get('skill://no-such-skill/SKILL.md')).rejects.toThrow(
      'No skill is served at skill://no-such-skill/SKILL.md',
    );
    for (const uri of [
      'skill://git-workflow/references/MISSING.md',
      'skill://git-workflow/../deploy/SKILL.md',
      'skill://git-workflow/references/%2e%2e/%2e%2e/deploy/SKILL.md',
      'skill://git-workflow/references/../../../../etc/passwd',
    ]) {
      await expect(client.readResource({ uri })).rejects.toThrow(`Resource not found: ${uri}`);
      const error = received.filter((m) => m.error).pop()!.error;
      expect(error).toEqual({ code: revision === '2026-07-28' ? -32602 : -32002, message: `Resource not found: ${uri}`, data: { uri } });
    }
    await client.close();
  });
});
