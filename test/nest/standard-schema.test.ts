import { Injectable, UseGuards, type CanActivate } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { type } from 'arktype';
import { z } from 'zod';
import { DefinitionError, Param, Tool } from '../../src';
import { McpModule } from '../../src/nest';
import { NestApps } from '../support/nest-app';
import { answerOf, modernRequest } from '../support/modern-http';

/** Standard Schemas on the tools of Nest providers (issue 40): listed, read and refused through McpModule as outside Nest. */

const seen: string[] = [];

@Injectable()
class Audit implements CanActivate {
  canActivate(): boolean {
    seen.push('guard');
    return true;
  }
}

@Injectable()
class Mailer {
  @Tool()
  @UseGuards(Audit)
  send(
    @Param({ type: z.string().email() }) to: string,
    @Param({ type: type({ subject: 'string > 0', 'cc?': 'string[]' }) }) mail: { subject: string },
  ): string {
    return `${to}: ${mail.subject}`;
  }
}

describe('McpModule with Standard Schema hints', () => {
  const apps = new NestApps('nest-standard', [Mailer, Audit]);
  afterAll(() => apps.close());

  it('lists, reads and refuses them over HTTP, through the enhancer pipeline', async () => {
    const url = await apps.serve({});
    const listed = answerOf(await modernRequest(url, 'tools/list', {})).result as { tools: { inputSchema: unknown }[] };
    expect(JSON.stringify(listed.tools[0].inputSchema)).toBe(
      `{"type":"object","properties":{"to":{"type":"string","format":"email","pattern":${JSON.stringify((z.email().toJSONSchema() as { pattern: string }).pattern)}},` +
        '"mail":{"type":"object","properties":{"subject":{"type":"string","minLength":1},"cc":{"type":"array","items":{"type":"string"}}},"required":["subject"]}},' +
        '"required":["to","mail"],"additionalProperties":false}',
    );
    seen.length = 0;
    const good = answerOf(
      await modernRequest(url, 'tools/call', { name: 'send', arguments: { to: 'ada@example.com', mail: { subject: 'Hi' } } }),
    );
    expect(good.result).toMatchObject({ content: [{ type: 'text', text: 'ada@example.com: Hi' }] });
    expect(seen).toEqual(['guard']);
    const bad = answerOf(
      await modernRequest(url, 'tools/call', { name: 'send', arguments: { to: 'ada', mail: { subject: '', cc: [1] } } }),
    );
    expect(bad.result).toMatchObject({
      content: [
        {
          type: 'text',
          text: [
            "Argument 'to' is not valid. Invalid email address.",
            "Argument 'mail.subject' is not valid. subject must be non-empty.",
            "Argument 'mail.cc[0]' is not valid. cc[0] must be a string (was a number).",
          ].join('\n'),
        },
      ],
      isError: true,
    });
  });

  it('stops the start on a schema that cannot be listed', async () => {
    @Injectable()
    class Broken {
      @Tool() when(@Param({ type: z.date() }) at: Date): string {
        return at.toISOString();
      }
    }
    const moduleRef = await Test.createTestingModule({
      imports: [McpModule.forRoot({ name: 'x', version: '1', transport: 'none', logger: false })],
      providers: [Broken],
    }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    const error = await app.init().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DefinitionError);
    expect((error as DefinitionError).diagnostics.map((d) => d.code)).toEqual(['OMCG0018']);
    await app.close();
  });
});
