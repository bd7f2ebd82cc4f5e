// The outbox's public face: the entries derived from a write's changes in its transaction, and the queue
// that carries them to the indexer (the outbox itself when embedded, RabbitMQ in scale-out).
// docs/search-and-indexing.md.
export { INDEX_QUEUE, INDEXED_TYPES, entryKey, type IndexedType, type OutboxEntry } from './outbox-entry.ts'
export { recordChange, recordChanges, recordLabelTree } from './record-change.ts'
export { deriveOutboxEntries, type DocumentTouches } from './derive-entries.ts'
export { createOutboxQueue, type OutboxQueue, type Failure } from './outbox-queue.ts'
export { startAmqpRelay, type AmqpRelay, type IndexMessage, type RelayOptions } from './amqp-relay.ts'
export { backoffMs, silentLogger, Waker, type BackoffOptions, type WorkerLogger } from './backoff.ts'
