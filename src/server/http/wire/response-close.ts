import type { ServerResponse } from 'node:http';

/**
 * What hears a response's `close`, through one Node listener per response: a response of a call in progress has two
 * (the drain's count, entry/lifecycle.ts, and a legacy post's, legacy/legacy-posts.ts), and a second listener of an event costs
 * Node a list of listeners to make, copy and walk on every response. The closers are kept on the response itself,
 * in two slots, and called in the order they came, as Node would call their listeners.
 */
export interface ClosesWith {
  responseClosed(): void;
}

const FIRST = Symbol('first closer');
const SECOND = Symbol('second closer');

/** A response with its closers: `undefined` for a slot never taken, `null` for one given back. */
type WithClosers = ServerResponse & { [FIRST]?: ClosesWith | null; [SECOND]?: ClosesWith | null };

/** The one listener, shared by every response (Node calls it with the response as `this`). */
function closed(this: WithClosers): void {
  this[FIRST]?.responseClosed();
  this[SECOND]?.responseClosed();
}

/** Calls `closer.responseClosed()` when `res` closes. */
export function whenClosed(res: ServerResponse, closer: ClosesWith): void {
  const slots = res as WithClosers;
  if (slots[FIRST] === undefined) {
    slots[FIRST] = closer;
    res.on('close', closed);
  } else if (slots[SECOND] === undefined) {
    slots[SECOND] = closer;
  } else {
    res.on('close', () => closer.responseClosed());
  }
}

/** Takes back {@link whenClosed} of a closer kept in a slot (the only ones ever taken back). */
export function notWhenClosed(res: ServerResponse, closer: ClosesWith): void {
  const slots = res as WithClosers;
  if (slots[FIRST] === closer) slots[FIRST] = null;
  else if (slots[SECOND] === closer) slots[SECOND] = null;
}
