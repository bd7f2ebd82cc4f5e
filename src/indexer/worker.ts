import type { Config } from '../config/index.ts'
import type { Database } from '../db/index.ts'
import { createOutboxQueue, silentLogger, startAmqpRelay, type AmqpRelay, type RelayOptions, type WorkerLogger } from '../outbox/index.ts'
import type { SearchStore } from '../search/index.ts'
import type { DocumentLoaders } from './document-loader-registry.ts'
import { createAmqpConsumer, type AmqpConsumerOptions } from './amqp-consumer.ts'
import { createEmbeddedConsumer, type IndexConsumer } from './embedded-consumer.ts'
import { logOutdatedIndices } from './mapping-check.ts'
import { IndexMetrics } from './metrics.ts'

export interface WorkerOptions {
  consumer?: Omit<AmqpConsumerOptions, 'loaders'>
  relay?: RelayOptions
  /** Start consuming at once (default). Tests stop the consumer to watch the queue fill. */
  consume?: boolean
  /** AMQP_URL override (tests point it at a proxy or a closed port). */
  amqpUrl?: string
  metrics?: IndexMetrics
  logger?: WorkerLogger
}

export interface IndexWorker {
  readonly mode: 'embedded' | 'amqp'
  readonly metrics: IndexMetrics
  /** Embedded only: the consumer, with `runOnce`/`drain` for tests and tools. */
  readonly embedded: IndexConsumer | undefined
  /** RabbitMQ only. */
  readonly relay: AmqpRelay | undefined
  readonly consuming: boolean
  startConsuming: () => void
  stopConsuming: () => Promise<void>
  /** New entries are in the outbox: publish or consume them now rather than at the next poll. */
  wake: () => void
  /** Finishes the batch in hand, flushes the relay (docs/configuration.md1), closes the broker connection. */
  stop: () => Promise<void>
}

export interface WorkerDeps {
  config: Pick<Config, 'amqpUrl'>
  database: Pick<Database, 'db' | 'dialect'>
  store: SearchStore
  /** Which loader reads each resource type's document. */
  loaders: DocumentLoaders
}

/**
 * The `worker` role's indexing half: with AMQP_URL, the outbox relay to RabbitMQ and the queue's
 * consumer; without it, the consumer of the outbox table itself.
 */
export async function startWorker (deps: WorkerDeps, options: WorkerOptions = {}): Promise<IndexWorker> {
  const metrics = options.metrics ?? new IndexMetrics()
  const logger = options.logger ?? silentLogger
  const consumerOptions = { logger, ...options.consumer, loaders: deps.loaders }
  const url = options.amqpUrl ?? deps.config.amqpUrl
  await logOutdatedIndices(deps.store, logger)

  if (url === undefined) {
    const consumer = createEmbeddedConsumer(deps.database, deps.store, metrics, consumerOptions)
    if (options.consume !== false) consumer.start()
    return {
      mode: 'embedded',
      metrics,
      embedded: consumer,
      relay: undefined,
      get consuming () { return consumer.running },
      startConsuming: () => { consumer.start() },
      stopConsuming: async () => { await consumer.stop() },
      wake: () => { consumer.wake() },
      stop: async () => { await consumer.stop() }
    }
  }

  // Imported only with AMQP_URL: the embedded deployment never loads the RabbitMQ client.
  const { Connection } = await import('rabbitmq-client')
  const connection = new Connection({ url, connectionName: 'reelhouse-indexer', acquireTimeout: 10_000, retryLow: 500, retryHigh: 10_000 })
  let down = false
  connection.on('error', (error: unknown) => {
    if (!down) logger.warn({ err: error }, 'RabbitMQ connection error; reconnecting with backoff')
    down = true
  })
  connection.on('connection', () => {
    if (down) logger.info({}, 'RabbitMQ connection established again')
    down = false
  })
  const relay = startAmqpRelay(createOutboxQueue(deps.database), connection, { logger, ...options.relay })
  const consumer = createAmqpConsumer(connection, deps.database, deps.store, metrics, consumerOptions)
  if (options.consume !== false) consumer.start()
  return {
    mode: 'amqp',
    metrics,
    embedded: undefined,
    relay,
    get consuming () { return consumer.running },
    startConsuming: () => { consumer.start() },
    stopConsuming: async () => { await consumer.stop() },
    wake: () => { relay.wake() },
    stop: async () => {
      // Unacknowledged messages go back to the queue by themselves: a broker that is away is not waited for.
      const patience = connection.ready ? 5000 : 100
      await Promise.race([consumer.stop().catch(() => {}), new Promise((resolve) => setTimeout(resolve, patience).unref())])
      const flushed = await relay.stop()
      if (!flushed) logger.warn({}, 'index relay: entries left in the outbox at shutdown; the next worker publishes them')
      if (connection.ready) await connection.close()
      else connection.unsafeDestroy()
    }
  }
}
