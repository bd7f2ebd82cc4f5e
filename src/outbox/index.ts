// The outbox's public face: record changes in the writer's transaction, and the queue that carries
// them to the indexer (the outbox itself when embedded, RabbitMQ in scale-out).
// docs/search-and-indexing.md, "The path of a change".
export { INDEX_QUEUE, INDEXED_TYPES, entryKey, type IndexedType, type OutboxEntry } from './outbox-entry.ts'
export { recordChange, recordChanges, recordLabelTree } from './record-change.ts'
export { createOutboxQueue, type OutboxQueue, type Failure } from './outbox-queue.ts'
export { startAmqpRelay, type AmqpRelay, type IndexMessage, type RelayOptions } from './amqp-relay.ts'
export { backoffMs, silentLogger, Waker, type BackoffOptions, type WorkerLogger } from './backoff.ts'
