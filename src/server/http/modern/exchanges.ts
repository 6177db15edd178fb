/**
 * Marks a transport whose requests are independent HTTP exchanges (the 2026-07-28 pool of `modern.ts`):
 * telemetry records no session for it. Its own module so that telemetry, loaded on stdio too, does not load the
 * HTTP pool's.
 */
export const PER_REQUEST_EXCHANGES = Symbol('per-request exchanges');
