import { sql, type RawBuilder } from 'kysely'
import type { Database } from '../db/index.ts'
import type { IndexedType, OutboxEntry } from './outbox-entry.ts'

/** What the queue holds now; embedded, `entries` is the pending count (`messages`). */
export interface QueueCounts {
  entries: number
  /** Claimed by a consumer whose lease has not run out (embedded). */
  leased: number
  /** Handed to RabbitMQ and not yet received by a consumer. */
  published: number
  /** Waiting out a retry backoff. */
  delayed: number
  parked: number
  oldestEnqueuedAt: string | null
}

export interface Failure {
  entry: OutboxEntry
  error: string
  /** False for failures that are not the entry's fault (the search store is down): no attempt is counted. */
  counts: boolean
  availableAt: number
}

/** Rounds of an acknowledgement that found rows locked, 25 ms apart. */
const ACK_ATTEMPTS = 40

type Row = { account_id: string, type: string, id: string, change_id: string, attempts: number | string, enqueued_at: string }

const iso = (ms: number): string => new Date(ms).toISOString()

/**
 * The outbox as a queue. Not account-scoped like the resource repositories: it is the one table that
 * every account's changes pass through, and consumers take entries of any account.
 */
export function createOutboxQueue (database: Pick<Database, 'db' | 'dialect'>) {
  const { db, dialect } = database

  // Writers hold an entry's row lock until they commit, and one writer may lock several entries in
  // any order. So that no writer ever deadlocks with the queue, its multi-row statements never wait
  // for a row lock on PostgreSQL (a dialect branch, named as such): a row a writer holds is changing,
  // so acks and publication marks skip it (SKIP LOCKED); taking a message's entries must not skip
  // one, so it fails fast (NOWAIT) and tries again. SQLite has one writer at a time and no row locks.
  const locked = (where: RawBuilder<unknown>, mode: 'skip' | 'nowait', table = sql`outbox`): RawBuilder<unknown> => {
    const lock = dialect !== 'postgres' ? sql`` : mode === 'skip' ? sql` FOR UPDATE SKIP LOCKED` : sql` FOR UPDATE NOWAIT`
    return sql`SELECT account_id, type, id FROM ${table} WHERE ${where}${lock}`
  }

  return {
    /**
     * Embedded: leases up to `limit` available entries, oldest first, to `owner` until now + leaseMs.
     * A consumer that dies leaves its lease to run out; another then takes the entries again.
     */
    async claim (owner: string, nowMs: number, leaseMs: number, limit: number): Promise<OutboxEntry[]> {
      const now = iso(nowMs)
      // A dialect branch, named as such: PostgreSQL workers skip rows another worker is claiming.
      const lock = dialect === 'postgres' ? sql` FOR UPDATE SKIP LOCKED` : sql``
      const result = await sql<Row>`UPDATE outbox SET lease_owner = ${owner}, lease_until = ${iso(nowMs + leaseMs)}
        WHERE (account_id, type, id) IN (SELECT account_id, type, id FROM outbox
          WHERE (available_at IS NULL OR available_at <= ${now}) AND (lease_until IS NULL OR lease_until <= ${now})
          ORDER BY enqueued_at LIMIT ${limit}${lock})
        RETURNING account_id, type, id, change_id, attempts, enqueued_at`.execute(db)
      return result.rows.map(toEntry)
    },

    /**
     * RabbitMQ: leases the entries that received messages name, the same way (a message is a
     * notification; the row is the work). An entry another consumer holds, or one waiting out a
     * backoff, is not taken: that consumer, or the relay once the backoff passed, sees to it. Taking
     * an entry clears `published`: from now on a change must be published again if it comes too late
     * for this consumer.
     */
    async claimKeys (owner: string, keys: Array<Pick<OutboxEntry, 'accountId' | 'type' | 'id'>>, nowMs: number, leaseMs: number): Promise<OutboxEntry[]> {
      if (keys.length === 0) return []
      const now = iso(nowMs)
      const where = sql`(account_id, type, id) IN (${tuples(keys, false)})
        AND (available_at IS NULL OR available_at <= ${now}) AND (lease_until IS NULL OR lease_until <= ${now})`
      for (let attempt = 1; ; attempt++) {
        try {
          const result = await sql<Row>`UPDATE outbox SET lease_owner = ${owner}, lease_until = ${iso(nowMs + leaseMs)}, published = 0
            WHERE (account_id, type, id) IN (${locked(where, 'nowait')})
            RETURNING account_id, type, id, change_id, attempts, enqueued_at`.execute(db)
          return result.rows.map(toEntry)
        } catch (error) {
          // 55P03 lock_not_available: a writer is changing one of them; it commits in milliseconds.
          if ((error as { code?: string }).code !== '55P03' || attempt >= 400) throw error
          await new Promise((resolve) => setTimeout(resolve, 25))
        }
      }
    },

    /** Deletes the entries that did not change while indexed; releases the others to be taken again. */
    async ack (owner: string, entries: OutboxEntry[]): Promise<void> {
      const unchanged = entries.length > 0 ? sql`(account_id, type, id, change_id) IN (${tuples(entries, true)})` : undefined
      // Ours and changed since taken: an unchanged entry is never released, only deleted, so that
      // one whose row was locked a moment is not indexed a second time.
      const changed = unchanged === undefined ? sql`lease_owner = ${owner}` : sql`lease_owner = ${owner} AND NOT ${unchanged}`
      for (let attempt = 1; ; attempt++) {
        if (unchanged !== undefined) await sql`DELETE FROM outbox WHERE (account_id, type, id) IN (${locked(unchanged, 'skip')})`.execute(db)
        // Released, an entry is unpublished, so the RabbitMQ relay publishes it again.
        await sql`UPDATE outbox SET lease_owner = NULL, lease_until = NULL, enqueued_at = changed_at, published = 0
          WHERE (account_id, type, id) IN (${locked(changed, 'skip')})`.execute(db)
        // A row locked by a writer (or by the relay marking it) was skipped; such locks last
        // milliseconds, so look again shortly rather than leave the row to its lease, a minute later.
        // Past the last attempt it is left to the lease. SQLite has no row locks: nothing was skipped.
        if (dialect !== 'postgres' || attempt >= ACK_ATTEMPTS) return
        const left = await db.selectFrom('outbox').select('id').where('lease_owner', '=', owner).limit(1).executeTakeFirst()
        if (left === undefined) return
        await new Promise((resolve) => setTimeout(resolve, 25))
      }
    },

    /** Embedded: puts failed entries back with their backoff (and an attempt counted when it was their fault). */
    async retry (owner: string, failures: Failure[]): Promise<void> {
      // One row per statement (autocommit): waiting for a writer's lock while holding none is safe.
      for (const { entry, error, counts, availableAt } of failures) {
        await db.updateTable('outbox')
          .set({ attempts: entry.attempts + (counts ? 1 : 0), available_at: iso(availableAt), last_error: error.slice(0, 2000), lease_owner: null, lease_until: null })
          .where('account_id', '=', entry.accountId).where('type', '=', entry.type).where('id', '=', entry.id)
          .where('lease_owner', '=', owner).execute()
      }
    },

    /** Moves entries whose attempts ran out to `index_parked`, with the reason. */
    async park (failures: Array<{ entry: OutboxEntry, reason: string }>, nowMs: number): Promise<void> {
      if (failures.length === 0) return
      for (const { entry, reason } of failures) {
        await db.insertInto('index_parked')
          .values({ account_id: entry.accountId, type: entry.type, id: entry.id, reason: reason.slice(0, 2000), attempts: entry.attempts + 1, parked_at: iso(nowMs) })
          .onConflict((oc) => oc.columns(['account_id', 'type', 'id']).doUpdateSet((eb) => ({
            reason: eb.ref('excluded.reason'), attempts: eb.ref('excluded.attempts'), parked_at: eb.ref('excluded.parked_at')
          }))).execute()
      }
      // An entry that changed meanwhile stays queued: the change may be the fix.
      await sql`DELETE FROM outbox WHERE (account_id, type, id) IN (${locked(sql`(account_id, type, id, change_id) IN (${tuples(failures.map((f) => f.entry), true)})`, 'skip')})`.execute(db)
    },

    /** Entries indexed fine after all are no longer parked. */
    async unpark (entries: OutboxEntry[]): Promise<void> {
      if (entries.length === 0) return
      // Almost always empty: one cheap look saves a delete per batch.
      if (await db.selectFrom('index_parked').select('id').limit(1).executeTakeFirst() === undefined) return
      await sql`DELETE FROM index_parked WHERE (account_id, type, id) IN (${locked(sql`(account_id, type, id) IN (${tuples(entries, false)})`, 'skip', sql`index_parked`)})`.execute(db)
    },

    /** RabbitMQ relay: entries to publish, oldest first: not held by a consumer (or its lease ran out) nor backing off. */
    async unpublished (nowMs: number, limit: number): Promise<OutboxEntry[]> {
      const rows = await db.selectFrom('outbox').select(['account_id', 'type', 'id', 'change_id', 'attempts', 'enqueued_at'])
        .where('published', '=', 0).where((eb) => eb.or([eb('available_at', 'is', null), eb('available_at', '<=', iso(nowMs))]))
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', iso(nowMs))]))
        .orderBy('enqueued_at').limit(limit).execute()
      return rows.map(toEntry)
    },

    /**
     * RabbitMQ relay: entries published long ago and never received. Their message was lost (the
     * queue was purged or deleted): without publishing them again, later changes would wait forever.
     */
    async stalePublished (beforeMs: number, limit: number): Promise<OutboxEntry[]> {
      const rows = await db.selectFrom('outbox').select(['account_id', 'type', 'id', 'change_id', 'attempts', 'enqueued_at'])
        .where('published', '=', 1).where('published_at', '<=', iso(beforeMs)).orderBy('enqueued_at').limit(limit).execute()
      return rows.map(toEntry)
    },

    /**
     * After the broker's confirm: the entries are in the queue, unless they changed meanwhile, or a
     * consumer already took them. The confirm can arrive after the consumer received the message; an
     * entry it holds is not marked, so that if it dies the relay publishes the entry again as soon as
     * the lease runs out (a mark would leave it to the stale check, minutes later).
     */
    async markPublished (entries: OutboxEntry[], nowMs: number): Promise<void> {
      if (entries.length === 0) return
      const now = iso(nowMs)
      const where = sql`(account_id, type, id, change_id) IN (${tuples(entries, true)}) AND (lease_until IS NULL OR lease_until <= ${now})`
      await sql`UPDATE outbox SET published = 1, published_at = ${now}
        WHERE (account_id, type, id) IN (${locked(where, 'skip')})`.execute(db)
    },

    async counts (nowMs: number): Promise<QueueCounts> {
      const now = iso(nowMs)
      const row = await db.selectFrom('outbox').select((eb) => [
        eb.fn.countAll<number | string>().as('entries'),
        sql<number | string | null>`sum(CASE WHEN lease_until > ${now} THEN 1 ELSE 0 END)`.as('leased'),
        sql<number | string | null>`sum(published)`.as('published'),
        sql<number | string | null>`sum(CASE WHEN available_at > ${now} THEN 1 ELSE 0 END)`.as('delayed'),
        eb.fn.min('enqueued_at').as('oldest')
      ]).executeTakeFirstOrThrow()
      const parked = await db.selectFrom('index_parked').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow()
      return {
        entries: Number(row.entries),
        leased: Number(row.leased ?? 0),
        published: Number(row.published ?? 0),
        delayed: Number(row.delayed ?? 0),
        parked: Number(parked.n),
        oldestEnqueuedAt: row.oldest ?? null
      }
    },

    /** The parked entries of one account (or all), newest first. */
    async parked (accountId?: string, limit = 100) {
      let query = db.selectFrom('index_parked').selectAll()
      if (accountId !== undefined) query = query.where('account_id', '=', accountId)
      return await query.orderBy('parked_at', 'desc').limit(limit).execute()
    },

    /** A reindex queues every resource again, parked ones included. */
    async clearParked (accountId?: string): Promise<void> {
      let query = db.deleteFrom('index_parked')
      if (accountId !== undefined) query = query.where('account_id', '=', accountId)
      await query.execute()
    }
  }
}

export type OutboxQueue = ReturnType<typeof createOutboxQueue>

// A type no loader knows is not filtered out here: the consumer parks it with that reason.
function toEntry (row: Row): OutboxEntry {
  return { accountId: row.account_id, type: row.type as IndexedType, id: row.id, changeId: row.change_id, attempts: Number(row.attempts), enqueuedAt: row.enqueued_at }
}

/** `VALUES (a, t, i[, c]), …` for `(…) IN (…)`: SQLite takes row values only against a subquery. */
function tuples (entries: Array<Pick<OutboxEntry, 'accountId' | 'type' | 'id'> & { changeId?: string }>, withChange: boolean): RawBuilder<unknown> {
  return sql`VALUES ${sql.join(entries.map((e) => withChange
    ? sql`(${e.accountId}, ${e.type}, ${e.id}, ${e.changeId ?? ''})`
    : sql`(${e.accountId}, ${e.type}, ${e.id})`))}`
}
