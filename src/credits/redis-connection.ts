import type { Redis } from 'ioredis'
import type { StoreLogger } from './credit-store.ts'

/** A command slower than this counts as an outage; REDIS_FAILURE_MODE decides what the request gets. */
export const REDIS_COMMAND_TIMEOUT_MS = 1000

/**
 * The one Redis connection of a process, shared by the credit counters and the cdn cache. No offline
 * queue: while Redis is away a command fails at once instead of holding the request, and
 * `commandTimeout` bounds a stalled one. Start-up waits for `ready`, but a Redis that is down does not
 * stop the process: the stores serve or refuse (REDIS_FAILURE_MODE) while ioredis reconnects.
 */
export async function connectRedis (url: string, logger: StoreLogger): Promise<Redis> {
  // Imported here, not at the top: a process without REDIS_URL never loads the client (docs/benchmarks.md, "Soak").
  const { Redis } = await import('ioredis')
  const redis = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, commandTimeout: REDIS_COMMAND_TIMEOUT_MS, maxRetriesPerRequest: 1 })
  // ioredis emits an 'error' for every failed reconnect; the stores log an outage's start and end instead.
  redis.on('error', () => {})
  try {
    await redis.connect()
  } catch (error) {
    logger.warn({ err: error }, 'Redis unreachable at start: credits and the cdn cache follow REDIS_FAILURE_MODE until it is back')
  }
  return redis
}

/** Quits politely when connected; a connection that is down is just dropped. */
export async function closeRedis (redis: Redis): Promise<void> {
  try {
    await redis.quit()
  } catch {
    redis.disconnect()
  }
}
