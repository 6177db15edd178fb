import type { Client } from '@modelcontextprotocol/client';
import { Field, Int32, McpServer, Range, RequestContext, StringLength, Tool } from '../../../src';
import { connected } from '../support';

/** Issue 11, typed RequestContext: `ctx.elicit(message, Form)` sends the record's schema and reads the answer into an instance. */
class Shipping {
  @Field() @StringLength(100, { min: 1 }) street!: string;
  @Field(Int32) @Range(1, 9) floor!: number;
  @Field({ optional: true }) express?: boolean;

  label(): string {
    return `${this.street}, floor ${this.floor}${this.express ? ' (express)' : ''}`;
  }
}

class Checkout {
  @Tool({ returns: String })
  async ship(ctx: RequestContext): Promise<string> {
    const answer = await ctx.elicit('Where to ship?', Shipping);
    if (answer.action !== 'accept') return `no address (${answer.action})`;
    return `${answer.content instanceof Shipping ? 'a Shipping' : 'not a Shipping'}: ${answer.content.label()}`;
  }
}

async function asked(answer: Record<string, unknown>): Promise<{ client: Client; requests: unknown[] }> {
  const { client } = await connected(new McpServer({ name: 'checkout', version: '1' }).add(new Checkout()), 'legacy', {
    elicitation: { form: {} },
  });
  const requests: unknown[] = [];
  client.setRequestHandler('elicitation/create', async (request) => {
    requests.push(request.params);
    return answer as never;
  });
  return { client, requests };
}

describe('ctx.elicit with a record class as the form', () => {
  it('sends the record input schema as requestedSchema and gives back an instance', async () => {
    const { client, requests } = await asked({ action: 'accept', content: { street: 'Main St 1', floor: 3, express: true } });
    const result = await client.callTool({ name: 'ship', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'a Shipping: Main St 1, floor 3 (express)' }]);
    expect(JSON.stringify(requests)).toBe(
      JSON.stringify([
        {
          message: 'Where to ship?',
          requestedSchema: {
            type: 'object',
            properties: {
              street: { type: 'string', minLength: 1, maxLength: 100 },
              floor: { type: 'integer', minimum: 1, maximum: 9 },
              express: { type: 'boolean' },
            },
            required: ['street', 'floor'],
            additionalProperties: false,
          },
        },
      ]),
    );
  });

  it('passes a decline through with no content', async () => {
    const { client } = await asked({ action: 'decline' });
    expect((await client.callTool({ name: 'ship', arguments: {} })).content).toEqual([{ type: 'text', text: 'no address (decline)' }]);
  });

  it('rejects an accepted answer that does not fit the form, naming the field', async () => {
    const ctx = new RequestContext({ elicit: async () => ({ action: 'accept', content: { street: 'Main St 1', floor: 12 } }) });
    await expect(ctx.elicit('Where to ship?', Shipping)).rejects.toThrow(
      "The elicitation answer does not fit Shipping: 'floor' is not valid.",
    );
  });
});
