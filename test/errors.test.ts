import { InMemoryEventStore, OneModelContextError, SourceClass, StoreError, UsageError } from '../src/index';

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
