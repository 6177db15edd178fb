import { z } from 'zod';
import * as v from 'valibot';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import { McpServer, Param, Tool, Field, ArrayOf } from '../../src';

class Line {
  @Field(z.string().min(1)) sku!: string;
  @Field(z.number().int().positive()) qty!: number;
}

class Tools {
  @Tool() greet(@Param({ type: z.string().email() }) to: string, @Param({ type: z.number().default(3) }) n: number): string {
    return `${to} ${n}`;
  }
  @Tool() order(@Param({ type: ArrayOf(Line) }) items: Line[]): string {
    return JSON.stringify(items);
  }
  @Tool() va(@Param({ type: toStandardJsonSchema(v.object({ a: v.pipe(v.string(), v.minLength(2)) })) }) o: { a: string }): string {
    return JSON.stringify(o);
  }
  @Tool() ark(@Param({ type: type({ a: 'string > 0', 'b?': 'number' }) }) o: { a: string }): string {
    return JSON.stringify(o);
  }
  @Tool() slow(@Param({ type: z.string().refine(async (s) => s.length > 2, 'too short') }) s: string): string {
    return s;
  }
}

it('smoke', async () => {
  const server = new McpServer({ name: 's', version: '1' }).add(new Tools());
  server.tool('whole', { input: z.object({ city: z.string(), days: z.number().int().default(1) }) }, (args) => JSON.stringify(args));
  for (const t of server.listTools()) console.log(JSON.stringify(t.inputSchema));
  const show = async (n: string, a: unknown) => console.log(n, JSON.stringify(a), JSON.stringify(await server.callTool(n, a as Record<string, unknown>)));
  await show('greet', { to: 'a@b.co' });
  await show('greet', { to: 'nope', n: 'x' });
  await show('order', { items: [{ sku: 'a', qty: 1 }, { sku: '', qty: 0 }, {}] });
  await show('va', { o: { a: 'x' } });
  await show('ark', { o: { a: '', b: 'x' } });
  await show('slow', { s: 'abcd' });
  await show('slow', { s: 'a' });
  await show('whole', { city: 'x' });
  await show('whole', { city: 1 });
});
