import { Description, McpServer, Param, Prompt, RequestContext, Resource, Tool, ToolError } from 'onemodelcontext';

/**
 * What the MCP conformance suite (@modelcontextprotocol/conformance) calls by name: the 2025-11-25
 * "everything" scenarios, the 2026-07-28 multi-round-trip (input-required) ones and the tasks extension's.
 */

/** A 1x1 PNG. */
export const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
/** A 44-byte WAV header and two silent samples (8 kHz, mono, 16-bit). */
export const WAV = 'UklGRigAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQQAAAAAAAAA';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How long an SSE response stream of a 2025-11-25 call stays open (`sseCloseAfterMs`, main.ts). */
export const SSE_CLOSE_AFTER_MS = 1000;
/** How long `test_reconnection` runs: past the close, well within the suite's 10 s read and 5 s resume. */
const RECONNECTION_MS = 2 * SSE_CLOSE_AFTER_MS;

/** Waits `ms`, or less when `signal` aborts first (a cancelled task). */
function sleepUnlessAborted(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
const text = (value: string) => ({ type: 'text' as const, text: value });

const nameSchema = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
const askName = (message: string) => ({ method: 'elicitation/create', params: { message, requestedSchema: nameSchema } });
const confirm = {
  method: 'elicitation/create',
  params: { message: 'Please confirm', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } },
};

/** The content of an accepted elicitation, else `undefined`. */
function accepted(response: unknown): Record<string, unknown> | undefined {
  const r = response as { action?: string; content?: Record<string, unknown> } | undefined;
  return r?.action === 'accept' ? (r.content ?? {}) : undefined;
}

function sampledText(response: unknown): string {
  const content = (response as { content?: unknown })?.content;
  const first = (Array.isArray(content) ? content[0] : content) as { type?: string; text?: string } | undefined;
  return first?.type === 'text' ? String(first.text) : JSON.stringify(first);
}

export class ContentTools {
  @Tool({ description: 'Returns simple text' })
  testSimpleText(): string {
    return 'This is a simple text response for testing.';
  }

  @Tool({ description: 'Returns an image' })
  testImageContent(): object {
    return { type: 'image', data: PNG, mimeType: 'image/png' };
  }

  @Tool({ description: 'Returns audio' })
  testAudioContent(): object {
    return { type: 'audio', data: WAV, mimeType: 'audio/wav' };
  }

  @Tool({ description: 'Returns an embedded resource' })
  testEmbeddedResource(): object {
    return {
      type: 'resource',
      resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' },
    };
  }

  @Tool({ description: 'Returns text, an image and a resource' })
  testMultipleContentTypes(): object[] {
    return [
      text('Multiple content types test:'),
      { type: 'image', data: PNG, mimeType: 'image/png' },
      {
        type: 'resource',
        resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: '{"test":"data","value":123}' },
      },
    ];
  }

  @Tool({ description: 'Echoes a region that clients mirror into the Mcp-Param-Region header (SEP-2243)' })
  testCustomHeader(@Param({ header: 'Region' }) region: string): string {
    return `region: ${region}`;
  }

  @Tool({ description: 'Always fails with a tool error' })
  testErrorHandling(): string {
    throw new ToolError('This tool intentionally returns an error for testing');
  }
}

export class ContextTools {
  @Tool({ description: 'Logs three messages while it runs' })
  async testToolWithLogging(ctx: RequestContext): Promise<string> {
    await ctx.log('info', 'Tool execution started');
    await sleep(50);
    await ctx.log('info', 'Tool processing data');
    await sleep(50);
    await ctx.log('info', 'Tool execution completed');
    return 'Tool with logging executed successfully';
  }

  @Tool({ description: 'Reports progress 0, 50 and 100 of 100' })
  async testToolWithProgress(ctx: RequestContext): Promise<string> {
    for (const progress of [0, 50, 100]) {
      await ctx.reportProgress(progress, 100);
      if (progress < 100) await sleep(50);
    }
    return 'Tool with progress executed successfully';
  }

  @Tool({ description: 'Asks the client to sample a completion' })
  async testSampling(@Description('The prompt to send') prompt: string, ctx: RequestContext): Promise<string> {
    const response = await ctx.createMessage({ messages: [{ role: 'user', content: text(prompt) }], maxTokens: 100 });
    return `LLM response: ${sampledText(response)}`;
  }

  @Tool({ description: 'Asks the user for a username and an email' })
  async testElicitation(@Description('The message to show') message: string, ctx: RequestContext): Promise<string> {
    const response = (await ctx.elicit({
      message,
      requestedSchema: {
        type: 'object',
        properties: {
          username: { type: 'string', description: "User's response" },
          email: { type: 'string', description: "User's email address" },
        },
        required: ['username', 'email'],
      },
    })) as { action: string; content?: unknown };
    return `User response: action=${response.action}, content=${JSON.stringify(response.content ?? {})}`;
  }

  @Tool({ description: 'Elicits with defaults (SEP-1034)' })
  async testElicitationSep1034Defaults(ctx: RequestContext): Promise<string> {
    const response = (await ctx.elicit({
      message: 'Please review the defaults',
      requestedSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', default: 'John Doe' },
          age: { type: 'integer', default: 30 },
          score: { type: 'number', default: 95.5 },
          status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
          verified: { type: 'boolean', default: true },
        },
      },
    })) as { action: string; content?: unknown };
    return `Elicitation completed: action=${response.action}, content=${JSON.stringify(response.content ?? {})}`;
  }

  @Tool({ description: 'Elicits with every enum form (SEP-1330)' })
  async testElicitationSep1330Enums(ctx: RequestContext): Promise<string> {
    const titled = (prefix: string) =>
      [1, 2, 3].map((i) => ({ const: `value${i}`, title: `${['First', 'Second', 'Third'][i - 1]} ${prefix}` }));
    const response = (await ctx.elicit({
      message: 'Pick options',
      requestedSchema: {
        type: 'object',
        properties: {
          untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
          titledSingle: { type: 'string', oneOf: titled('Option') },
          legacyEnum: { type: 'string', enum: ['opt1', 'opt2', 'opt3'], enumNames: ['Option One', 'Option Two', 'Option Three'] },
          untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
          titledMulti: { type: 'array', items: { anyOf: titled('Choice') } },
        },
      },
    })) as { action: string; content?: unknown };
    return `Elicitation completed: action=${response.action}, content=${JSON.stringify(response.content ?? {})}`;
  }

  @Tool({ description: 'Logs one message; 2026-07-28 delivers it only when the request asks for a log level' })
  async testLoggingTool(ctx: RequestContext): Promise<string> {
    await ctx.log('info', 'only delivered when the request carries a log level');
    return 'logged';
  }

  /**
   * Outlasts the endpoint's `sseCloseAfterMs` (main.ts): a 2025-11-25 client sees its stream closed after the
   * priming event, reconnects with `Last-Event-ID` and receives this result there (SSE polling, SEP-1699).
   */
  @Tool({ description: 'Runs past the SSE close, so the client resumes its stream to get the result' })
  async testReconnection(): Promise<string> {
    await sleep(RECONNECTION_MS);
    return 'Reconnection test completed successfully';
  }
}

/** The 2026-07-28 multi-round-trip scenarios (SEP-2322): `requireInput` ends a round, `inputResponse` reads the answers. */
export class InputRequiredTools {
  @Tool({ description: 'Needs sampling, which the client may not have declared' })
  testMissingCapability(ctx: RequestContext): string {
    if (ctx.inputResponse('s') === undefined) {
      ctx.requireInput({
        s: { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: text('hi') }], maxTokens: 10 } },
      });
    }
    return 'sampled';
  }

  @Tool({ description: 'Asks for confirmation through an input-required result' })
  testStreamingElicitation(ctx: RequestContext): string {
    if (!accepted(ctx.inputResponse('confirm'))) ctx.requireInput({ confirm });
    return 'confirmed';
  }

  @Tool({ description: 'Asks for a name' })
  testInputRequiredResultElicitation(ctx: RequestContext): string {
    const answer = accepted(ctx.inputResponse('user_name'));
    if (!answer) ctx.requireInput({ user_name: askName('What is your name?') });
    return `Hello, ${String(answer.name)}!`;
  }

  @Tool({ description: 'Asks the client to sample a completion' })
  testInputRequiredResultSampling(ctx: RequestContext): string {
    const answer = ctx.inputResponse('capital_question');
    if (answer === undefined) {
      ctx.requireInput({
        capital_question: {
          method: 'sampling/createMessage',
          params: { messages: [{ role: 'user', content: text('What is the capital of France?') }], maxTokens: 100 },
        },
      });
    }
    return `The model said: ${sampledText(answer)}`;
  }

  @Tool({ description: "Asks for the client's roots" })
  testInputRequiredResultListRoots(ctx: RequestContext): string {
    const answer = ctx.inputResponse('client_roots') as { roots?: { uri: string }[] } | undefined;
    if (!answer) ctx.requireInput({ client_roots: { method: 'roots/list', params: {} } });
    return `Roots: ${(answer.roots ?? []).map((r) => r.uri).join(', ')}`;
  }

  @Tool({ description: 'Round-trips a signed requestState' })
  testInputRequiredResultRequestState(ctx: RequestContext): string {
    const answer = accepted(ctx.inputResponse('confirm'));
    if (!answer || (ctx.requestState as { step?: string } | undefined)?.step !== 'confirm')
      ctx.requireInput({ confirm }, { step: 'confirm' });
    return 'state-ok: confirmed';
  }

  @Tool({ description: 'Asks for input of three kinds at once' })
  testInputRequiredResultMultipleInputs(ctx: RequestContext): string {
    const name = accepted(ctx.inputResponse('user_name'));
    const greeting = ctx.inputResponse('greeting');
    const roots = ctx.inputResponse('client_roots');
    if (!name || greeting === undefined || roots === undefined) {
      ctx.requireInput(
        {
          user_name: askName('What is your name?'),
          greeting: {
            method: 'sampling/createMessage',
            params: { messages: [{ role: 'user', content: text('Generate a greeting') }], maxTokens: 50 },
          },
          client_roots: { method: 'roots/list', params: {} },
        },
        { step: 'all' },
      );
    }
    return `${sampledText(greeting)} ${String(name.name)}`;
  }

  @Tool({ description: 'Asks in two rounds, carrying the first answer in requestState' })
  testInputRequiredResultMultiRound(ctx: RequestContext): string {
    const state = ctx.requestState as { name?: string } | undefined;
    const step1 = accepted(ctx.inputResponse('step1'));
    const step2 = accepted(ctx.inputResponse('step2'));
    if (state?.name !== undefined && step2) return `${state.name} likes ${String(step2.color)}`;
    if (step1) {
      ctx.requireInput(
        {
          step2: {
            method: 'elicitation/create',
            params: {
              message: 'Step 2: What is your favorite color?',
              requestedSchema: { type: 'object', properties: { color: { type: 'string' } }, required: ['color'] },
            },
          },
        },
        { name: String(step1.name) },
      );
    }
    return ctx.requireInput({ step1: askName('Step 1: What is your name?') }, { round: 1 });
  }

  @Tool({ description: 'Signs its requestState, so a tampered one is refused' })
  testInputRequiredResultTamperedState(ctx: RequestContext): string {
    if (!accepted(ctx.inputResponse('confirm'))) ctx.requireInput({ confirm }, { step: 'confirm' });
    return 'state-ok';
  }

  @Tool({ description: 'Asks only for what the client declared it can answer' })
  testInputRequiredResultCapabilities(ctx: RequestContext): string {
    const caps = ctx.clientCapabilities ?? {};
    const requests: Record<string, { method: string; params?: Record<string, unknown> }> = {};
    if (caps.sampling && ctx.inputResponse('sample') === undefined) {
      requests.sample = {
        method: 'sampling/createMessage',
        params: { messages: [{ role: 'user', content: text('Say hi') }], maxTokens: 10 },
      };
    }
    if (caps.elicitation && ctx.inputResponse('ask') === undefined) requests.ask = askName('What is your name?');
    if (Object.keys(requests).length > 0) ctx.requireInput(requests);
    return 'capabilities respected';
  }
}

/**
 * The tasks extension's fixtures (SEP-2663, 2026-07-28): tools that run as tasks when the client declared
 * `io.modelcontextprotocol/tasks`, ask for input while they run, or fail.
 */
export class TaskTools {
  @Tool({ description: 'Greets by name, at once (never a task)' })
  greet(@Description('Who to greet') name: string): string {
    return `Hello, ${name}!`;
  }

  @Tool({ description: 'Sleeps for the given seconds, then answers; runs as a task', task: 'optional' })
  async slowCompute(
    @Description('How long to work') seconds: number,
    @Description('A label echoed back') label: string = '',
    signal?: AbortSignal,
  ): Promise<string> {
    await sleepUnlessAborted(seconds * 1000, signal);
    return `Computed ${label} in ${seconds}s`;
  }

  @Tool({ description: 'Fails with a tool error after a second; only runs as a task', task: 'required' })
  async failingJob(): Promise<string> {
    await sleep(1000);
    throw new ToolError('The job failed, as it always does.');
  }

  @Tool({ description: 'Asks for input with a request that is no input request: its task fails with a protocol error', task: 'optional' })
  protocolErrorJob(ctx: RequestContext): string {
    return ctx.requireInput({ broken: { method: 'tools/list' } });
  }

  @Tool({ description: 'Asks for confirmation while it runs as a task, then deletes', task: 'optional' })
  confirmDelete(@Description('The file to delete') filename: string, ctx: RequestContext): string {
    if (!accepted(ctx.inputResponse('confirm')))
      ctx.requireInput({ confirm: { ...confirm, params: { ...confirm.params, message: `Delete ${filename}?` } } });
    return `Deleted ${filename}`;
  }

  @Tool({ description: 'Asks two questions at once while it runs as a task', task: 'optional' })
  multiInput(ctx: RequestContext): string {
    const first = accepted(ctx.inputResponse('first'));
    const second = accepted(ctx.inputResponse('second'));
    if (!first || !second) ctx.requireInput({ first: askName('First name?'), second: askName('Second name?') });
    return `Got ${String(first.name)} and ${String(second.name)}`;
  }

  @Tool({ description: 'Asks for a name by multi-round trip, then runs as a task', task: 'required', taskAfterInput: true })
  async testToolWithTask(ctx: RequestContext): Promise<string> {
    const answer = accepted(ctx.inputResponse('user_name'));
    if (!answer) ctx.requireInput({ user_name: askName('What is your name?') });
    await sleep(200);
    return `Hello, ${String(answer.name)}, from a task!`;
  }
}

export class ConformanceResources {
  @Resource('test://static-text', { description: 'A static text resource', mimeType: 'text/plain' })
  staticText(): string {
    return 'This is the content of the static text resource.';
  }

  @Resource('test://static-binary', { description: 'A static binary resource', mimeType: 'image/png' })
  staticBinary(): Uint8Array {
    return Buffer.from(PNG, 'base64');
  }

  @Resource('test://watched-resource', { description: 'A resource clients subscribe to', mimeType: 'text/plain' })
  watchedResource(): string {
    return 'Watched resource content.';
  }

  @Resource('test://template/{id}/data', { description: 'Data for an id', mimeType: 'application/json' })
  templateData(id: string): string {
    return JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` });
  }
}

export class ConformancePrompts {
  @Prompt({ description: 'A prompt without arguments' })
  testSimplePrompt(): string {
    return 'This is a simple prompt for testing.';
  }

  @Prompt({ description: 'A prompt with two arguments' })
  testPromptWithArguments(@Description('First test argument') arg1: string, @Description('Second test argument') arg2: string): string {
    return `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`;
  }

  @Prompt({ description: 'A prompt that embeds a resource' })
  testPromptWithEmbeddedResource(@Description('URI of the resource to embed') resourceUri: string): object[] {
    return [
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' },
        },
      },
      { role: 'user', content: text('Please process the embedded resource above.') },
    ];
  }

  @Prompt({ description: 'A prompt with an image' })
  testPromptWithImage(): object[] {
    return [
      { role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
      { role: 'user', content: text('Please analyze the image above.') },
    ];
  }

  @Prompt({ description: 'A prompt that first asks the user for context' })
  testInputRequiredResultPrompt(ctx: RequestContext): string {
    const answer = accepted(ctx.inputResponse('context'));
    if (!answer) {
      ctx.requireInput({
        context: {
          method: 'elicitation/create',
          params: {
            message: 'What context should the prompt use?',
            requestedSchema: { type: 'object', properties: { context: { type: 'string' } }, required: ['context'] },
          },
        },
      });
    }
    return `Use this context: ${String(answer.context)}`;
  }
}

/** A prompt that the change hook below shows and hides. */
export class ChangingPrompts {
  @Prompt({ description: 'Listed or not, as test_trigger_prompt_change last left it' })
  testChangingPrompt(): string {
    return 'This prompt comes and goes.';
  }
}

/**
 * The hooks with which the suite changes the catalog while it listens (`subscriptions/listen`, or a 2025
 * session): each call shows or hides one tool or prompt, so every call is a change the server announces.
 */
export class CatalogChangeTools {
  constructor(private readonly server: McpServer) {}

  @Tool({ description: 'Shows or hides the tool test_changing_tool (a tools list change)' })
  testTriggerToolChange(): string {
    return this.toggle('tool', 'test_changing_tool');
  }

  @Tool({ description: 'Shows or hides the prompt test_changing_prompt (a prompts list change)' })
  testTriggerPromptChange(): string {
    return this.toggle('prompt', 'test_changing_prompt');
  }

  private readonly hidden = new Set<string>();

  private toggle(kind: 'tool' | 'prompt', name: string): string {
    if (this.hidden.delete(name)) {
      this.server.enable(kind, name);
      return `${name} shown`;
    }
    this.hidden.add(name);
    this.server.disable(kind, name);
    return `${name} hidden`;
  }
}

/**
 * The json-schema-2020-12 scenario's tool: an input schema types cannot write ($defs with $anchor, $ref,
 * allOf/anyOf, if/then/else), given by hand; it is listed as given and arguments are validated against it.
 */
export const JSON_SCHEMA_2020_12 = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: { address: { $anchor: 'addressDef', type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
};

/** The conformance server: every class above on one `McpServer`. */
export function conformanceServer(): McpServer {
  const server = new McpServer({ name: 'onemodelcontext-conformance', version: '1.0.0' })
    .add(new ContentTools())
    .add(new ContextTools())
    .add(new InputRequiredTools())
    .add(new TaskTools())
    .add(new ConformanceResources())
    .add(new ConformancePrompts())
    .add(new ChangingPrompts())
    .tool(
      'test_changing_tool',
      { description: 'Listed or not, as test_trigger_tool_change last left it' },
      () => 'This tool comes and goes.',
    )
    .tool(
      'json_schema_2020_12_tool',
      { description: 'Tool with JSON Schema 2020-12 features', inputSchema: JSON_SCHEMA_2020_12 },
      (args) => `ok: ${JSON.stringify(args)}`,
    );
  return server.add(new CatalogChangeTools(server));
}
