import type { Kysely } from 'kysely'
import type { ChangeRecord } from '../../db/index.ts'
import type { DB } from '../../db/tables/index.ts'
import { toApiAsset, toApiDeletedAsset } from './assets-format.ts'
import { createAssetsRepository } from './assets-repository.ts'

/** An event an asset write causes, and the asset as an administrator saw it in that transaction. */
interface AssetEvent { type: string, data: unknown }

const PLAYING = new Set(['live', 'paused'])
/** The tables whose records name an asset by its id: the asset itself and its parts. */
const ASSET_ROWS = new Set(['assets', 'asset_labels', 'asset_metadata', 'asset_captions'])

/**
 * The events of an asset write, told apart by the change records (docs/webhooks.md, "Events"): an insert
 * is `asset.created`, a delete `asset.deleted`, an update `asset.updated` plus what its status change
 * means — the upload finished (uploading → processing), the first media published (to live or paused:
 * `asset.playable`), processing failed (`asset.errored`), a caption track written, uploaded or generated
 * (`asset.captions.ready`). The media side records what no asset column tells: a rendition made
 * (`asset.rendition.ready`), the whole ladder made (`asset.ready`). `data` is read in the writing
 * transaction: a later read could find the asset changed again, or gone.
 */
export async function assetEvents (trx: Kysely<DB>, accountId: string, records: readonly ChangeRecord[]): Promise<AssetEvent[]> {
  const byAsset = new Map<string, ChangeRecord[]>()
  for (const record of records) {
    if (ASSET_ROWS.has(record.table)) byAsset.set(record.id, [...byAsset.get(record.id) ?? [], record])
  }
  if (byAsset.size === 0) return []
  const assets = createAssetsRepository(trx)
  const events: AssetEvent[] = []
  for (const [id, list] of byAsset) {
    const own = list.find((record) => record.table === 'assets')
    if (own?.operation === 'delete') {
      const gone = await trx.selectFrom('deleted_assets').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst()
      if (gone !== undefined) events.push({ type: 'asset.deleted', data: toApiDeletedAsset(gone) })
      continue
    }
    const row = await assets.findByRef(accountId, id, undefined, trx)
    if (row === undefined) continue
    const data = toApiAsset(row)
    if (own?.operation === 'insert') {
      events.push({ type: 'asset.created', data })
      continue
    }
    events.push({ type: 'asset.updated', data })
    const before = own?.status?.before ?? null
    const after = own?.status?.after ?? null
    if (before === 'uploading' && after === 'processing') events.push({ type: 'asset.upload.completed', data })
    if (after !== null && PLAYING.has(after) && before !== null && !PLAYING.has(before)) events.push({ type: 'asset.playable', data })
    if (after === 'error' && before !== 'error') events.push({ type: 'asset.errored', data })
    if (list.some((record) => record.table === 'asset_captions' && record.operation !== 'delete')) events.push({ type: 'asset.captions.ready', data })
  }
  return events
}
