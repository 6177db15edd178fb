import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A recording fake of OpenAI's HTTP API on 127.0.0.1: `POST /v1/responses` (the Responses API) and
 * `POST /v1/chat/completions` (Chat Completions), each plain or streamed (`stream: true`, server-sent events). It
 * keeps every request body; a `Plan` decides each answer: a function call of a tool the request offered, or text.
 * Only the provider's HTTP API is faked; the frameworks, their OpenAI clients and the MCP connection are real.
 */

/** A function tool as a request offered it, whichever API it came by. */
export interface OfferedTool {
  readonly name: string;
  readonly strict: boolean | undefined;
  readonly parameters: unknown;
  readonly description: string | undefined;
}

export interface Received {
  readonly path: string;
  readonly body: Record<string, unknown>;
  readonly tools: OfferedTool[];
  /** The outputs of earlier function calls that this request sends back (tool messages / function_call_output). */
  readonly toolOutputs: string[];
}

export type Reply = { readonly call: { readonly name: string; readonly arguments: Record<string, unknown> } } | { readonly text: string };
export type Plan = (request: Received, index: number) => Reply;

/** The function tools of a request body: `tools[].function` (Chat Completions) or `tools[]` of type function (Responses). */
export function offeredTools(body: Record<string, unknown>): OfferedTool[] {
  const tools = Array.isArray(body.tools) ? (body.tools as Record<string, unknown>[]) : [];
  return tools
    .filter((tool) => tool.type === 'function')
    .map((tool) => {
      const fn = (typeof tool.function === 'object' && tool.function !== null ? tool.function : tool) as Record<string, unknown>;
      return {
        name: String(fn.name),
        strict: typeof fn.strict === 'boolean' ? fn.strict : undefined,
        parameters: fn.parameters,
        description: typeof fn.description === 'string' ? fn.description : undefined,
      };
    });
}

function toolOutputsOf(body: Record<string, unknown>): string[] {
  const outputs: string[] = [];
  const text = (content: unknown) =>
    typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? content.map((part: { text?: unknown }) => (typeof part?.text === 'string' ? part.text : JSON.stringify(part))).join('')
        : JSON.stringify(content);
  for (const message of (Array.isArray(body.messages) ? body.messages : []) as Record<string, unknown>[])
    if (message.role === 'tool') outputs.push(text(message.content));
  for (const item of (Array.isArray(body.input) ? body.input : []) as Record<string, unknown>[])
    if (item.type === 'function_call_output') outputs.push(text(item.output));
  return outputs;
}

const USAGE_RESPONSES = {
  input_tokens: 1,
  output_tokens: 1,
  total_tokens: 2,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens_details: { reasoning_tokens: 0 },
};
const USAGE_CHAT = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };

export class FakeOpenAI {
  readonly received: Received[] = [];
  private server: Server | undefined;
  private calls = 0;

  constructor(private readonly plan: Plan) {}

  /** Starts listening; the base URL for an OpenAI client (`.../v1`). */
  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      this.handle(request, response).catch((error: unknown) => {
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: String(error), type: 'fake_error' } }));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  }

  /** The tools offered by every request, by name (each request must offer the same). */
  toolsByName(): Map<string, OfferedTool> {
    const byName = new Map<string, OfferedTool>();
    for (const request of this.received) for (const tool of request.tools) byName.set(tool.name, tool);
    return byName;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let text = '';
    for await (const chunk of request) text += (chunk as Buffer).toString('utf8');
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    if (request.method !== 'POST' || (path !== '/v1/responses' && path !== '/v1/chat/completions')) {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: `no ${request.method} ${path} in the fake`, type: 'not_found' } }));
      return;
    }
    const body = JSON.parse(text) as Record<string, unknown>;
    const received: Received = { path, body, tools: offeredTools(body), toolOutputs: toolOutputsOf(body) };
    this.received.push(received);
    const reply = this.plan(received, this.received.length - 1);
    const model = typeof body.model === 'string' ? body.model : 'fake';
    const n = ++this.calls;
    const stream = body.stream === true;
    if (path === '/v1/responses') this.answerResponses(response, reply, model, n, stream);
    else this.answerChat(response, reply, model, n, stream);
  }

  private answerResponses(response: ServerResponse, reply: Reply, model: string, n: number, stream: boolean): void {
    const item =
      'call' in reply
        ? {
            type: 'function_call',
            id: `fc_${n}`,
            call_id: `call_${n}`,
            name: reply.call.name,
            arguments: JSON.stringify(reply.call.arguments),
            status: 'completed',
          }
        : {
            type: 'message',
            id: `msg_${n}`,
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text: reply.text, annotations: [] }],
          };
    const done = { id: `resp_${n}`, object: 'response', created_at: 1, status: 'completed', model, output: [item], usage: USAGE_RESPONSES };
    if (!stream) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(done));
      return;
    }
    const events: Record<string, unknown>[] = [
      { type: 'response.created', response: { ...done, status: 'in_progress', output: [] } },
      { type: 'response.output_item.added', output_index: 0, item: { ...item, status: 'in_progress' } },
      'call' in reply
        ? {
            type: 'response.function_call_arguments.delta',
            output_index: 0,
            item_id: item.id,
            delta: (item as { arguments: string }).arguments,
          }
        : { type: 'response.output_text.delta', output_index: 0, content_index: 0, item_id: item.id, delta: reply.text },
      { type: 'response.output_item.done', output_index: 0, item },
      { type: 'response.completed', response: done },
    ];
    this.sse(
      response,
      events.map((event, at) => ({ ...event, sequence_number: at })),
      false,
    );
  }

  private answerChat(response: ServerResponse, reply: Reply, model: string, n: number, stream: boolean): void {
    const toolCall =
      'call' in reply
        ? { id: `call_${n}`, type: 'function', function: { name: reply.call.name, arguments: JSON.stringify(reply.call.arguments) } }
        : undefined;
    const finish = toolCall ? 'tool_calls' : 'stop';
    const base = { id: `chatcmpl_${n}`, created: 1, model };
    if (!stream) {
      const message = toolCall
        ? { role: 'assistant', content: null, tool_calls: [toolCall] }
        : { role: 'assistant', content: (reply as { text: string }).text };
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          ...base,
          object: 'chat.completion',
          choices: [{ index: 0, message, finish_reason: finish, logprobs: null }],
          usage: USAGE_CHAT,
        }),
      );
      return;
    }
    const delta = toolCall
      ? { role: 'assistant', content: null, tool_calls: [{ index: 0, ...toolCall }] }
      : { role: 'assistant', content: (reply as { text: string }).text };
    const chunk = (choice: Record<string, unknown>, usage: unknown = null) => ({
      ...base,
      object: 'chat.completion.chunk',
      choices: [choice],
      usage,
    });
    this.sse(
      response,
      [chunk({ index: 0, delta, finish_reason: null }), chunk({ index: 0, delta: {}, finish_reason: finish }, USAGE_CHAT)],
      true,
    );
  }

  private sse(response: ServerResponse, events: Record<string, unknown>[], doneMarker: boolean): void {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const event of events) {
      const name = typeof event.type === 'string' && !doneMarker ? `event: ${event.type}\n` : '';
      response.write(`${name}data: ${JSON.stringify(event)}\n\n`);
    }
    if (doneMarker) response.write('data: [DONE]\n\n');
    response.end();
  }
}

/** A plan that calls `name` (a tool name the request offers that ends with it) with `args` once, then answers `text`. */
export const callOnce =
  (name: string, args: Record<string, unknown>, text = 'done'): Plan =>
  (request) => {
    if (request.toolOutputs.length > 0) return { text };
    const tool = request.tools.find((t) => t.name === name || t.name.endsWith(`_${name}`));
    if (!tool) throw new Error(`the request offered no tool ${name}: ${request.tools.map((t) => t.name).join(', ')}`);
    return { call: { name: tool.name, arguments: args } };
  };
