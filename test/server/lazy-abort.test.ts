import { LazyAbort, SIGNAL_FROM } from '../../src/server/protocol/lazy-abort';
import { RequestContext, type RequestContextInit } from '../../src/request-context';

/**
 * Issue 27: the hot path makes a request's `AbortSignal` only when something reads it. Whenever it is read, it
 * must say what an `AbortController`'s signal would say at that moment.
 */
describe('LazyAbort', () => {
  it('gives a signal read before the abort that fires once, with the reason', () => {
    const abort = new LazyAbort();
    const signal = abort.signal;
    const reasons: unknown[] = [];
    signal.addEventListener('abort', () => reasons.push(signal.reason));
    expect(signal.aborted).toBe(false);
    abort.abort('gone');
    abort.abort('again');
    expect([abort.aborted, signal.aborted, reasons]).toEqual([true, true, ['gone']]);
    expect(abort.signal).toBe(signal);
  });

  it('gives a signal first read after the abort already aborted, with the same reason', () => {
    const abort = new LazyAbort();
    const reason = new Error('cancelled');
    abort.abort(reason);
    expect(abort.aborted).toBe(true);
    expect(abort.signal.aborted).toBe(true);
    expect(abort.signal.reason).toBe(reason);
  });

  it("gives an abort without a reason the AbortController's default reason", () => {
    const abort = new LazyAbort();
    abort.abort();
    const plain = new AbortController();
    plain.abort();
    expect((abort.signal.reason as DOMException).name).toBe((plain.signal.reason as DOMException).name);
    expect((abort.signal.reason as DOMException).name).toBe('AbortError');
  });

  it('is not aborted until aborted', () => {
    const abort = new LazyAbort();
    expect(abort.aborted).toBe(false);
    expect(abort.signal.aborted).toBe(false);
  });

  it("gives a tool's RequestContext the request's signal through SIGNAL_FROM, made only when the tool reads it", () => {
    const abort = new LazyAbort();
    const made: AbortSignal[] = [];
    const source = {
      get signal() {
        made.push(abort.signal);
        return abort.signal;
      },
    };
    const context = new RequestContext({ __proto__: SIGNAL_FROM, signalFrom: source, requestId: 1 } as RequestContextInit);
    expect([context.requestId, made.length]).toEqual([1, 0]);
    abort.abort('cancelled');
    expect(context.signal.aborted).toBe(true);
    expect(context.signal.reason).toBe('cancelled');
    expect(context.signal).toBe(context.signal);
    expect(made.length).toBe(1);
  });
});
