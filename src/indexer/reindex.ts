import type { Kysely } from 'kysely'
import type { AccountsRepository } from '../accounts/accounts-repository.ts'
import type { DB } from '../db/schema.ts'
import { ApiError } from '../errors/index.ts'
import { createOutboxQueue, recordChanges, type IndexedType } from '../outbox/index.ts'
import type { Dialect } from '../db/index.ts'

// Each indexed type and the table its ids come from.
const SOURCES: Array<[IndexedType, 'assets' | 'labels' | 'players' | 'syndications']> = [
  ['asset', 'assets'], ['label', 'labels'], ['player', 'players'], ['syndication', 'syndications']
]

export interface ReindexDeps {
  db: Kysely<DB>
  dialect: Dialect
  accounts: AccountsRepository
}

/**
 * `POST /api/reindex` (interface spec §4.4): queues every resource of one account, or of every
 * account, through the outbox. Ids are read and queued in pages of `batch` (keyset on id, one short
 * transaction each), so the work never holds an account's resources in memory nor a long lock.
 * Resources already queued coalesce. Parked entries are cleared, since they are queued again.
 * @returns the number of entries queued.
 * @throws ApiError account_not_found for an unknown account.
 */
export async function queueReindex (deps: ReindexDeps, accountId: string | undefined, batch = 1000): Promise<number> {
  if (accountId !== undefined && await deps.accounts.findById(accountId) === undefined) {
    throw new ApiError('account_not_found', `Account ${accountId} does not exist.`)
  }
  await createOutboxQueue(deps).clearParked(accountId)
  let queued = 0
  const accounts = accountId === undefined ? deps.accounts.ids() : single(accountId)
  for await (const account of accounts) {
    for (const [type, table] of SOURCES) queued += await queueTable(deps.db, account, type, table, batch)
  }
  return queued
}

async function queueTable (db: Kysely<DB>, accountId: string, type: IndexedType, table: string, batch: number): Promise<number> {
  const source = db as unknown as Kysely<Record<string, { id: string, account_id: string }>>
  let after = ''
  let queued = 0
  for (;;) {
    const rows = await source.selectFrom(table).select('id').where('account_id', '=', accountId).where('id', '>', after)
      .orderBy('id').limit(batch).execute()
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
