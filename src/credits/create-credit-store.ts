import type { Redis } from 'ioredis'
import type { Clock } from '../lib/clock.ts'
import type { CreditFailureMode, CreditStore, StoreLogger } from './credit-store.ts'
import { MemoryCreditStore } from './memory-credit-store.ts'
import { RedisCreditStore } from './redis-credit-store.ts'

export interface CreditStoreOptions {
  /** Set when REDIS_URL is: counters shared by every process. Absent: in-process counters. */
  redis?: Redis
  clock?: Clock
  failureMode?: CreditFailureMode
  logger?: StoreLogger
  /** Prefix of the Redis keys; tests use a unique one per run. */
  keyPrefix?: string
}

/** The store configuration selects (docs/configuration.md): Redis when a connection is given, else in-process. */
export function createCreditStore (options: CreditStoreOptions = {}): CreditStore {
  if (options.redis === undefined) return new MemoryCreditStore(options.clock)
  return new RedisCreditStore({ redis: options.redis, clock: options.clock, failureMode: options.failureMode, logger: options.logger, keyPrefix: options.keyPrefix })
}
