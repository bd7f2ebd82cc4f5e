import type { Kysely } from 'kysely'
import { noteWrite, readCacheFor } from '../../db/index.ts'
import type { DB, MediaVersionsTable, MediaVersionState } from '../../db/tables/index.ts'
import type { StreamState } from './asset-media-port.ts'

export type MediaVersionRow = MediaVersionsTable

/** What the public media routes need to find an asset's files from its media token. */
export interface ServedMedia {
  accountId: string
  assetId: string
  /** The version the asset serves; null before its first rendition is ready. */
  version: string | null
  originalKey: string | null
  originalFileName: string | null
  /** The asset's status: only a `live` asset's media plays. */
  status: string
  /** The asset's publishing rule, or null. */
  ruleId: string | null
  /** The asset's own playback policy (`public`, `signed`), or null for its rule's. */
  playbackPolicy: string | null
  /** The asset's own time restrictions (JSON as stored), or null. */
  timeRestrictions: string | null
  /** The asset's player (its caption language chooses the master's default subtitles), or null for the account's default player. */
  playerId: string | null
  /** `aes-128` when the served version is encrypted (served over HTTPS only), else `none`. */
  encryption: string
  /** The served version's renditions (its master playlist is rendered from them); [] without a served version. */
  renditions: StreamState[]
}

/** The processed versions of assets' media. Every query takes the account first. */
export function createMediaVersionsRepository (db: Kysely<DB>) {
  return {
    async insert (row: MediaVersionRow, trx: Kysely<DB> = db): Promise<void> {
      await trx.insertInto('media_versions').values(row).execute()
    },
    async find (accountId: string, assetId: string, version: string, trx: Kysely<DB> = db): Promise<MediaVersionRow | undefined> {
      return await trx.selectFrom('media_versions').selectAll()
        .where('account_id', '=', accountId).where('asset_id', '=', assetId).where('version', '=', version).executeTakeFirst()
    },
    /** The newest version that is neither retired nor discarded: the one being made, else the one served. */
    async latest (accountId: string, assetId: string, trx: Kysely<DB> = db): Promise<MediaVersionRow | undefined> {
      return await trx.selectFrom('media_versions').selectAll()
        .where('account_id', '=', accountId).where('asset_id', '=', assetId).where('state', 'not in', ['retired', 'discarded'])
        .orderBy('created_at', 'desc').orderBy('version', 'desc').limit(1).executeTakeFirst()
    },
    /** Versions of the asset in `states`, except `keep`. */
    async inStates (accountId: string, assetId: string, states: readonly MediaVersionState[], keep: string | null, trx: Kysely<DB> = db): Promise<MediaVersionRow[]> {
      let query = trx.selectFrom('media_versions').selectAll()
        .where('account_id', '=', accountId).where('asset_id', '=', assetId).where('state', 'in', [...states])
      if (keep !== null) query = query.where('version', '!=', keep)
      return await query.execute()
    },
    async update (accountId: string, assetId: string, version: string, changes: Partial<Omit<MediaVersionRow, 'account_id' | 'asset_id' | 'version'>>, trx: Kysely<DB> = db): Promise<void> {
      await trx.updateTable('media_versions').set(changes)
        .where('account_id', '=', accountId).where('asset_id', '=', assetId).where('version', '=', version).execute()
    },
    /**
     * A progress tick: the renditions' states and the progress of a version still being made or served,
     * in one statement on its own row; answers whether the version was still one to write. Noted for the
     * caches as the asset's change (its answers show both), and as a change of `media_versions` alone:
     * neither the asset's row nor its search document moves.
     */
    async saveProgress (accountId: string, assetId: string, version: string, changes: Pick<MediaVersionRow, 'renditions' | 'progress' | 'updated_at'>, trx: Kysely<DB> = db): Promise<boolean> {
      const result = await trx.updateTable('media_versions').set(changes)
        .where('account_id', '=', accountId).where('asset_id', '=', assetId).where('version', '=', version)
        .where('state', 'in', ['processing', 'current']).executeTakeFirst()
      noteWrite(trx, { table: 'media_versions', id: assetId, operation: 'update', columns: Object.keys(changes) }, 'assets')
      return Number(result.numUpdatedRows) > 0
    },
    /**
     * Forgets versions whose files are removed; noted for the caches as the asset's change, so what the
     * media routes kept about the removed files (docs/media.md, "What is cached") goes too.
     */
    async deleteVersions (accountId: string, assetId: string, versions: readonly string[], trx: Kysely<DB> = db): Promise<void> {
      if (versions.length === 0) return
      await trx.deleteFrom('media_versions')
        .where('account_id', '=', accountId).where('asset_id', '=', assetId).where('version', 'in', [...versions]).execute()
      noteWrite(trx, { table: 'media_versions', id: assetId, operation: 'delete' }, 'assets')
    },
    /**
     * Versions retired before `cutoff`, oldest first, of every account: the worker's sweep serves all
     * tenants, as its job queue does, and removes each version under the account it names.
     */
    async retiredBefore (cutoff: string, limit: number): Promise<Array<Pick<MediaVersionRow, 'account_id' | 'asset_id' | 'version'>>> {
      return await db.selectFrom('media_versions').select(['account_id', 'asset_id', 'version'])
        .where('state', '=', 'retired').where('updated_at', '<', cutoff).orderBy('updated_at').limit(limit).execute()
    },
    /**
     * The asset a public media URL names. The token alone is the credential (128+ random bits, like a
     * capability URL), so this is the one lookup that starts without an account: it finds exactly one asset.
     */
    async servedByToken (token: string): Promise<ServedMedia | undefined> {
      // Kept in the process's read cache under the asset, so any change of the asset (a new version, a
      // deletion, a status) drops it on every process through the invalidation bus; no bus, no cache.
      const cache = readCacheFor(db, db)
      const key = `media-token\u0000${token}`
      const cached = cache?.get(key) as ServedMedia | undefined
      if (cached !== undefined) return cached
      const epoch = cache?.epoch ?? 0
      const row = await db.selectFrom('assets')
        .leftJoin('media_versions', (join) => join.onRef('media_versions.asset_id', '=', 'assets.id')
          .onRef('media_versions.account_id', '=', 'assets.account_id').onRef('media_versions.version', '=', 'assets.media_version'))
        .select(['assets.account_id', 'assets.id', 'assets.media_version', 'assets.original_file_name', 'assets.status', 'assets.publishing_rule_id', 'assets.playback_policy', 'assets.time_restrictions', 'assets.player_id', 'media_versions.encryption_keys', 'media_versions.original_key', 'media_versions.renditions'])
        .where('assets.media_token', '=', token).executeTakeFirst()
      if (row === undefined) return undefined
      const served: ServedMedia = {
        accountId: row.account_id,
        assetId: row.id,
        version: row.media_version,
        originalKey: row.original_key ?? null,
        originalFileName: row.original_file_name,
        status: row.status,
        ruleId: row.publishing_rule_id,
        playbackPolicy: row.playback_policy,
        timeRestrictions: row.time_restrictions,
        playerId: row.player_id,
        // The served version's own: an asset whose setting changed plays its old media until the new one is live.
        encryption: row.encryption_keys == null ? 'none' : 'aes-128',
        renditions: row.renditions === null || row.renditions === undefined ? [] : JSON.parse(row.renditions) as StreamState[]
      }
      cache?.set(key, epoch, { accountId: served.accountId, table: 'assets', id: served.assetId, value: served })
      return served
    }
  }
}
