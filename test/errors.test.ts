import {
  Field,
  InMemoryEventStore,
  McpServer,
  OneModelContextError,
  Range,
  RequestContext,
  SourceClass,
  StoreError,
  Tool,
  ToolError,
  UsageError,
  UsageRangeError,
  UsageTypeError,
} from '../src/index';

/** What a caller tells apart by `code` (or `instanceof`): the library's own errors, each with its named code. */
function codeOf(error: unknown): { readonly name: string; readonly code: string; readonly ours: boolean } {
  const e = error as { name: string; code: string };
  return { name: e.name, code: e.code, ours: error instanceof OneModelContextError };
}

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

describe('the error family', () => {
  it('a call the library cannot honour is a UsageError (USAGE_INVALID), its message unchanged', () => {
    let thrown: unknown;
    try {
      SourceClass('NoSuchClassAnywhere');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UsageError);
    expect(codeOf(thrown)).toEqual({ name: 'UsageError', code: 'USAGE_INVALID', ours: true });
    expect((thrown as Error).message).toBe(
      'the class NoSuchClassAnywhere is not exported and has no decorator of onemodelcontext (@Field, @Param, @Tool ...), so the facts module cannot find it; export it, or decorate one of its properties with @Field()',
    );
  });

  it('a store answer the server cannot use is a StoreError (STORE_FAILED), its message unchanged', async () => {
    const store = new InMemoryEventStore();
    const thrown = await rejectionOf(store.replayEventsAfter('unknown-stream_1', { send: async () => undefined }));
    expect(thrown).toBeInstanceOf(StoreError);
    expect(codeOf(thrown)).toEqual({ name: 'StoreError', code: 'STORE_FAILED', ours: true });
    expect((thrown as Error).message).toBe('Unknown or expired Last-Event-ID.');
  });
});

/** What `fn` throws, for the assertions below (it must throw). */
function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

class Floor {
  @Field() @Range(1, 9) floor!: number;
}

describe('a misuse the docs promise as a TypeError or RangeError is also ours', () => {
  it.each([
    [
      'a decorator factory used bare',
      // `@Tool` without parentheses: the decorator itself is handed the prototype and the method's name.
      () => (Tool as (...args: unknown[]) => unknown)({}, 'm'),
      '@Tool is a decorator factory. Did you forget to call it? Use @Tool() instead of @Tool.',
    ],
    [
      'a server option of the wrong kind',
      () => new McpServer({ name: 's', version: '1' }, { catalog: 'find' as never }),
      `new McpServer(info, { catalog }) takes 'all' or 'search'; got "find".`,
    ],
    [
      'a server built without its info',
      () => new McpServer(undefined as never),
      `new McpServer() needs { name, version }, for example new McpServer({ name: 'weather', version: '1.0.0' }).`,
    ],
  ])('%s: a TypeError named TypeError, a UsageError with code USAGE_INVALID', (_what, fn, message) => {
    const thrown = thrownBy(fn);
    expect(thrown).toBeInstanceOf(TypeError);
    expect(thrown).toBeInstanceOf(UsageTypeError);
    expect(thrown).toBeInstanceOf(OneModelContextError);
    expect(thrown).toBeInstanceOf(UsageError);
    expect(thrown).not.toBeInstanceOf(StoreError);
    expect(thrown).not.toBeInstanceOf(ToolError);
    expect(codeOf(thrown)).toEqual({ name: 'TypeError', code: 'USAGE_INVALID', ours: true });
    expect((thrown as Error).message).toBe(message);
  });

  it('a request-state secret too short: a RangeError named RangeError, a UsageError with code USAGE_INVALID', () => {
    const thrown = thrownBy(() => new McpServer({ name: 's', version: '1' }, { requestStateSecret: 'too short' }));
    expect(thrown).toBeInstanceOf(RangeError);
    expect(thrown).toBeInstanceOf(UsageRangeError);
    expect(thrown).toBeInstanceOf(UsageError);
    expect(codeOf(thrown)).toEqual({ name: 'RangeError', code: 'USAGE_INVALID', ours: true });
    expect((thrown as Error).message).toBe(
      'requestStateSecret must be a string or Uint8Array of at least 32 bytes (this one has 9); every instance behind one load balancer needs the same one, for example 64 hex characters from `openssl rand -hex 32`.',
    );
  });

  it('an elicitation answer that does not fit its form: a TypeError of ours with code ANSWER_MISMATCH, not a UsageError', async () => {
    const ctx = new RequestContext({ elicit: async () => ({ action: 'accept', content: { floor: 12 } }) });
    const thrown = await rejectionOf(ctx.elicit('Which floor?', Floor));
    expect(thrown).toBeInstanceOf(TypeError);
    expect(thrown).toBeInstanceOf(OneModelContextError);
    expect(thrown).not.toBeInstanceOf(UsageError);
    expect(codeOf(thrown)).toEqual({ name: 'TypeError', code: 'ANSWER_MISMATCH', ours: true });
    expect((thrown as Error).message).toBe(
      "The elicitation answer does not fit Floor: 'floor' is not valid. Expected a number from 1 to 9, such as 1.",
    );
  });

  it('a TypeError of anyone else is not ours, and our own classes keep their plain instanceof', () => {
    expect(new TypeError('x')).not.toBeInstanceOf(OneModelContextError);
    expect(new RangeError('x')).not.toBeInstanceOf(UsageError);
    expect(new ToolError('x')).toBeInstanceOf(OneModelContextError);
    expect(new ToolError('x')).not.toBeInstanceOf(UsageError);
    expect(new UsageError('x')).not.toBeInstanceOf(TypeError);
    expect(new StoreError('x')).not.toBeInstanceOf(UsageError);
  });
});
