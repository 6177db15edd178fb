/** Interceptors shipped with the library, for `server.use` (docs/serving.md, "Interceptors"). */
export { callerKey } from './caller';
export { rateLimit, MemoryRateLimitStore, type RateLimitOptions, type RateLimitStore, type RateLimitHit } from './rate-limit';
export { resultCache, argumentsKey, type ResultCacheOptions } from './result-cache';
export { auditLog, type AuditEntry } from './audit-log';
