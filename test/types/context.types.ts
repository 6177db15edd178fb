// Type tests for RequestContext (issue 11): sampling, elicitation and logging are typed, not `unknown`.
// Checked by tsc in test/types/types.test.ts, never run. Every `@ts-expect-error` line must stay an error.
import { Field, RequestContext, type CreateMessageResult, type ElicitResult, type ElicitValue } from 'onemodelcontext';
import { expectType, type Equal } from './assert';

class Address {
  @Field() street!: string;
  @Field() floor!: number;
}

export async function typed(ctx: RequestContext): Promise<void> {
  const reply = await ctx.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 10 });
  expectType<Equal<typeof reply, CreateMessageResult>>(true);
  expectType<Equal<typeof reply.model, string>>(true);
  if (!Array.isArray(reply.content) && reply.content.type === 'text') expectType<Equal<typeof reply.content.text, string>>(true);

  // @ts-expect-error maxTokens is required
  await ctx.createMessage({ messages: [] });
  // @ts-expect-error a message's role is 'user' or 'assistant'
  await ctx.createMessage({ messages: [{ role: 'system', content: { type: 'text', text: 'hi' } }], maxTokens: 1 });
  // @ts-expect-error text content needs its text
  await ctx.createMessage({ messages: [{ role: 'user', content: { type: 'text' } }], maxTokens: 1 });

  const form = await ctx.elicit('Where to?', Address);
  expectType<Equal<typeof form, ElicitResult<Address>>>(true);
  if (form.action === 'accept') expectType<Equal<typeof form.content, Address>>(true);
  else expectType<Equal<typeof form.content, undefined>>(true);

  const raw = await ctx.elicit({
    message: 'Name?',
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  });
  if (raw.action === 'accept') expectType<Equal<typeof raw.content, Readonly<Record<string, ElicitValue>>>>(true);
  await ctx.elicit({ mode: 'url', message: 'Sign in', url: 'https://example.com/login', elicitationId: 'e1' });

  // @ts-expect-error the requested schema is an object schema
  await ctx.elicit({ message: 'Name?', requestedSchema: { type: 'string', properties: {} } });
  // @ts-expect-error the form is a record class, not an instance
  await ctx.elicit('Where to?', new Address());
  // @ts-expect-error a URL elicitation needs its url and id
  await ctx.elicit({ mode: 'url', message: 'Sign in' });

  await ctx.log('warning', { disk: 'low' }, 'storage');
  // @ts-expect-error 'warn' is not an MCP log level ('warning' is)
  await ctx.log('warn', 'disk low');
}
