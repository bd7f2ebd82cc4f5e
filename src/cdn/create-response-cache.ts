import type { Redis } from 'ioredis'
import type { Clock } from '../lib/clock.ts'
import { MemoryResponseCache } from './memory-response-cache.ts'
import { RedisResponseCache, type CacheLogger } from './redis-response-cache.ts'
import { GuardedResponseCache } from './guarded-cache.ts'

export interface ResponseCacheOptions {
  /** CDN_TTL_SECONDS. */
  ttlSeconds: number
  /** CDN_CACHE_BYTES: the in-process bound (the Redis cache is bounded by Redis' own maxmemory policy). */
  maxBytes: number
  /** Set when REDIS_URL is: one cache shared by every cdn process. */
  redis?: Redis
  clock?: Clock
  logger?: CacheLogger
  /** Prefix of the Redis keys; tests use a unique one per run. */
  keyPrefix?: string
}

/**
 * The cache configuration selects (docs/configuration.md): Redis when a connection is given, else
 * in-process; guarded by the invalidation bus (it serves only while the bus is up).
 */
export function createResponseCache (options: ResponseCacheOptions): GuardedResponseCache {
  if (options.redis === undefined) {
    return new GuardedResponseCache(new MemoryResponseCache({ ttlSeconds: options.ttlSeconds, maxBytes: options.maxBytes, clock: options.clock }))
  }
  return new GuardedResponseCache(new RedisResponseCache({ redis: options.redis, ttlSeconds: options.ttlSeconds, clock: options.clock, logger: options.logger, keyPrefix: options.keyPrefix }))
}
