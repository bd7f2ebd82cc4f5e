import type { Kysely } from 'kysely'
import type { DB, MediaVersionsTable, MediaVersionState } from '../../db/tables/index.ts'

export type MediaVersionRow = MediaVersionsTable

/** What the public media routes need to find an asset's files from its media token. */
export interface ServedMedia {
  accountId: string
  assetId: string
  /** The version the asset serves; null before its first rendition is ready. */
  version: string | null
  originalKey: string | null
  originalFileName: string | null
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
    /** Forgets versions whose files are removed. */
    async deleteVersions (accountId: string, assetId: string, versions: readonly string[], trx: Kysely<DB> = db): Promise<void> {
      if (versions.length === 0) return
      await trx.deleteFrom('media_versions')
        .where('account_id', '=', accountId).where('asset_id', '=', assetId).where('version', 'in', [...versions]).execute()
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
      const row = await db.selectFrom('assets')
        .leftJoin('media_versions', (join) => join.onRef('media_versions.asset_id', '=', 'assets.id')
          .onRef('media_versions.account_id', '=', 'assets.account_id').onRef('media_versions.version', '=', 'assets.media_version'))
        .select(['assets.account_id', 'assets.id', 'assets.media_version', 'assets.original_file_name', 'media_versions.original_key'])
        .where('assets.media_token', '=', token).executeTakeFirst()
      if (row === undefined) return undefined
      return { accountId: row.account_id, assetId: row.id, version: row.media_version, originalKey: row.original_key ?? null, originalFileName: row.original_file_name }
    }
  }
}


