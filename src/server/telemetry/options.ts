/**
 * Options of the `telemetry` server option. Kept apart from the instrumentation so that the public
 * declarations never name `@opentelemetry/api`, which is an optional peer dependency.
 * @example
 * const server = new McpServer({ name: 'weather', version: '1.0.0' }, { telemetry: { recordArguments: true } });
 */
export interface TelemetryOptions {
  /**
   * Record tool arguments on the span as `gen_ai.tool.call.arguments` (JSON). Off by default: arguments
   * may carry personal data or secrets.
   */
  readonly recordArguments?: boolean;
}
