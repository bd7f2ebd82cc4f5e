// The indexer's public face: the consumers and the worker that runs them, the indexing service
// (`indexer` role), the re-index procedure and the document loaders. docs/search-and-indexing.md.
export { startWorker, type IndexWorker, type WorkerOptions } from './worker.ts'
export { createEmbeddedConsumer, type IndexConsumer } from './embedded-consumer.ts'

export { buildIndexerApp } from './indexer-app.ts'

export { queueReindex } from './reindex.ts'
export { runReindexProcedure, type ReindexProgress } from './reindex-procedure.ts'
export { reindexCommand } from './reindex-cli.ts'
export { amqpVhost, readQueueMessages } from './pending-count.ts'
export { IndexMetrics } from './metrics.ts'

export { DocumentLoaders } from './document-loader-registry.ts'
