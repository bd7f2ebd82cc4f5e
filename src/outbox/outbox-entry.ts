/** The resource types that have a search document (docs/search-and-indexing.md, "Documents"). */
export const INDEXED_TYPES = ['asset', 'label', 'player', 'syndication', 'transcript'] as const
export type IndexedType = typeof INDEXED_TYPES[number]

/** The queue's name everywhere: the RabbitMQ queue, and the embedded outbox answering as it (docs/search-and-indexing.md). */
export const INDEX_QUEUE = 'flex.indexelastic.indexdeduped.queue'

/** An entry as the queue hands it to a consumer. */
export interface OutboxEntry {
  accountId: string
  type: IndexedType
  id: string
  changeId: string
  attempts: number
  enqueuedAt: string
}

/** `account/type/id`: one key per resource, for coalescing. */
export function entryKey (entry: { accountId: string, type: string, id: string }): string {
  return `${entry.accountId}/${entry.type}/${entry.id}`
}
