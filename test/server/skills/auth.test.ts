import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { McpServer, type AuthInfo, type AuthorizeItem, type LogDetails } from 'onemodelcontext';
import type { Catalog } from '../../../src/server/catalog/catalog';
import { skillFolder, TWO_SKILLS, type SkillFolder } from './fixture';

/**
 * The scopes of `addSkills` and the `auth.authorize` policy over HTTP with tokens (a custom `verify`), to the SDK
 * client in both eras: a caller without the scopes lists no skill and is refused the rest (403, as for a resource
 * it lacks the scopes of); a skill the policy refuses is absent from `skills/list` and answered as an unknown skill,
 * file and directory; an anonymous caller sees no skill that is not `public`.
 */
jest.setTimeout(60_000);

const expiresAt = Math.floor(Date.now() / 1000) + 600;
const caller = (clientId: string, scopes: string[]): AuthInfo => ({ subject: clientId, clientId, scopes, expiresAt, claims: {} });
const TOKENS: Record<string, AuthInfo> = {
  reader: caller('reader', ['skills:read']),
  nobody: caller('nobody', []),
  banned: caller('banned', ['skills:read']),
};
const asked: AuthorizeItem[] = [];
const warnings: string[] = [];

let folder: SkillFolder;
let server: McpServer;
let url: string;

beforeAll(async () => {
  folder = skillFolder(TWO_SKILLS);
  const ignore = () => {};
  const logger = {
    error: ignore,
    info: ignore,
    debug: ignore,
    warn: (message: string, _details?: LogDetails) => void warnings.push(message),
  };
  server = new McpServer({ name: 'skills', version: '1.0.0' }, { logger });
  server.tool('ping', { public: true }, () => 'pong');
  await server.addSkills(folder.root, { scopes: ['skills:read'] });
  ({ url } = await server.serveHttp({
    port: 0,
    auth: {
      issuer: 'https://auth.example.com',
      verify: async (token) => TOKENS[token],
      allowAnonymous: true,
      authorize: (who, item) => {
        if (item.kind === 'skill') asked.push(item);
        return !(who?.clientId === 'banned' && item.name === 'skill://deploy/SKILL.md');
      },
    },
  }));
});

afterAll(async () => {
  await server.close();
  folder.remove();
});

async function clientFor(token: string | undefined, mode: 'legacy' | 'auto'): Promise<Client> {
  const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` };
  const client = new Client({ name: 'host', version: '1.0.0' }, { versionNegotiation: { mode } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

const uris = (skills: readonly { uri: string }[]) => skills.map((s) => s.uri);

describe.each([
  ['2025-11-25', 'legacy'],
  ['2026-07-28', 'auto'],
] as const)('skills with auth over %s', (_revision, mode) => {
  it('serves every skill to a caller with the scopes', async () => {
    const client = await clientFor('reader', mode);
    const skills = new SkillsClient(client);
    expect(uris((await skills.list()).skills)).toEqual(['skill://deploy/SKILL.md', 'skill://git-workflow/SKILL.md']);
    expect(uris((await client.listResources()).resources)).toEqual(['skill://deploy/SKILL.md', 'skill://git-workflow/SKILL.md']);
    expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual(['skill://{+path}']);
    const { skill } = await skills.get('skill://deploy/SKILL.md');
    expect((await skills.read(skill)).verified).toBe(true);
    await client.close();
  });

  it('lists nothing to a caller without the scopes, and refuses the rest', async () => {
    const client = await clientFor('nobody', mode);
    const skills = new SkillsClient(client);
    expect((await skills.list()).skills).toEqual([]);
    expect((await client.listResources()).resources).toEqual([]);
    // No skill to read, so no template to read one with.
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([]);
    const refusals = await Promise.all([
      skills.get('skill://deploy/SKILL.md').then(String, String),
      client.readResource({ uri: 'skill://deploy/SKILL.md' }).then(String, String),
      skills.readDirectory('skill://deploy').then(String, String),
    ]);
    expect(refusals).toEqual(Array(3).fill('InsufficientScopeError: Insufficient scope: required "skills:read"'));
    await client.close();
  });

  it('hides and refuses the skill a policy refuses, as an unknown one', async () => {
    const client = await clientFor('banned', mode);
    const skills = new SkillsClient(client);
    expect(uris((await skills.list()).skills)).toEqual(['skill://git-workflow/SKILL.md']);
    expect(uris((await client.listResources()).resources)).toEqual(['skill://git-workflow/SKILL.md']);
    await expect(skills.get('skill://deploy/SKILL.md')).rejects.toThrow('No skill is served at skill://deploy/SKILL.md');
    await expect(client.readResource({ uri: 'skill://deploy/SKILL.md' })).rejects.toThrow('Resource not found: skill://deploy/SKILL.md');
    await expect(skills.readDirectory('skill://deploy')).rejects.toThrow('skill://deploy is not a directory resource');
    expect((await client.readResource({ uri: 'skill://git-workflow/references/GUIDE.md' })).contents).toHaveLength(1);
    await client.close();
    expect(asked).toContainEqual({ kind: 'skill', name: 'skill://deploy/SKILL.md' });
    expect(asked).toContainEqual({ kind: 'skill', name: 'skill://git-workflow/SKILL.md' });
    expect(warnings).toContainEqual(
      expect.stringMatching(
        /^auth\.authorize refused client 'banned' \(subject 'banned'\) the skill 'skill:\/\/deploy\/SKILL\.md'; answered as an unknown skill \(/,
      ),
    );
  });

  it('lists nothing to an anonymous caller, and asks it for a token for the rest', async () => {
    const client = await clientFor(undefined, mode);
    const skills = new SkillsClient(client);
    expect((await skills.list()).skills).toEqual([]);
    expect((await client.listResources()).resources).toEqual([]);
    await expect(skills.get('skill://deploy/SKILL.md')).rejects.toThrow(
      'Error POSTing to endpoint: {"error":"invalid_request","error_description":"This endpoint needs an access token (Authorization: Bearer)."}',
    );
    await client.close();
  });
});

describe('the scopes a request needs', () => {
  it("are the skills' for skills/get, a skill file and a skill folder; none for the rest", async () => {
    const catalog = (server as unknown as { catalog: Catalog }).catalog;
    const needed = (method: string, params: object) => catalog.scopesNeeded({ method, params });
    expect(needed('skills/get', { uri: 'skill://deploy/SKILL.md' })).toEqual(['skills:read']);
    expect(needed('resources/read', { uri: 'skill://git-workflow/references/GUIDE.md' })).toEqual(['skills:read']);
    expect(needed('resources/directory/read', { uri: 'skill://git-workflow' })).toEqual(['skills:read']);
    expect(needed('skills/get', { uri: 'skill://nope/SKILL.md' })).toEqual([]);
    expect(needed('skills/list', {})).toEqual([]);
    expect(catalog.openToAnonymous({ method: 'skills/get', params: { uri: 'skill://deploy/SKILL.md' } })).toBe(false);
    expect(catalog.declaredScopes).toEqual(['skills:read']);
  });
});

describe('public skills', () => {
  it('are listed and read by an anonymous caller', async () => {
    const open = skillFolder(TWO_SKILLS);
    const shared = await new McpServer({ name: 'open', version: '1.0.0' }, { logger: false }).addSkills(open.root, { public: true });
    const served = await shared.serveHttp({
      port: 0,
      auth: { issuer: 'https://auth.example.com', verify: async (token) => TOKENS[token], allowAnonymous: true },
    });
    try {
      const client = new Client({ name: 'host', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
      await client.connect(new StreamableHTTPClientTransport(new URL(served.url)));
      const skills = new SkillsClient(client);
      expect(uris((await skills.list()).skills)).toEqual(['skill://deploy/SKILL.md', 'skill://git-workflow/SKILL.md']);
      const { skill } = await skills.get('skill://git-workflow/SKILL.md');
      expect((await skills.read(skill, 'references/GUIDE.md')).verified).toBe(true);
      await client.close();
    } finally {
      await shared.close();
      open.remove();
    }
  });
});
