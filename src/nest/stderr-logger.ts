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
  ): void {
    super.printMessages(messages, context, logLevel, 'stderr', errorStack);
  }
}
