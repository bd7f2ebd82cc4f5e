import type { Kysely } from 'kysely'
import type { DB } from '../db/tables/index.ts'
import { ApiError } from '../errors/index.ts'
import { createOutboxQueue, recordChanges, type IndexedType } from '../outbox/index.ts'
import type { Dialect } from '../db/index.ts'

// Each indexed type, the table its ids come from and their column (an asset's transcripts: its caption tracks' asset).
const SOURCES: Array<[IndexedType, 'assets' | 'labels' | 'players' | 'syndications' | 'asset_captions', 'id' | 'asset_id']> = [
  ['asset', 'assets', 'id'], ['label', 'labels', 'id'], ['player', 'players', 'id'], ['syndication', 'syndications', 'id'],
  ['transcript', 'asset_captions', 'asset_id']
]

export interface ReindexDeps {
  db: Kysely<DB>
  dialect: Dialect
}

/**
 * `POST /api/reindex` (docs/search-and-indexing.md): queues every resource of one account, or of every
 * account, through the outbox. Ids are read and queued in pages of `batch` (keyset on id, one short
 * transaction each), so the work never holds an account's resources in memory nor a long lock.
 * Resources already queued coalesce. Parked entries are cleared, since they are queued again.
 * @returns the number of entries queued.
 * @throws ApiError account_not_found for an unknown account.
 */
export async function queueReindex (deps: ReindexDeps, accountId: string | undefined, batch = 1000): Promise<number> {
  if (accountId !== undefined && !await accountExists(deps.db, accountId)) {
    throw new ApiError('account_not_found', `Account ${accountId} does not exist.`)
  }
  await createOutboxQueue(deps).clearParked(accountId)
  let queued = 0
  const accounts = accountId === undefined ? accountIds(deps.db) : single(accountId)
  for await (const account of accounts) {
    for (const [type, table, column] of SOURCES) queued += await queueTable(deps.db, account, type, table, column, batch)
  }
  return queued
}

/**
 * Accounts holding at least one indexed resource (at most `limit`): each should have a non-empty index,
 * which `/ready` checks (docs/search-and-indexing.md). One query per table, each an index scan.
 */
export async function accountsWithIndexedContent (db: Kysely<DB>, limit = 200): Promise<string[]> {
  const found = new Set<string>()
  for (const [, table] of SOURCES) {
    const rows = await db.selectFrom(table).select('account_id').distinct().limit(limit).execute()
    for (const row of rows) found.add(row.account_id)
    if (found.size >= limit) break
  }
  return [...found].slice(0, limit)
}

export async function accountExists (db: Kysely<DB>, accountId: string): Promise<boolean> {
  return await db.selectFrom('accounts').select('id').where('id', '=', accountId).executeTakeFirst() !== undefined
}

/** Every account id, read in pages, so reindexing never holds them all. */
async function * accountIds (db: Kysely<DB>, batch = 500): AsyncGenerator<string> {
  let after = ''
  for (;;) {
    const rows = await db.selectFrom('accounts').select('id').where('id', '>', after).orderBy('id').limit(batch).execute()
    for (const row of rows) yield row.id
    if (rows.length < batch) return
    after = (rows[rows.length - 1] as { id: string }).id
  }
}

async function queueTable (db: Kysely<DB>, accountId: string, type: IndexedType, table: string, column: 'id' | 'asset_id', batch: number): Promise<number> {
  const source = db as unknown as Kysely<Record<string, { id: string, asset_id: string, account_id: string }>>
  let after = ''
  let queued = 0
  for (;;) {
    const rows = await source.selectFrom(table).select(`${column} as id`).distinct().where('account_id', '=', accountId).where(column, '>', after)
      .orderBy(column).limit(batch).execute()
    if (rows.length === 0) return queued
    const ids = rows.map((row) => row.id)
    await db.transaction().execute(async (trx) => { await recordChanges(trx, accountId, type, ids) })
    queued += ids.length
    if (rows.length < batch) return queued
    after = ids[ids.length - 1]
  }
}

async function * single (accountId: string): AsyncGenerator<string> {
  yield accountId
}
