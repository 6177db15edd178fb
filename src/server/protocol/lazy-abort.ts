/**
 * An abort controller whose `AbortSignal` is made only when something asks for it. Most requests are never
 * cancelled and their handler never reads the signal, while a Node `AbortSignal` (an `EventTarget`) costs several
 * microseconds to make and more to collect: on the hot path it was the largest single cost of a `tools/call` above
 * the floor. A signal asked for after the abort is made aborted, with the same reason.
 */
export class LazyAbort {
  private controller: AbortController | undefined;
  private reason: unknown;
  private done = false;

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.done) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  get aborted(): boolean {
    return this.done;
  }

  abort(reason?: unknown): void {
    if (this.done) return;
    this.done = true;
    this.reason = reason;
    this.controller?.abort(reason);
  }
}

/** What a lazy `signal` is read from: a {@link LazyAbort}, or a context whose own `signal` is lazy. */
export interface SignalSource {
  readonly signal: AbortSignal;
}
