import type { Database } from '../db/index.ts'
import { sqliteHandleOf } from '../db/index.ts'
import { BusListeners, type BusState, type InvalidationBus } from './invalidation-bus.ts'

export interface EmbeddedBusOptions {
  /** The SQLite database: another process writing its file is noticed by `PRAGMA data_version`. */
  database?: Database
  /** How often the file is checked for another process's writes (ms). */
  pollMs: number
}

/**
 * The embedded deployment's bus: one process, so a write's own caches are all there is to tell, and
 * that happens on the write path. Another process writing the same SQLite file (the CLI, a second
 * server) is noticed by `PRAGMA data_version`, which changes when another connection commits; it names
 * no rows, so every cache of the process is dropped (docs/credits-and-cache.md, "Freshness").
 */
export function createEmbeddedBus (options: EmbeddedBusOptions): InvalidationBus {
  const listeners = new BusListeners()
  listeners.setState('up')
  const sqlite = options.database === undefined ? undefined : sqliteHandleOf(options.database.db)
  let timer: NodeJS.Timeout | undefined
  if (sqlite !== undefined) {
    const version = (): number => sqlite.pragma('data_version', { simple: true }) as number
    let seen = version()
    timer = setInterval(() => {
      let now: number
      try {
        now = version()
      } catch {
        return
      }
      if (now === seen) return
      seen = now
      listeners.changed({ accountId: '*', tables: {}, everything: true })
    }, options.pollMs)
    timer.unref()
  }
  return {
    kind: 'embedded',
    get state (): BusState { return listeners.state },
    inTransaction: async () => {},
    publish: async () => {},
    subscribe: (listener) => { listeners.subscribe(listener) },
    onState: (listener) => { listeners.onState(listener) },
    close: async () => { if (timer !== undefined) clearInterval(timer) }
  }
}
