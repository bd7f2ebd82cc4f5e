// Rows written straight into the resource tables (as migrations 0002/0003 define them), for tests
// of the indexer that must not depend on how the resource modules write. Each write optionally
// records its outbox entry in the same transaction, as the resource modules do.
import { randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { DB } from '../../../src/db/tables/index.ts'
import { recordChange } from '../../../src/outbox/index.ts'

const db = (kysely: Kysely<DB>): Kysely<any> => kysely as unknown as Kysely<any>
const T0 = Date.UTC(2026, 10, 22, 10, 0, 0)

export function hex (): string {
  return randomBytes(16).toString('hex')
}

export function embedCode (): string {
  return randomBytes(24).toString('base64url').slice(0, 32)
}

export async function insertAccount (kysely: Kysely<DB>, id = hex()): Promise<string> {
  await db(kysely).insertInto('accounts').values({ id, code: id.slice(0, 12), name: `Account ${id.slice(0, 6)}`, credits_per_minute: null, created_at: new Date(T0).toISOString() }).execute()
  return id
}

export interface AssetSeed {
  id?: string
  name?: string
  description?: string
  status?: string
  asset_type?: string
  duration?: number
  created_at?: string
  metadata?: Record<string, string>
  labelIds?: string[]
}

export function assetRow (accountId: string, seed: AssetSeed = {}, index = 0): Record<string, unknown> {
  const at = seed.created_at ?? new Date(T0 + index * 1000).toISOString()
  return {
    id: seed.id ?? embedCode(),
    account_id: accountId,
    asset_type: seed.asset_type ?? 'video',
    name: seed.name ?? `Asset ${index}`,
    description: seed.description ?? `Description of asset ${index}`,
    status: seed.status ?? 'live',
    post_processing_status: 'live',
    duration: seed.duration ?? 1000 * (index + 1),
    created_at: at,
    updated_at: at
  }
}

/** One asset with its metadata and labels, and (unless `record` is false) its outbox entry, in one transaction. */
export async function insertAsset (kysely: Kysely<DB>, accountId: string, seed: AssetSeed = {}, record = true): Promise<string> {
  const row = assetRow(accountId, seed)
  await kysely.transaction().execute(async (trx) => {
    await db(trx).insertInto('assets').values(row).execute()
    for (const [name, value] of Object.entries(seed.metadata ?? {})) {
      await db(trx).insertInto('asset_metadata').values({ account_id: accountId, asset_id: row.id, name, value }).execute()
    }
    for (const labelId of seed.labelIds ?? []) {
      await db(trx).insertInto('asset_labels').values({ account_id: accountId, asset_id: row.id, label_id: labelId }).execute()
    }
    if (record) await recordChange(trx, accountId, 'asset', row.id as string)
  })
  return row.id as string
}

/** Many assets at once (no outbox entries: data that exists before a reindex), in chunks. */
export async function insertAssets (kysely: Kysely<DB>, accountId: string, count: number, labelIds: string[] = []): Promise<string[]> {
  const ids: string[] = []
  for (let start = 0; start < count; start += 500) {
    const rows = Array.from({ length: Math.min(500, count - start) }, (_, i) => assetRow(accountId, { name: `Clip ${start + i} ${WORDS[(start + i) % WORDS.length]}` }, start + i))
    await kysely.transaction().execute(async (trx) => {
      await db(trx).insertInto('assets').values(rows).execute()
      const links = labelIds.length === 0 ? [] : rows.map((row, i) => ({ account_id: accountId, asset_id: row.id, label_id: labelIds[(start + i) % labelIds.length] }))
      if (links.length > 0) await db(trx).insertInto('asset_labels').values(links).execute()
      const metadata = rows.map((row, i) => ({ account_id: accountId, asset_id: row.id, name: 'n', value: String(start + i) }))
      await db(trx).insertInto('asset_metadata').values(metadata).execute()
    })
    ids.push(...rows.map((row) => row.id as string))
  }
  return ids
}

const WORDS = ['harbour', 'sunrise', 'football', 'cooking', 'interview', 'concert', 'mountain', 'garden']

export async function updateAssetName (kysely: Kysely<DB>, accountId: string, id: string, name: string, record = true): Promise<void> {
  await kysely.transaction().execute(async (trx) => {
    await db(trx).updateTable('assets').set({ name }).where('account_id', '=', accountId).where('id', '=', id).execute()
    if (record) await recordChange(trx, accountId, 'asset', id)
  })
}

export async function deleteAsset (kysely: Kysely<DB>, accountId: string, id: string): Promise<void> {
  await kysely.transaction().execute(async (trx) => {
    await db(trx).deleteFrom('assets').where('account_id', '=', accountId).where('id', '=', id).execute()
    await recordChange(trx, accountId, 'asset', id)
  })
}

export async function insertLabel (kysely: Kysely<DB>, accountId: string, name: string, parent?: { id: string, full_name: string }, record = true): Promise<{ id: string, full_name: string }> {
  const label = { id: hex(), account_id: accountId, name, parent_id: parent?.id ?? null, full_name: `${parent?.full_name ?? ''}/${name}`, created_at: new Date(T0).toISOString(), updated_at: new Date(T0).toISOString() }
  await kysely.transaction().execute(async (trx) => {
    await db(trx).insertInto('labels').values(label).execute()
    if (record) await recordChange(trx, accountId, 'label', label.id)
  })
  return { id: label.id, full_name: label.full_name }
}

export async function outboxRows (kysely: Kysely<DB>): Promise<Array<{ account_id: string, type: string, id: string, change_id: string, published: number, attempts: number }>> {
  return await db(kysely).selectFrom('outbox').select(['account_id', 'type', 'id', 'change_id', 'published', 'attempts']).orderBy('type').orderBy('id').execute()
}
