import type { IncomingMessage, ServerResponse } from 'node:http';
import { isObjectLike } from '../../../objects';
import { whenClosed, type ClosesWith } from '../wire/response-close';
import type { HealthOptions } from '../guards/options';

/**
 * What a rolling deploy needs from one instance: count the calls in progress, refuse new work while
 * draining (503, so the load balancer retries it on another instance) and wait for the calls in progress,
 * up to a deadline, before the sessions are closed.
 */

type Message = { readonly method?: unknown; readonly id?: unknown };

function messagesOf(body: unknown): readonly Message[] {
  const all = Array.isArray(body) ? body : [body];
  return all.filter((m): m is Message => isObjectLike(m));
}

/** A JSON-RPC request (method and id), as opposed to a notification or a response. */
const isRequest = (m: Message) => typeof m.method === 'string' && m.id !== undefined;

/**
 * Open-ended exchanges: a GET stream (2025 era) or a `subscriptions/listen` POST (2026-07-28) stays open
 * until the client leaves, so waiting for it would always run the drain to its deadline.
 */
function isStream(req: IncomingMessage, body: unknown): boolean {
  // Asked of every request: a lone message is looked at without building a list.
  return req.method === 'GET' || (Array.isArray(body) ? body.some(isListen) : isListen(body));
}

const isListen = (m: unknown) => isObjectLike(m) && (m as Message).method === 'subscriptions/listen';

/** The calls in progress on one HTTP endpoint. */
export class CallsInProgress implements ClosesWith {
  private calls = 0;
  private draining = false;
  private readonly waiting = new Set<() => void>();

  /**
   * While draining, a new request is refused; what only serves work already in progress is let through:
   * a client's answer to a server-to-client request (sampling, elicitation), a cancellation, a DELETE.
   */
  refuses(req: IncomingMessage, body: unknown): boolean {
    if (!this.draining) return false;
    if (req.method === 'DELETE') return false;
    if (req.method !== 'POST') return true;
    return messagesOf(body).some(isRequest);
  }

  /** Counts the exchange as a call in progress until its response is finished or torn down. */
  track(req: IncomingMessage, res: ServerResponse, body: unknown): void {
    if (isStream(req, body)) return;
    this.calls++;
    // The response's one `close` listener (wire/response-close.ts), which a legacy post shares.
    whenClosed(res, this);
  }

  /** A tracked exchange's response closed. */
  responseClosed(): void {
    this.calls--;
    if (this.calls === 0) for (const wake of this.waiting) wake();
  }

  /** Refuses new work from now on; resolves with `true` when no call is in progress, `false` at the deadline. */
  async drain(deadlineMs: number): Promise<boolean> {
    this.draining = true;
    if (this.calls === 0) return true;
    let timer: NodeJS.Timeout | undefined;
    let wake: (() => void) | undefined;
    const idle = new Promise<boolean>((resolve) => {
      wake = () => resolve(true);
      this.waiting.add(wake);
    });
    const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), deadlineMs)));
    try {
      return await Promise.race([idle, late]);
    } finally {
      clearTimeout(timer);
      this.waiting.delete(wake!);
    }
  }
}

const JSON_HEADERS = { 'content-type': 'application/json', 'cache-control': 'no-store' };

async function readiness(draining: boolean, check: HealthOptions['ready']): Promise<string> {
  if (draining) return 'draining';
  if (!check) return 'ready';
  try {
    return (await check()) ? 'ready' : 'not ready';
  } catch {
    return 'not ready';
  }
}

/**
 * The health endpoints in front of the MCP endpoint; `undefined` when the request is not one of them.
 * Bodies are a fixed status word: nothing about the failure reaches a prober.
 */
export function healthResponder(options: HealthOptions, isDraining: () => boolean) {
  const live = options.livePath ?? '/livez';
  const ready = options.readyPath ?? '/readyz';
  return async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path === live) {
      res.writeHead(200, JSON_HEADERS).end(JSON.stringify({ status: 'live' }));
      return true;
    }
    if (path !== ready) return false;
    const status = await readiness(isDraining(), options.ready);
    res.writeHead(status === 'ready' ? 200 : 503, JSON_HEADERS).end(JSON.stringify({ status }));
    return true;
  };
}
