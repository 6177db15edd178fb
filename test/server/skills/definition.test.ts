import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { DefinitionError, McpServer, UsageError } from 'onemodelcontext';
import { DEPLOY_SKILL, GIT_SKILL, skillFolder, TWO_SKILLS, type SkillFolder } from './fixture';

/**
 * What `server.addSkills` refuses when it is called, before anything is served: arguments that are no folder, a
 * folder that does not exist or holds no skill, a skill the SDK refuses (frontmatter, a file over its limits, a
 * symlink), and a second call. Each is a clear error; the server is left without skills.
 */

const server = () => new McpServer({ name: 'skills', version: '1.0.0' }, { logger: false });
const folders: SkillFolder[] = [];
const folder = (files: Record<string, string | Buffer>) => {
  const made = skillFolder(files);
  folders.push(made);
  return made.root;
};
afterAll(() => folders.forEach((f) => f.remove()));

/** The diagnostics a rejected `addSkills` carries, as `code where: message`. */
async function problemsOf(call: Promise<unknown>): Promise<string[]> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DefinitionError);
  return (error as DefinitionError).diagnostics.map((d) => `${d.code} ${d.where}: ${d.message}`);
}

describe('addSkills refuses', () => {
  it('a folder that does not exist, or a file', async () => {
    const root = folder({ 'notes.txt': 'x' });
    const missing = join(root, 'missing');
    expect(await problemsOf(server().addSkills(missing))).toEqual([`OMCG0017 server.addSkills('${missing}'): ${missing} does not exist.`]);
    const file = join(root, 'notes.txt');
    expect(await problemsOf(server().addSkills(file))).toEqual([`OMCG0017 server.addSkills('${file}'): ${file} is not a folder.`]);
  });

  it('a folder with no skill in it', async () => {
    const root = folder({ 'README.md': '# nothing here\n' });
    expect(await problemsOf(server().addSkills(root))).toEqual([
      `OMCG0017 server.addSkills('${root}'), .: no skills found (a skill is a folder containing SKILL.md).`,
    ]);
  });

  it('a SKILL.md without the frontmatter the SDK requires, naming the skill', async () => {
    const root = folder({ 'deploy/SKILL.md': DEPLOY_SKILL, 'broken/SKILL.md': '# no frontmatter\n' });
    expect(await problemsOf(server().addSkills(root))).toEqual([
      `OMCG0017 server.addSkills('${root}'), broken/SKILL.md: SKILL.md frontmatter: line 1: SKILL.md must begin with a "---" line.`,
    ]);
  });

  it('a name that is not its folder', async () => {
    const root = folder({ 'git/SKILL.md': GIT_SKILL });
    expect(await problemsOf(server().addSkills(root))).toEqual([
      `OMCG0017 server.addSkills('${root}'), git/SKILL.md: frontmatter name "git-workflow" must match the last path segment "git".`,
    ]);
  });

  it('a skill over the SDK limit of 16 MiB', async () => {
    const root = folder({ 'deploy/SKILL.md': DEPLOY_SKILL, 'deploy/assets/huge.bin': Buffer.alloc(16 * 1024 * 1024 + 1) });
    expect(await problemsOf(server().addSkills(root))).toEqual([
      `OMCG0017 server.addSkills('${root}'), deploy: 2 files / 16777284 bytes exceeds the limit of 512 files / 16777216 bytes; some hosts may decline it. Raise limits to allow it.`,
    ]);
    // Raised, it is served.
    await expect(server().addSkills(root, { limits: { bytes: 32 * 1024 * 1024 } })).resolves.toBeInstanceOf(McpServer);
  });

  it('a symlink inside a skill (it could lead out of the folder)', async () => {
    const root = folder({ 'deploy/SKILL.md': DEPLOY_SKILL });
    symlinkSync('/etc/hostname', join(root, 'deploy', 'host'));
    expect(await problemsOf(server().addSkills(root))).toEqual([
      `OMCG0017 server.addSkills('${root}'), deploy/host: symlinks and other special files are not followed; copy the file instead.`,
    ]);
  });

  it('no folder, scopes that are no list, public with scopes, a second call', async () => {
    await expect(server().addSkills('' as string)).rejects.toThrow(
      new UsageError('server.addSkills(folder) needs the path of a folder of skill folders.'),
    );
    await expect(server().addSkills('x', { scopes: 'skills' as never })).rejects.toThrow(
      new TypeError("server.addSkills('x'): 'scopes' must be a list of OAuth scopes without spaces, such as ['orders:read']."),
    );
    await expect(server().addSkills('x', { public: true, scopes: ['a'] })).rejects.toThrow("'public' and 'scopes' contradict each other");
    const root = folder(TWO_SKILLS);
    const once = await server().addSkills(root);
    await expect(once.addSkills(root)).rejects.toThrow(
      new UsageError('server.addSkills is called once per server: put every skill folder under one folder.'),
    );
  });
});
