import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'

/** Redis tests run when TEST_REDIS_URL is set (CI sets it) and are skipped with this reason otherwise. */
export const redisSkip: string | false = process.env.TEST_REDIS_URL ? false : 'TEST_REDIS_URL is not set'

/** A key prefix no other run or test file shares, so parallel runs never see each other's keys. */
export function uniquePrefix (what: string): string {
  return `reelhouse-test:${what}:${randomBytes(6).toString('hex')}:`
}

/** A connection made the way the app should make it: no offline queue, ready before use. */
export async function connectTestRedis (): Promise<Redis> {
  const url = process.env.TEST_REDIS_URL
  if (url === undefined) throw new Error('TEST_REDIS_URL is not set')
  const redis = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 })
  await redis.connect()
  return redis
}

/** A client whose every command fails at once, as while Redis is down (nothing listens on port 1). */
export function unreachableRedis (): Redis {
  const redis = new Redis('redis://127.0.0.1:1', { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null })
  redis.on('error', () => {})
  return redis
}

export async function deleteKeys (redis: Redis, prefix: string): Promise<void> {
  let cursor = '0'
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000)
    if (keys.length > 0) await redis.del(...keys)
    cursor = next
  } while (cursor !== '0')
}
