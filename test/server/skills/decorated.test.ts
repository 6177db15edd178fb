import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DefinitionError, Description, McpServer, Skill, Tool, type AuthInfo, type LogDetails } from 'onemodelcontext';
import { connected, ERAS } from '../support';
import { DEPLOY_SKILL, skillFolder, type SkillFolder } from './fixture';

/**
 * `@Skill` methods served through the SDK's Skills extension, to the SDK's own client in both eras: the frontmatter
 * written from the options, the files a method gives, skills beside a folder's, per-skill scopes over HTTP, and every
 * way a declaration or a method's answer is refused (at `server.add` when the declaration is wrong, when serving
 * when the method's answer is).
 */
jest.setTimeout(60_000);

const quiet = () => new McpServer({ name: 'skills', version: '1.0.0' }, { logger: false });

const REVIEW_BODY = '# Reviews\nRead references/checklist.md, then run the tools.\n';
const CHECKLIST = '- tests\n- docs\n';
const LOGO = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);

class TeamTools {
  @Tool()
  ping(): string {
    return 'pong';
  }

  @Skill({ description: 'How we review a pull request: "two eyes", then merge.' })
  codeReview(): Record<string, string | Uint8Array> {
    return { 'SKILL.md': REVIEW_BODY, 'references/checklist.md': CHECKLIST, 'assets/logo.png': LOGO };
  }

  @Skill({ name: 'on-call' })
  @Description('Who to page, and when.')
  async onCall(): Promise<string> {
    return 'Page the primary first.\n';
  }
}

const REVIEW_SKILL = `---\nname: code-review\ndescription: "How we review a pull request: \\"two eyes\\", then merge."\n---\n\n${REVIEW_BODY}`;
const ON_CALL_SKILL = '---\nname: on-call\ndescription: "Who to page, and when."\n---\n\nPage the primary first.\n';

describe.each(ERAS)('@Skill over %s', (_revision, mode) => {
  it('lists each skill with the frontmatter written from its options, and serves the files its method gave', async () => {
    const { client } = await connected(quiet().add(new TeamTools()), mode);
    const skills = new SkillsClient(client);
    const listing = await skills.list();
    expect(listing.invalid).toEqual([]);
    expect(JSON.stringify(listing.skills.map((s) => [s.uri, s.frontmatter]))).toBe(
      JSON.stringify([
        ['skill://code-review/SKILL.md', { name: 'code-review', description: 'How we review a pull request: "two eyes", then merge.' }],
        ['skill://on-call/SKILL.md', { name: 'on-call', description: 'Who to page, and when.' }],
      ]),
    );
    const { skill } = await skills.get('skill://code-review/SKILL.md');
    const manifest = await skills.read(skill);
    expect([manifest.verified, manifest.text]).toEqual([true, REVIEW_SKILL]);
    const checklist = await skills.read(skill, 'references/checklist.md');
    expect([checklist.verified, checklist.text]).toEqual([true, CHECKLIST]);
    const logo = await client.readResource({ uri: 'skill://code-review/assets/logo.png' });
    expect(logo.contents).toEqual([
      { uri: 'skill://code-review/assets/logo.png', mimeType: 'image/png', blob: Buffer.from(LOGO).toString('base64') },
    ]);
    const onCall = await client.readResource({ uri: 'skill://on-call/SKILL.md' });
    expect(onCall.contents).toEqual([{ uri: 'skill://on-call/SKILL.md', mimeType: 'text/markdown', text: ON_CALL_SKILL }]);
    expect((await client.callTool({ name: 'ping', arguments: {} })).content).toEqual([{ type: 'text', text: 'pong' }]);
    await client.close();
  });
});

describe('@Skill beside a folder of skills', () => {
  let folder: SkillFolder;
  beforeAll(() => (folder = skillFolder({ 'deploy/SKILL.md': DEPLOY_SKILL })));
  afterAll(() => folder.remove());

  it('serves both, in whichever order they were given', async () => {
    const first = await quiet().add(new TeamTools()).addSkills(folder.root);
    const second = await quiet().addSkills(folder.root);
    second.add(new TeamTools());
    for (const server of [first, second]) {
      const { client } = await connected(server, 'legacy');
      const listing = await new SkillsClient(client).list();
      expect(listing.skills.map((s) => s.uri)).toEqual([
        'skill://code-review/SKILL.md',
        'skill://deploy/SKILL.md',
        'skill://on-call/SKILL.md',
      ]);
      const deploy = await client.readResource({ uri: 'skill://deploy/SKILL.md' });
      expect(deploy.contents).toEqual([{ uri: 'skill://deploy/SKILL.md', mimeType: 'text/markdown', text: DEPLOY_SKILL }]);
      await client.close();
    }
  });

  it('refuses a skill name the folder already has, and keeps the folder out', async () => {
    class Deploy {
      @Skill({ description: 'Another deploy.' })
      deploy(): string {
        return 'x';
      }
    }
    const server = quiet().add(new Deploy());
    await expect(server.addSkills(folder.root)).rejects.toThrow(
      `OMCG0007 Deploy.deploy: the skill name 'deploy' is already used by the folder ${folder.root}. Fix: give one of them another name with @Skill({ name }).`,
    );
    const { client } = await connected(server, 'legacy');
    expect((await new SkillsClient(client).list()).skills.map((s) => s.uri)).toEqual(['skill://deploy/SKILL.md']);
    expect((await client.readResource({ uri: 'skill://deploy/SKILL.md' })).contents[0]).toMatchObject({
      text: expect.stringContaining('Another deploy.'),
    });
    await client.close();
  });
});

describe('@Skill declarations refused at server.add', () => {
  it('names every problem of the class at once', () => {
    class Bad {
      @Skill({ name: 'Not_Valid', description: 'x' })
      one(): string {
        return 'x';
      }

      @Skill()
      undescribed(): string {
        return 'x';
      }

      @Skill({ description: 'x'.repeat(1025) })
      long(): string {
        return 'x';
      }

      @Skill({ description: 'static' })
      static shared(): string {
        return 'x';
      }
    }
    let thrown: unknown;
    try {
      quiet().add(new Bad());
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(DefinitionError);
    expect((thrown as DefinitionError).diagnostics.map((d) => `${d.code} ${d.where}: ${d.message}`)).toEqual([
      "OMCG0008 Bad.one: the skill name 'Not_Valid' is not valid: use 1 to 64 lowercase letters, digits and single hyphens, such as 'git-workflow'.",
      'OMCG0017 Bad.undescribed: the skill has no description; hosts choose a skill by it.',
      "OMCG0017 Bad.long: the skill's description has 1025 characters; the Skills format allows 1024.",
      'OMCG0001 Bad.shared: @Skill is on a static method; only instance methods can be skills.',
    ]);
  });

  it('refuses a name another added class already serves', () => {
    class Other {
      @Skill({ name: 'on-call', description: 'Another on-call.' })
      page(): string {
        return 'x';
      }
    }
    const server = quiet().add(new TeamTools());
    expect(() => server.add(new Other())).toThrow(
      "OMCG0007 Other.page: the skill name 'on-call' is already used by TeamTools.onCall. Fix: give one of them another name with @Skill({ name }).",
    );
  });

  it('refuses @Skill written without parentheses and options of the wrong type', () => {
    expect(() => Skill({ name: 3 as never })).toThrow("@Skill(): 'name' must be a string, got number.");
    expect(() => Skill({ scopes: 'admin' as never })).toThrow("@Skill(): 'scopes' must be a list of OAuth scopes without spaces");
    expect(() => Skill({ public: true, scopes: ['a'] })).toThrow("@Skill(): 'public' and 'scopes' contradict each other");
    expect(() => (Skill as unknown as (t: object, k: string) => void)({}, 'x')).toThrow('@Skill is a decorator factory.');
  });
});

describe("a @Skill method's answer refused when serving", () => {
  const answers: [string, () => unknown, string][] = [
    [
      'throws',
      () => {
        throw new Error('no disk');
      },
      'the method threw: no disk',
    ],
    ['returns a number', () => 42, 'the method returned number, not a SKILL.md body or files by path.'],
    ['returns null', () => null, 'the method returned null, not a SKILL.md body or files by path.'],
    ['gives no SKILL.md', () => ({ 'README.md': 'x' }), 'the files the method returned have no SKILL.md text.'],
    [
      'writes its own frontmatter',
      () => '---\nname: x\n---\nbody',
      'the SKILL.md body starts with frontmatter; @Skill writes it from its name and description.',
    ],
    [
      'climbs out of the skill',
      () => ({ 'SKILL.md': 'x', '../escape.md': 'x' }),
      "the file path '../escape.md' is not a relative path inside the skill.",
    ],
    [
      'gives an absolute path',
      () => ({ 'SKILL.md': 'x', '/etc/passwd': 'x' }),
      "the file path '/etc/passwd' is not a relative path inside the skill.",
    ],
    [
      'gives a file that is neither text nor bytes',
      () => ({ 'SKILL.md': 'x', 'a.json': { a: 1 } }),
      "the file 'a.json' is neither text nor bytes.",
    ],
  ];

  it.each(answers)(
    'a method that %s: serving rejects with the problem, and the failure is logged at once',
    async (_what, answer, message) => {
      class Flaky {
        @Skill({ description: 'Flaky.' })
        flaky(): unknown {
          return answer();
        }
      }
      const errors: string[] = [];
      const logger = { error: (m: string, _d?: LogDetails) => void errors.push(m), warn: () => {}, info: () => {}, debug: () => {} };
      const server = new McpServer({ name: 'skills', version: '1.0.0' }, { logger }).add(new Flaky());
      const expected = `server.add(Flaky) has 1 definition problem:\n  OMCG0017 Flaky.flaky: ${message} Fix: Return the SKILL.md body (markdown without frontmatter) or the skill's files by path, such as { 'SKILL.md': body, 'references/setup.md': text }.`;
      await expect(server.serveHttp({ port: 0 })).rejects.toThrow(expected);
      // The logger writes a line break of a message as `\u000a`.
      expect(errors).toEqual([`server.add(Flaky): its skills cannot be served: ${expected.replace('\n', '\\u000a')}`]);
      await server.close();
    },
  );

  it("answers a file over the limits with the SDK's own reason", async () => {
    class Huge {
      @Skill({ description: 'Huge.' })
      huge(): Record<string, string> {
        return Object.fromEntries([['SKILL.md', 'x'], ...Array.from({ length: 600 }, (_, i) => [`f${i}.md`, 'x'])]);
      }
    }
    const server = quiet().add(new Huge());
    await expect(server.serveHttp({ port: 0 })).rejects.toThrow(
      /^server\.add\(Huge\) has 1 definition problem:\n {2}OMCG0017 Huge\.huge: 601 files \/ \d+ bytes exceeds the limit of 512 files/,
    );
  });
});

describe('@Skill over HTTP', () => {
  const expiresAt = Math.floor(Date.now() / 1000) + 600;
  const TOKENS: Record<string, AuthInfo> = {
    lead: { subject: 'lead', clientId: 'lead', scopes: ['skills:lead'], expiresAt, claims: {} },
    dev: { subject: 'dev', clientId: 'dev', scopes: [], expiresAt, claims: {} },
  };
  class Scoped {
    @Skill({ description: 'For leads.', scopes: ['skills:lead'] })
    hiring(): string {
      return 'Hire well.\n';
    }

    @Skill({ description: 'For everyone.', public: true })
    handbook(): string {
      return 'Be kind.\n';
    }

    @Skill({ description: 'For any caller with a token.' })
    tooling(): string {
      return 'Use the tools.\n';
    }
  }

  async function listed(url: string, token?: string): Promise<string[]> {
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    const client = new Client({ name: 't', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
    const uris = (await new SkillsClient(client).list()).skills.map((s) => s.uri);
    await client.close();
    return uris;
  }

  it("decides each skill by its own scopes, as a resource's", async () => {
    const server = quiet().add(new Scoped());
    const { url } = await server.serveHttp({
      port: 0,
      auth: { issuer: 'https://auth.example.com', verify: async (token) => TOKENS[token], allowAnonymous: true },
    });
    expect(await listed(url, 'lead')).toEqual(['skill://handbook/SKILL.md', 'skill://hiring/SKILL.md', 'skill://tooling/SKILL.md']);
    expect(await listed(url, 'dev')).toEqual(['skill://handbook/SKILL.md', 'skill://tooling/SKILL.md']);
    expect(await listed(url)).toEqual(['skill://handbook/SKILL.md']);
    await server.close();
  });

  it("answers a handler's requests once the skills of an instance added after it are built", async () => {
    let release!: (body: string) => void;
    const body = new Promise<string>((resolve) => (release = resolve));
    class Late {
      @Skill({ description: 'Late.' })
      late(): Promise<string> {
        return body;
      }
    }
    const server = quiet();
    const handler = server.createHttpHandler();
    server.add(new Late());
    const http: Server = createServer((req, res) => void handler.handle(req, res));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
    const listing = listed(url);
    release('Arrived.\n');
    expect(await listing).toEqual(['skill://late/SKILL.md']);
    await server.close();
    await new Promise((resolve) => http.close(resolve));
  });
});
