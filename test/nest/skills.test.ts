import { Injectable } from '@nestjs/common';
import { Skill, Tool } from '../../src';
import { NestApps } from '../support/nest-app';
import { answerOf, modernRequest } from '../support/modern-http';

/** A provider's `@Skill` methods served by the Nest module, over the app's own HTTP server, beside its tools. */
@Injectable()
class Handbook {
  @Tool()
  ping(): string {
    return 'pong';
  }

  @Skill({ description: 'How this team works.' })
  teamHandbook(): string {
    return 'Be kind.\n';
  }
}

describe('@Skill in a Nest provider', () => {
  const apps = new NestApps('nest-skills', [Handbook]);
  afterAll(() => apps.close());

  it('lists and serves the skill as a standalone server does', async () => {
    const url = await apps.serve({});
    const listed = answerOf(await modernRequest(url, 'skills/list', {}));
    expect((listed.result as { skills: { uri: string; frontmatter: unknown }[] }).skills.map((s) => [s.uri, s.frontmatter])).toEqual([
      ['skill://team-handbook/SKILL.md', { name: 'team-handbook', description: 'How this team works.' }],
    ]);
    const read = answerOf(await modernRequest(url, 'resources/read', { uri: 'skill://team-handbook/SKILL.md' }));
    expect((read.result as { contents: unknown }).contents).toEqual([
      {
        uri: 'skill://team-handbook/SKILL.md',
        mimeType: 'text/markdown',
        text: '---\nname: team-handbook\ndescription: "How this team works."\n---\n\nBe kind.\n',
      },
    ]);
  });
});
