import { UsageTypeError } from './errors';
import { isObjectLike } from './objects';
import { types } from 'node:util';

/**
 * The server's logger: what the `logger` option accepts, the default one (one line per event on stderr)
 * and the small facade the rest of the library writes through.
 */

/**
 * What the server reports, by name: `tool.failed` (a masked failure), `result.mismatch` (a result that
 * breaks its own output schema; a reader or writer that could not be built is a `tool.failed` too),
 * `tool.timeout`, `resource.failed`, `prompt.failed`, `request.failed` (a handler error answered -32603),
 * `transport.failed` (stdio, a connection), `http.failed` (an HTTP request answered 500), `auth.refused` (an
 * HTTP request refused 401 or 403 by `auth`), `auth.failed` (a token that could not be checked, answered 500)
 * `completion.failed` (a completion function that threw or returned something other than a list of strings),
 * `store.unavailable` (a shared store, such as Redis, failed or passed its time bound; logged once per outage, and
 * once when it is back), `issuer.unavailable` (the authorization server could not be reached; answered 503) and
 * `session.refused` (a caller past `maxSessionsPerCaller`; logged once a minute per caller) and `request.refused`
 * (a client's malformed request, answered 4xx; at debug, once a minute per kind, without a stack), `connection.refused`
 * (a remote address past `serveHttp({ maxConnectionsPerAddress })`; logged once per burst), `sdk.fallback`
 * (the installed MCP SDK lacks a private member the fast paths use; logged once per server, which then serves
 * through the SDK's public path) and `stdout.redirected` (over stdio, a write to stdout that was not the server's
 * went to stderr; logged for the first one only, naming its caller).
 */
export type LogEvent =
  | 'tool.failed'
  | 'result.mismatch'
  | 'result.inexact'
  | 'tool.timeout'
  | 'resource.failed'
  | 'prompt.failed'
  | 'request.failed'
  | 'transport.failed'
  | 'http.failed'
  | 'http.unauthenticated'
  | 'task.refused'
  | 'task.failed'
  | 'auth.refused'
  | 'auth.failed'
  | 'definition.warning'
  | 'completion.failed'
  | 'store.unavailable'
  | 'issuer.unavailable'
  | 'session.refused'
  | 'request.refused'
  | 'connection.refused'
  | 'sdk.fallback'
  | 'stdout.redirected';

/** The structured part of a log entry: the event's name and whatever of the request is known. */
export interface LogDetails {
  readonly event: LogEvent;
  readonly tool?: string;
  readonly resource?: string;
  readonly prompt?: string;
  readonly method?: string;
  /** The prompt argument or template variable a completion was asked for. */
  readonly argument?: string;
  readonly requestId?: string | number;
  readonly sessionId?: string;
  /** Where a result broke its output schema or held an inexact bigint, such as `items[2].qty`. */
  readonly path?: string;
  /** The error itself, with its stack and `cause` chain. */
  readonly error?: unknown;
}

/**
 * Anything with `error`, `warn`, `info` and `debug` taking a message and the entry's details: `console`,
 * winston, pino (which reads only the message unless adapted, see docs/observability.md), a wrapper around
 * Nest's `Logger`. Each entry's message is one line that already names the tool, request and error.
 * @example
 * const server = new McpServer({ name: 'weather', version: '1.0.0' }, { logger: console });
 */
export interface McpLogger {
  error(message: string, details?: LogDetails): void;
  warn(message: string, details?: LogDetails): void;
  info(message: string, details?: LogDetails): void;
  debug(message: string, details?: LogDetails): void;
}

type Level = keyof McpLogger;

const MAX_CAUSES = 8;

/** An `Error`, also one made in another realm (a `vm` context, Node's own `fetch` under a test runner). */
function isError(value: unknown): value is Error {
  return value instanceof Error || types.isNativeError(value);
}

function safely<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    return fallback;
  }
}

/** `TypeError: boom`, for any thrown value (a string, an object with a throwing getter ...). */
export function errorSummary(error: unknown): string {
  if (isError(error)) return safely(() => `${error.name}: ${error.message}`, 'Error');
  return safely(() => `${isObjectLike(error) ? 'Non-error object' : typeof error} thrown: ${String(error)}`, 'a value was thrown');
}

/** The error and its causes, outermost first, stopping at a cycle or after a few. */
export function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = error;
  while (current !== undefined && chain.length <= MAX_CAUSES && !chain.includes(current)) {
    chain.push(current);
    current = isError(current) ? safely(() => (isError(current) ? current.cause : undefined), undefined) : undefined;
  }
  return chain;
}

/**
 * The stack of an error and of each of its causes, Node-style (`Caused by:` before each cause), for a logger
 * adapter that takes a stack string (Nest's `Logger.error(message, stack)`); any thrown value is described.
 * @example
 * const logger: McpLogger = { ...console, error: (message, details) => console.error(message, details && stackOf(details.error)) };
 */
export function stackOf(error: unknown): string {
  return causeChain(error)
    .map(
      (e, i) =>
        `${i === 0 ? '' : 'Caused by: '}${isError(e) ? safely(() => relativePaths(e.stack ?? errorSummary(e)), errorSummary(e)) : errorSummary(e)}`,
    )
    .join('\n');
}

/**
 * Control characters escaped as `\uXXXX`: C0, DEL, C1 (U+0085, NEXT LINE, passes Node's header check in a
 * latin1 header such as `Mcp-Session-Id`) and the Unicode line and paragraph separators. A client's value in a
 * log line (a session or request id, a name in an error) can then neither break the line nor forge another.
 */
export function printable(text: string): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Stack paths relative to the working directory: shorter, and the log does not show where the server is installed. */
function relativePaths(stack: string): string {
  const cwd = process.cwd();
  return stack.split(`file://${cwd}/`).join('').split(`${cwd}/`).join('');
}

function contextOf(details: LogDetails): string {
  const parts: string[] = [];
  if (details.requestId !== undefined) parts.push(`request ${JSON.stringify(details.requestId)}`);
  if (details.sessionId !== undefined) parts.push(`session ${JSON.stringify(details.sessionId)}`);
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

/** The one-line message of an entry: what happened, the request, the error and its causes, control characters escaped. */
export function messageOf(text: string, details: LogDetails): string {
  const error = 'error' in details ? `: ${causeChain(details.error).map(errorSummary).join(' <- caused by ')}` : '';
  return printable(`${text}${contextOf(details)}${error}`);
}

/**
 * The default logger: one line per entry on stderr (stdout may carry the protocol), the stack and causes
 * JSON-escaped at its end so that the entry stays on one line.
 */
export const stderrLogger: McpLogger = {
  error: (message, details) => writeLine('ERROR', message, details),
  warn: (message, details) => writeLine('WARN', message, details),
  info: (message, details) => writeLine('INFO', message, details),
  debug: (message, details) => writeLine('DEBUG', message, details),
};

function writeLine(level: string, message: string, details: LogDetails | undefined): void {
  const event = details ? ` ${details.event}` : '';
  const stack = details && 'error' in details ? ` stack=${JSON.stringify(stackOf(details.error))}` : '';
  process.stderr.write(`${new Date().toISOString()} ${level} onemodelcontext${event}: ${message}${stack}\n`);
}

/**
 * The facade the library logs through: formats the message once and never lets a throwing logger break
 * a request. `Log.silent` drops everything.
 */
export class Log {
  static readonly silent = new Log(undefined);

  /** Errors already written: a transport error reaches both the transport's and the server's handler. */
  private readonly written = new WeakSet<object>();

  private constructor(private readonly sink: McpLogger | undefined) {}

  /** Reports an error of a connection or transport (the SDK's `onerror` callbacks). */
  readonly transportFailure = (error: Error): void => {
    this.warn('MCP transport or connection error', { event: 'transport.failed', error });
  };

  /** The log of a `logger` option: `undefined` means stderr, `false` means nothing. */
  static of(logger: McpLogger | false | undefined): Log {
    if (logger === false) return Log.silent;
    if (logger === undefined) return new Log(stderrLogger);
    for (const level of ['error', 'warn', 'info', 'debug'] as const) {
      if (typeof (logger as Partial<McpLogger>)?.[level] !== 'function') {
        throw new UsageTypeError(
          `The logger option needs error, warn, info and debug methods (console, pino, winston ...); '${level}' is missing. Pass false to log nothing.`,
        );
      }
    }
    return new Log(logger);
  }

  get enabled(): boolean {
    return this.sink !== undefined;
  }

  error(text: string, details: LogDetails): void {
    this.write('error', text, details);
  }

  warn(text: string, details: LogDetails): void {
    this.write('warn', text, details);
  }

  info(text: string, details: LogDetails): void {
    this.write('info', text, details);
  }

  debug(text: string, details: LogDetails): void {
    this.write('debug', text, details);
  }

  private write(level: Level, text: string, details: LogDetails): void {
    const sink = this.sink;
    if (!sink) return;
    const error = details.error;
    if (isObjectLike(error)) {
      if (this.written.has(error)) return;
      this.written.add(error);
    }
    const message = messageOf(text, details);
    try {
      sink[level](message, details);
    } catch (failure) {
      // The entry must not be lost, and a logger's own bug must not fail the request it reports on.
      stderrLogger.error(`The logger threw while logging: ${message}`, { ...details, error: failure });
    }
  }
}
