import { ConsoleLogger, Logger, type ConsoleLoggerOptions, type LoggerService, type LogLevel } from '@nestjs/common';
import { stackOf, type LogDetails, type McpLogger } from '../index';
import { StderrLogger } from './stderr-logger';

/** The context the server's lines carry in Nest's log. */
const CONTEXT = 'McpServer';

/**
 * The application's logger as Nest's static `Logger` reaches it: what `NestFactory.create(..., { logger })`
 * or `app.useLogger()` set, Nest's default `ConsoleLogger` otherwise, `undefined` with `logger: false`.
 * Nest keeps it in a static field it has no getter for (the same in Nest 11 and 12).
 */
function applicationLogger(): LoggerService | undefined {
  return (Logger as unknown as { staticInstanceRef?: LoggerService }).staticInstanceRef;
}

/** Nest's own `ConsoleLogger`, as it is, writes `log`, `warn` and `debug` lines to stdout. */
function writesToStdout(logger: LoggerService | undefined): logger is ConsoleLogger {
  return logger instanceof ConsoleLogger && logger.constructor === ConsoleLogger;
}

/**
 * Over stdio, Nest's own lines (start-up, providers' `Logger`) kept off stdout: while the application's logger
 * is Nest's default `ConsoleLogger`, it is replaced with a `StderrLogger` of the same options (prefix, levels,
 * colors, JSON ...). A logger the application chose (`NestFactory.create(..., { logger })`, `useLogger`) is its own.
 */
export function nestLogsToStderr(): void {
  const application = applicationLogger();
  if (!writesToStdout(application)) return;
  const options = (application as unknown as { readonly options?: ConsoleLoggerOptions }).options;
  Logger.overrideLogger(new StderrLogger({ ...options }));
}

/**
 * The server's logger option written through a Nest logger: `error` with the stack and causes as Nest's
 * `stack` argument, `warn`, `info` as `log`, and `debug`, each with the context `McpServer`. `McpModule` uses
 * one over the application's logger by default, so masked failures appear in the application's log. Over
 * stdio it never writes to stdout, which carries the protocol: while the application logs with Nest's
 * default `ConsoleLogger` (which writes to stdout), the server's lines go to stderr in the same format.
 * @example
 * McpModule.forRoot({ name: 'docket', version: '1.0.0', logger: new NestMcpLogger(new Logger('Docket')) })
 */
export class NestMcpLogger implements McpLogger {
  private readonly logger: LoggerService;
  private readonly fallback: StderrLogger | undefined;

  /**
   * @param logger where to write, as it is; default: the application's logger, through `new Logger('McpServer')`.
   * @param options.stdio the server speaks over this process's stdout: keep the application's logger off it
   *   while that is Nest's default console logger.
   */
  constructor(logger?: LoggerService, options: { readonly stdio?: boolean } = {}) {
    this.logger = logger ?? new Logger(CONTEXT);
    this.fallback = logger === undefined && options.stdio ? new StderrLogger(CONTEXT) : undefined;
  }

  error(message: string, details?: LogDetails): void {
    const stack = details && 'error' in details ? stackOf(details.error) : undefined;
    const target = this.target('error');
    if (target) target.error(message, stack);
  }

  warn(message: string): void {
    this.target('warn')?.warn(message);
  }

  info(message: string): void {
    this.target('log')?.log(message);
  }

  debug(message: string): void {
    this.target('debug')?.debug?.(message);
  }

  /**
   * Where a line goes now: the application's logger can change after the module is built (`useLogger`,
   * a testing module's `createNestApplication`). Over stdio, Nest's default console logger is replaced
   * by the stderr one, keeping its level filter.
   */
  private target(level: LogLevel): LoggerService | undefined {
    if (!this.fallback) return this.logger;
    const application = applicationLogger();
    if (!writesToStdout(application)) return this.logger;
    return application.isLevelEnabled(level) ? this.fallback : undefined;
  }
}
