import { ConsoleLogger, type LogLevel } from '@nestjs/common';

/**
 * Nest's console logger with every line on stderr: over stdio, stdout carries only protocol messages,
 * and one log line there corrupts the stream.
 * @example
 * const app = await NestFactory.createApplicationContext(AppModule, { logger: new StderrLogger() });
 */
export class StderrLogger extends ConsoleLogger {
  protected override printMessages(
    messages: unknown[],
    context?: string,
    logLevel?: LogLevel,
    _writeStreamType?: 'stdout' | 'stderr',
    errorStack?: unknown,
    ...rest: unknown[]
  ): void {
    // Nest 12 passes one more argument (the entry's extra fields); it is handed on as it came.
    const print = super.printMessages as (this: ConsoleLogger, ...args: unknown[]) => void;
    print.call(this, messages, context, logLevel, 'stderr', errorStack, ...rest);
  }
}
