import { sql } from 'kysely'
import pg from 'pg'
import type { StoreLogger } from '../credits/index.ts'
import { BusListeners, type BusState, type InvalidationBus } from './invalidation-bus.ts'
import { reconnectDelay, within } from './reconnecting.ts'

/** The channel every Reelhouse process of a database listens on. */
export const CHANNEL = 'reelhouse_invalidation'

/** PostgreSQL caps a NOTIFY payload at 8000 bytes; a larger change is sent as "the whole account". */
const MAX_PAYLOAD = 7900

export interface PostgresBusOptions {
  /** A direct connection (LISTEN does not work through a transaction-pooling proxy). */
  url: string
  logger: StoreLogger
  /** How often the listening connection is checked (ms); a check unanswered for as long means down. */
  heartbeatMs: number
}

/**
 * `NOTIFY` in the writing transaction, so PostgreSQL delivers it when the write commits and never for
 * a rolled-back one; one `LISTEN` connection per process receives everyone's.
 */
export function createPostgresBus (options: PostgresBusOptions): InvalidationBus {
  const listeners = new BusListeners()
  let client: pg.Client | undefined
  let closed = false
  let attempt = 0
  let retry: NodeJS.Timeout | undefined
  let heartbeat: NodeJS.Timeout | undefined

  const lost = (error: unknown): void => {
    if (client === undefined) return
    const dead = client
    client = undefined
    clearInterval(heartbeat)
    dead.end().catch(() => {})
    if (listeners.state === 'up') options.logger.warn({ err: error }, 'invalidation bus (PostgreSQL LISTEN) lost: serving without caches until it is back')
    listeners.setState('down')
    schedule()
  }
  const schedule = (): void => {
    if (closed) return
    retry = setTimeout(() => { void connect() }, reconnectDelay(attempt++))
    retry.unref()
  }
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: options.url })
    next.on('error', (error) => { lost(error) })
    next.on('end', () => { lost(new Error('connection ended')) })
    next.on('notification', (message) => { if (message.channel === CHANNEL && message.payload !== undefined) listeners.received(message.payload) })
    try {
      await within(next.connect(), options.heartbeatMs * 2, 'connect')
      await within(next.query(`LISTEN ${CHANNEL}`), options.heartbeatMs * 2, 'LISTEN')
    } catch (error) {
      next.end().catch(() => {})
      if (attempt === 0) options.logger.warn({ err: error }, 'invalidation bus (PostgreSQL LISTEN) unreachable: serving without caches until it is')
      schedule()
      return
    }
    if (closed) { await next.end().catch(() => {}); return }
    client = next
    attempt = 0
    heartbeat = setInterval(() => {
      const current = client
      if (current === undefined) return
      within(current.query('SELECT 1'), options.heartbeatMs, 'heartbeat').catch((error: unknown) => { if (client === current) lost(error) })
    }, options.heartbeatMs)
    heartbeat.unref()
    if (listeners.state === 'down' && attempt === 0) options.logger.info({}, 'invalidation bus (PostgreSQL LISTEN) connected')
    listeners.setState('up')
  }
  void connect()

  return {
    kind: 'postgres',
    get state (): BusState { return listeners.state },
    inTransaction: async (trx, change) => {
      let payload = listeners.encode(change)
      if (Buffer.byteLength(payload) > MAX_PAYLOAD) payload = listeners.encode({ accountId: change.accountId, tables: {}, everything: true })
      await sql`SELECT pg_notify(${CHANNEL}, ${payload})`.execute(trx)
    },
    publish: async () => {},
    subscribe: (listener) => { listeners.subscribe(listener) },
    onState: (listener) => { listeners.onState(listener) },
    close: async () => {
      closed = true
      clearTimeout(retry)
      clearInterval(heartbeat)
      const current = client
      client = undefined
      await current?.end().catch(() => {})
    }
  }
}
