import type { Generated } from 'kysely'

/** The outbox of index updates (migration 0004): see src/outbox. */

/**
 * One pending index update per resource. Writers insert or refresh it in their own transaction;
 * consumers delete it once the resource's current state is indexed.
 */
export interface OutboxTable {
  account_id: string
  type: string
  id: string
  /** A fresh token on every change: an ack deletes the row only if no change came in meanwhile. */
  change_id: string
  /** When the oldest change not yet indexed was recorded (lag). */
  enqueued_at: string
  /** When the latest change was recorded. */
  changed_at: string
  /** Retry backoff: not to be processed before this time; null when available now. */
  available_at: string | null
  /** Failed attempts so far; the entry is parked when they run out. */
  attempts: Generated<number>
  last_error: string | null
  /** Embedded queue: the batch that claimed the entry, and until when. */
  lease_owner: string | null
  lease_until: string | null
  /** RabbitMQ: 1 while a message for this entry waits in the queue (the consumer deletes the row on receipt). */
  published: Generated<number>
  published_at: string | null
}

/** Entries that kept failing, with the reason, for an operator to look at. */
export interface IndexParkedTable {
  account_id: string
  type: string
  id: string
  reason: string
  attempts: number
  parked_at: string
}
