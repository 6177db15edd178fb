import { LazyAbort } from '../../../src/server/protocol/lazy-abort';

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
});
