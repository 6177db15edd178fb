/**
 * `onemodelcontext/redis`: the stores several instances of one server share through Redis (`ioredis`, an
 * optional peer dependency): the event bus (list changes, resource updates), the SSE event store
 * (`Last-Event-ID` resumption), the task store (tasks polled and cancelled through any instance) and, through {@link connectRedis}, all of them at once. See docs/scaling.md.
 */
export { connectRedis, type RedisStores, type RedisStoresOptions } from './stores';
export { RedisEventBus, type RedisEventBusOptions } from './event-bus';
export { RedisEventStore, type RedisEventStoreOptions } from './event-store';
export { RedisTaskStore, type RedisTaskStoreOptions } from './task-store';
export { RedisUnavailableError, type RedisLogger } from './connect';
export { RedisRateLimitStore, type RedisRateLimitStoreOptions } from './rate-limit-store';
