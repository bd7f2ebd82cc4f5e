import type { Redis } from 'ioredis'
import { purgeTags, type GuardedResponseCache } from '../cdn/index.ts'
import type { Config } from '../config/index.ts'
import type { StoreLogger } from '../credits/index.ts'
import { ReadCache, type Database, type Invalidation, type WriteObserver } from '../db/index.ts'
import { counter, gauge, type Family } from '../ops/metrics/index.ts'
import { createEmbeddedBus } from './embedded-bus.ts'
import type { InvalidationBus } from './invalidation-bus.ts'

export interface FreshnessDeps {
  config: Pick<Config, 'databaseUrl' | 'redisUrl' | 'invalidationBusUrl' | 'invalidationHeartbeatMs' | 'invalidationPollMs' | 'readCacheBytes'>
  database: Database
  /** The process's shared Redis connection (REDIS_URL), which publishes on the Redis bus. */
  redis?: Redis
  responseCache: GuardedResponseCache
  logger: StoreLogger
  /** Prefix of Redis names (the channel); tests use a unique one per run. */
  keyPrefix: string
}

/** One process's side of fresh reads: its bus, its caches, and what its writes tell them. */
export interface Freshness {
  bus: InvalidationBus
  /** Credentials and resources by id (src/db/read-cache.ts). */
  readCache: ReadCache
  /** Set on the database: every committed write goes through here (src/db/account-lock.ts). */
  writes: WriteObserver
  /** Resolves once the bus is up, or after `ms` (the process then starts without caches). */
  whenUp: (ms: number) => Promise<void>
  /** For `/ready`: 'ok', or a warning while the bus is down (the process serves, without caches). */
  readiness: () => Promise<string>
  families: () => Family[]
  close: () => Promise<void>
}

/**
 * The bus the deployment calls for (docs/credits-and-cache.md, "Freshness"). The PostgreSQL and Redis
 * buses are imported only when chosen, so the embedded deployment never loads their clients.
 */
async function openBus (deps: FreshnessDeps): Promise<InvalidationBus> {
  const { config, logger } = deps
  const heartbeatMs = config.invalidationHeartbeatMs
  if (deps.database.dialect === 'postgres') {
    const { createPostgresBus } = await import('./postgres-bus.ts')
    return createPostgresBus({ url: config.invalidationBusUrl ?? deps.database.url ?? config.databaseUrl, logger, heartbeatMs })
  }
  if (deps.redis !== undefined && config.redisUrl !== undefined) {
    const { createRedisBus } = await import('./redis-bus.ts')
    return createRedisBus({ url: config.invalidationBusUrl ?? config.redisUrl, publisher: deps.redis, channel: `${deps.keyPrefix}invalidation`, logger, heartbeatMs })
  }
  return createEmbeddedBus({ database: deps.database, pollMs: config.invalidationPollMs })
}

/**
 * Wires the bus to the caches. A committed write purges this process's caches and the shared response
 * cache, then is published, all before its answer; a change from another process purges the same. While
 * the bus is down no cache serves; when it is back they start empty (fail safe: a missed purge can
 * never be served).
 */
export async function createFreshness (deps: FreshnessDeps): Promise<Freshness> {
  const bus = await openBus(deps)
  const readCache = new ReadCache(Math.max(1024, deps.config.readCacheBytes))
  const { responseCache, logger } = deps
  const counts = { published: 0, received: 0, purges: 0, disconnects: 0, purgeFailures: 0 }
  let downSince: Date | undefined

  /** False when the shared response cache could not take the purge (it logs its outage once and makes up for it). */
  const apply = async (change: Invalidation): Promise<boolean> => {
    counts.purges += 1
    if (change.accountId === '*') {
      readCache.setServing(readCache.serving)
      await responseCache.clear()
      return true
    }
    readCache.forget(change)
    return await responseCache.purge(purgeTags(change))
  }
  const applyLogged = async (change: Invalidation): Promise<void> => {
    try {
      if (!await apply(change)) counts.purgeFailures += 1
    } catch (error) {
      counts.purgeFailures += 1
      logger.warn({ err: error }, 'a cache purge failed')
    }
  }

  /** Waiting for the caches to serve (see whenUp). */
  const serving: Array<() => void> = []
  const serve = (on: boolean): void => {
    readCache.setServing(on)
    responseCache.serving = on
    if (on) for (const resolve of serving.splice(0)) resolve()
  }
  serve(bus.state === 'up')
  if (bus.state === 'down') downSince = new Date()
  bus.onState((state) => {
    if (state === 'down') {
      counts.disconnects += 1
      downSince = new Date()
      serve(false)
      return
    }
    // Back: whatever was missed meanwhile is dropped with everything else before anything is served.
    responseCache.clear().catch((error: unknown) => { logger.warn({ err: error }, 'could not clear the shared response cache after the bus came back') })
      .finally(() => {
        if (bus.state !== 'up') return
        downSince = undefined
        serve(true)
      })
  })
  bus.subscribe((change) => {
    counts.received += 1
    void applyLogged(change)
  })

  return {
    bus,
    readCache,
    // Serving starts once the shared cache is cleared (see onState above), so a process that has
    // started serves nothing from before, and stores nothing the clear would then drop.
    whenUp: async (ms) => {
      if (responseCache.serving) return
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms)
        serving.push(() => { clearTimeout(timer); resolve() })
      })
    },
    writes: {
      inTransaction: async (trx, change) => { await bus.inTransaction(trx, change) },
      committed: async (change) => {
        await applyLogged(change)
        await bus.publish(change)
        counts.published += 1
      }
    },
    readiness: async () => downSince === undefined ? 'ok' : `degraded: invalidation bus (${bus.kind}) down since ${downSince.toISOString()}, serving without caches`,
    families: () => {
      const lookups = readCache.hits + readCache.misses
      return [
        gauge('reelhouse_invalidation_bus_up', 'Whether this process hears every change (1); while 0 its caches do not serve', bus.state === 'up' ? 1 : 0, { kind: bus.kind }),
        counter('reelhouse_invalidation_bus_disconnects_total', 'Times the bus connection was lost', counts.disconnects),
        counter('reelhouse_invalidations_published_total', 'Committed writes of this process announced on the bus', counts.published),
        counter('reelhouse_invalidations_received_total', 'Changes of other processes heard on the bus', counts.received),
        counter('reelhouse_cache_purges_total', 'Purges applied to this process\'s caches and the shared response cache', counts.purges),
        counter('reelhouse_cache_purge_failures_total', 'Purges the shared response cache could not take (each made up for by a new generation before it serves again)', counts.purgeFailures),
        counter('reelhouse_read_cache_hits_total', 'Credentials and resources read from the in-process cache', readCache.hits),
        counter('reelhouse_read_cache_misses_total', 'Credentials and resources read from the database', readCache.misses),
        gauge('reelhouse_read_cache_hit_ratio', 'Hits over lookups of the read cache since start', lookups === 0 ? 0 : readCache.hits / lookups),
        gauge('reelhouse_read_cache_bytes', 'Bytes the read cache holds (READ_CACHE_BYTES bounds it)', readCache.bytes),
        gauge('reelhouse_read_cache_entries', 'Entries the read cache holds', readCache.size)
      ]
    },
    close: async () => { await bus.close() }
  }
}
