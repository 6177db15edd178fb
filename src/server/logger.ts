/**
 * Where the server reports what a developer must see but a client must not: definition-time warnings
 * (DESIGN.md section 11). Anything with these four methods fits: `console`, pino, winston, Nest's Logger.
 * @example
 * const server = new McpServer({ name: 'weather', version: '1.0.0' }, { logger: console });
 */
export interface McpLogger {
  error(message: string, ...meta: unknown[]): void;
  warn(message: string, ...meta: unknown[]): void;
  info(message: string, ...meta: unknown[]): void;
  debug(message: string, ...meta: unknown[]): void;
}

/** One line per event on stderr: stdout may carry the protocol (stdio). */
const stderrLogger: McpLogger = {
  error: (message) => void process.stderr.write(`[onemodelcontext] error: ${message}\n`),
  warn: (message) => void process.stderr.write(`[onemodelcontext] warn: ${message}\n`),
  info: (message) => void process.stderr.write(`[onemodelcontext] info: ${message}\n`),
  debug: () => undefined,
};

const silent: McpLogger = { error: () => undefined, warn: () => undefined, info: () => undefined, debug: () => undefined };

/** The logger an option asks for: stderr by default, nothing for `false`. */
export function loggerOf(option: McpLogger | false | undefined): McpLogger {
  if (option === false) return silent;
  return option ?? stderrLogger;
}
