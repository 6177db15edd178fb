import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake Gemini API received: its method, path (with query) and parsed JSON body. */
export interface GeminiRequest {
  readonly method: string;
  readonly path: string;
  readonly body: GenerateContentBody;
}

export interface FunctionDeclaration {
  readonly name: string;
  readonly description?: string;
  readonly parameters?: unknown;
  readonly parametersJsonSchema?: unknown;
}

export interface Part {
  readonly text?: string;
  readonly functionCall?: { readonly name: string; readonly args: unknown };
  readonly functionResponse?: { readonly name: string; readonly response: unknown };
}

export interface GenerateContentBody {
  readonly contents: readonly { readonly role?: string; readonly parts: readonly Part[] }[];
  readonly tools?: readonly { readonly functionDeclarations?: readonly FunctionDeclaration[] }[];
}

/** Every function declaration of a request, in order. */
export const declarationsOf = (request: GeminiRequest): FunctionDeclaration[] =>
  (request.body.tools ?? []).flatMap((tool) => tool.functionDeclarations ?? []);

/** The parts of a request's last content (what the framework sent after the model's previous turn). */
export const lastPartsOf = (request: GeminiRequest): readonly Part[] => request.body.contents[request.body.contents.length - 1].parts;

const read = (request: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });

const USAGE = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 };

/** A `GenerateContentResponse` of one candidate with `parts`. */
const answerWith = (parts: readonly Part[]) => ({
  candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
  usageMetadata: USAGE,
  modelVersion: 'gemini-2.5-flash',
});

/**
 * A recording fake of the Gemini API's `generateContent` (and `streamGenerateContent`, as server-sent events with
 * `alt=sse`) on 127.0.0.1: it keeps each request body, and plays the model of a one-tool conversation. To a request
 * whose last turn carries no `functionResponse` it answers with a `functionCall` of the declared function whose name
 * ends with `toolSuffix`, with `args`; to one that carries it, with the text `done`. Anything else is a 404, which
 * fails the framework's call.
 */
export class FakeGeminiApi {
  readonly requests: GeminiRequest[] = [];
  private readonly server: Server;

  private constructor(
    private readonly toolSuffix: string,
    private readonly args: Record<string, unknown>,
  ) {
    this.server = createServer((request, response) => {
      void read(request).then((text) => {
        const path = request.url ?? '';
        const match = /^\/[^/]+\/models\/[^/:]+:(generateContent|streamGenerateContent)(\?.*)?$/.exec(path);
        if (request.method !== 'POST' || match === null) {
          response
            .writeHead(404, { 'content-type': 'application/json' })
            .end(JSON.stringify({ error: { code: 404, message: path, status: 'NOT_FOUND' } }));
          return;
        }
        const recorded: GeminiRequest = { method: request.method, path, body: JSON.parse(text) as GenerateContentBody };
        this.requests.push(recorded);
        const answer = JSON.stringify(this.answer(recorded));
        if (match[1] === 'streamGenerateContent') {
          response.writeHead(200, { 'content-type': 'text/event-stream' }).end(`data: ${answer}\r\n\r\n`);
        } else {
          response.writeHead(200, { 'content-type': 'application/json' }).end(answer);
        }
      });
    });
  }

  /** Starts a fake on an ephemeral port of 127.0.0.1. */
  static async start(toolSuffix: string, args: Record<string, unknown>): Promise<FakeGeminiApi> {
    const fake = new FakeGeminiApi(toolSuffix, args);
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  /** `http://127.0.0.1:<port>`, the base URL to give a client (it adds `/v1beta/models/...`). */
  get origin(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private answer(request: GeminiRequest): object {
    if (lastPartsOf(request).some((part) => part.functionResponse !== undefined)) return answerWith([{ text: 'done' }]);
    const declared = declarationsOf(request).find((d) => d.name.endsWith(this.toolSuffix));
    if (declared === undefined) return answerWith([{ text: 'no tool' }]);
    return answerWith([{ functionCall: { name: declared.name, args: this.args } }]);
  }

  close(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.closeAllConnections();
      this.server.close((error) => (error ? reject(error) : resolve()));
    });
  }
}
