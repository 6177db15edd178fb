/**
 * Where every copy of `@opentelemetry/api` 1.x keeps what an application registered (providers, the context
 * manager, the propagator): `Symbol.for('opentelemetry.js.api.1')` on the global object, set by the first
 * registration. While it is unset, the API would hand out no-op providers and the root context, so there is
 * nothing to trace or measure: no reason to load the API (~40 ms and 44 modules at start-up), and none for a
 * request to take a telemetry step at all. It sits in the ground because the hot dispatch (protocol/) asks it
 * before it asks telemetry/ anything, and telemetry/ asks it before it loads the API.
 */
const OTEL_REGISTRY = Symbol.for('opentelemetry.js.api.1');

/** Whether anything has registered with OpenTelemetry in this process (it can happen at any time, so ask each time). */
export function otelRegistered(): boolean {
  return (globalThis as Record<symbol, unknown>)[OTEL_REGISTRY] !== undefined;
}
