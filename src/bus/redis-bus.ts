import { Redis } from 'ioredis'
import type { StoreLogger } from '../credits/index.ts'
import { BusListeners, type BusState, type InvalidationBus } from './invalidation-bus.ts'
import { reconnectDelay, within } from './reconnecting.ts'

export interface RedisBusOptions {
  /** Where the subscriber connects (INVALIDATION_BUS_URL, else REDIS_URL). */
  url: string
  /** The process's shared connection, which publishes. */
  publisher: Redis
  /** Channel name; tests use a unique one per run. */
  channel: string
  logger: StoreLogger
  heartbeatMs: number
}

/**
 * Redis pub/sub: a write publishes what it changed after its commit and before its answer; every
 * process subscribes on a connection of its own. Pub/sub keeps nothing for a subscriber that is away,
 * so a process whose subscription drops stops serving from its caches until it has subscribed again.
 */
export function createRedisBus (options: RedisBusOptions): InvalidationBus {
  const listeners = new BusListeners()
  let closed = false
  let heartbeat: NodeJS.Timeout | undefined
  let publishFailing = false
  const subscriber = new Redis(options.url, {
    lazyConnect: true,
    autoResubscribe: false,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    retryStrategy: (times) => (closed ? null : reconnectDelay(times))
  })
  subscriber.on('error', () => {})
  subscriber.on('message', (channel: string, message: string) => { if (channel === options.channel) listeners.received(message) })
  const down = (error: unknown): void => {
    if (listeners.state === 'up') options.logger.warn({ err: error }, 'invalidation bus (Redis pub/sub) lost: serving without caches until it is back')
    listeners.setState('down')
  }
  subscriber.on('close', () => { down(new Error('connection closed')) })
  subscriber.on('ready', () => {
    subscriber.subscribe(options.channel).then(() => {
      if (listeners.state === 'down') options.logger.info({}, 'invalidation bus (Redis pub/sub) subscribed')
      listeners.setState('up')
    }, (error: unknown) => { down(error); subscriber.disconnect(true) })
  })
  subscriber.connect().catch((error: unknown) => { options.logger.warn({ err: error }, 'invalidation bus (Redis pub/sub) unreachable: serving without caches until it is') })
  heartbeat = setInterval(() => {
    if (listeners.state !== 'up') return
    within(subscriber.ping(), options.heartbeatMs, 'heartbeat').catch((error: unknown) => {
      down(error)
      subscriber.disconnect(true)
    })
  }, options.heartbeatMs)
  heartbeat.unref()

  return {
    kind: 'redis',
    get state (): BusState { return listeners.state },
    inTransaction: async () => {},
    publish: async (change) => {
      try {
        await options.publisher.publish(options.channel, listeners.encode(change))
        if (publishFailing) options.logger.info({}, 'invalidation bus (Redis pub/sub) publishing again')
        publishFailing = false
      } catch (error) {
        // The write is committed; other processes whose subscription is down have stopped using their caches.
        if (!publishFailing) options.logger.warn({ err: error }, 'invalidation bus (Redis pub/sub): a change could not be published')
        publishFailing = true
      }
    },
    subscribe: (listener) => { listeners.subscribe(listener) },
    onState: (listener) => { listeners.onState(listener) },
    close: async () => {
      closed = true
      clearInterval(heartbeat)
      heartbeat = undefined
      subscriber.disconnect()
    }
  }
}
