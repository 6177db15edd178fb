import type {
  AuthInfo,
  CreateMessageParams,
  ElicitParams,
  HttpRequestInfo,
  LogLevel,
  RequestContextInit,
} from '../../invoke/request/request-context';
import type { SignalSource } from './lazy-abort';

type Json = Readonly<Record<string, unknown>>;

/** Where a request's progress and log notifications go: its handler context's `mcpReq`, or the stdio loop's wire. */
export interface ContextChannel {
  notify(notification: { method: string; params: object }): Promise<void>;
  /** A `notifications/message`, unless the client's threshold is above `level`. */
  log(level: LogLevel, data: unknown, logger?: string): Promise<void>;
}

/** Sampling and elicitation for one request, when the client offers them; else why not. */
export interface ContextRequests {
  readonly createMessage?: (params: CreateMessageParams) => Promise<unknown>;
  readonly elicit?: (params: ElicitParams) => Promise<unknown>;
  readonly unavailable: string;
}

/** Why a 2025-era request has no sampling nor elicitation: the client did not declare them. */
export const UNDECLARED: ContextRequests = { unavailable: 'the client did not declare the capability.' };

/**
 * The `RequestContextInit` of one request (protocol/server.ts's `contextInitOf`, the stdio loop's calls.ts): a class
 * whose `signal` getter, `reportProgress` and `log` live on the prototype, so a request makes one object rather than
 * a literal and a closure per function. `signal` is read from `signalFrom` when the tool first reads it (the hot path
 * makes it only then, lazy-abort.ts); `reportProgress` does nothing without a progress token, as an absent one did.
 */
export class ContextInit implements RequestContextInit {
  readonly createMessage: ContextRequests['createMessage'];
  readonly elicit: ContextRequests['elicit'];
  readonly unavailable: string;

  constructor(
    readonly signalFrom: SignalSource,
    private readonly channel: ContextChannel,
    readonly requestId: string | number,
    readonly sessionId: string | undefined,
    readonly protocolVersion: string | undefined,
    readonly clientInfo: RequestContextInit['clientInfo'],
    readonly clientCapabilities: Json | undefined,
    readonly meta: Json | undefined,
    requests: ContextRequests,
    readonly inputResponses: Json | undefined,
    readonly requestState: unknown,
    readonly auth: AuthInfo | undefined,
    /** The HTTP request, over HTTP (protocol/incoming.ts). */
    readonly http?: HttpRequestInfo,
  ) {
    this.createMessage = requests.createMessage;
    this.elicit = requests.elicit;
    this.unavailable = requests.unavailable;
  }

  get signal(): AbortSignal {
    return this.signalFrom.signal;
  }

  reportProgress(progress: number, total?: number, message?: string): Promise<void> | undefined {
    const token = this.meta?.progressToken as string | number | undefined;
    if (token === undefined) return undefined;
    return this.channel.notify({ method: 'notifications/progress', params: { progressToken: token, progress, total, message } });
  }

  log(level: LogLevel, data: unknown, logger?: string): Promise<void> {
    return this.channel.log(level, data, logger);
  }
}
