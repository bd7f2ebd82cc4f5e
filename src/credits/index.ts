import type { Redis } from 'ioredis'
import type { Clock } from '../lib/clock.ts'
import type { CreditFailureMode, CreditStore, StoreLogger } from './credit-store.ts'
import { MemoryCreditStore } from './memory-credit-store.ts'
import { RedisCreditStore } from './redis-credit-store.ts'

export { costOf, costTableMarkdown, hasTextPredicate, COST_TABLE, DEFAULT_COST, type QueryLike } from './cost-table.ts'
export { silentLogger, CreditsUnavailableError, type CreditStore, type CreditFailureMode, type StoreLogger } from './credit-store.ts'
export { MemoryCreditStore } from './memory-credit-store.ts'
export { RedisCreditStore } from './redis-credit-store.ts'
export { resetSeconds, windowStart, windowIndex, msUntilReset } from './window.ts'
export { AccountAllowances } from './account-allowances.ts'
export { connectRedis, closeRedis } from './redis-connection.ts'
export { createCreditsGate, createDisabledCreditsGate, CREDITS_HEADER, RESET_HEADER } from './credits-gate.ts'
export { creditsRoutes } from './credits-routes.ts'

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
