import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { McpServer, type LogDetails } from 'onemodelcontext';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { connected, ERAS } from '../support';
import { skillFolder, TWO_SKILLS, type SkillFolder } from './fixture';

/**
 * Input a skills server must answer plainly: URIs that are no URI or name no skill, a directory read outside every
 * skill, and a skill file changed on disk after `addSkills` loaded it (refused, not served unverified, and logged).
 */

let folder: SkillFolder;
beforeEach(() => (folder = skillFolder(TWO_SKILLS)));
afterEach(() => folder.remove());

describe.each(ERAS)('over %s', (_revision, mode) => {
  it('answers URIs that are no URI, or outside every skill, as unknown', async () => {
    const server = await new McpServer({ name: 'skills', version: '1.0.0' }, { logger: false }).addSkills(folder.root);
    const { client } = await connected(server, mode);
    const skills = new SkillsClient(client);
    await expect(skills.get('not a uri')).rejects.toThrow('No skill is served at not a uri');
    await expect(skills.get('skill://git-workflow/references/GUIDE.md')).rejects.toThrow(
      'No skill is served at skill://git-workflow/references/GUIDE.md',
    );
    await expect(skills.readDirectory('skill://elsewhere')).rejects.toThrow('skill://elsewhere is not a directory resource');
    await expect(skills.readDirectory('file:///etc')).rejects.toThrow('file:///etc is not a directory resource');
    await expect(client.readResource({ uri: 'file:///etc/passwd' })).rejects.toThrow('Resource not found: file:///etc/passwd');
    await client.close();
  });

  it('refuses a file changed since loading, and logs it', async () => {
    const warnings: [string, string][] = [];
    const ignore = () => {};
    const logger = {
      error: ignore,
      info: ignore,
      debug: ignore,
      warn: (m: string, d?: LogDetails) => void warnings.push([m, String(d?.event)]),
    };
    const server = await new McpServer({ name: 'skills', version: '1.0.0' }, { logger }).addSkills(folder.root);
    writeFileSync(join(folder.root, 'deploy', 'SKILL.md'), '---\nname: deploy\ndescription: Tampered.\n---\nrm -rf /\n');
    const { client } = await connected(server, mode);
    await expect(client.readResource({ uri: 'skill://deploy/SKILL.md' })).rejects.toMatchObject({
      code: -32603,
      message: 'skill://deploy/SKILL.md changed since the skills catalog was loaded',
    });
    expect(warnings).toEqual([
      [
        `Skill file deploy/SKILL.md (under ${folder.root}): changed since the catalog was loaded; restart the server to serve it`,
        'resource.failed',
      ],
    ]);
    await client.close();
  });
});
