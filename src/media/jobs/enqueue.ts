import { randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { DB, MediaJobKind } from '../../db/tables/index.ts'
import { assetPrefix } from '../store/index.ts'

interface MediaJobRequest {
  assetId: string
  kind: MediaJobKind
  /** Where the original is in the media store; a key under `assetPrefix(accountId, assetId)`. */
  originalKey: string
  /** A `captions` job's language. */
  language?: string
  /** The transition's time (stored form); now when absent. */
  now?: string
}

/**
 * Records a processing job in the caller's transaction: the one that moves the asset to `processing`
 * (the outbox pattern: the job exists if and only if that transition committed). Answers the job id.
 * @example await enqueueMediaJob(trx, accountId, { assetId, kind: 'ingest', originalKey })
 */
export async function enqueueMediaJob (trx: Kysely<DB>, accountId: string, job: MediaJobRequest): Promise<string> {
  if (!job.originalKey.startsWith(assetPrefix(accountId, job.assetId))) {
    throw new Error(`the original ${job.originalKey} is not under the asset's prefix`)
  }
  const id = randomBytes(16).toString('hex')
  const now = job.now ?? new Date().toISOString()
  await trx.insertInto('media_jobs').values({
    id,
    account_id: accountId,
    asset_id: job.assetId,
    kind: job.kind,
    original_key: job.originalKey,
    language: job.language ?? null,
    state: 'pending',
    attempts: 0,
    lease_owner: null,
    lease_until: null,
    error: null,
    created_at: now,
    updated_at: now
  }).execute()
  return id
}

/**
 * Processes an asset's served media again from its original (a change of `encryption`): a replacement
 * job, so the asset keeps playing its current media until the new version is live. Nothing when the asset
 * serves no media yet (its first processing reads the setting).
 */
export async function reprocessMedia (trx: Kysely<DB>, accountId: string, assetId: string, servedVersion: string | null): Promise<void> {
  if (servedVersion === null) return
  const row = await trx.selectFrom('media_versions').select('original_key')
    .where('account_id', '=', accountId).where('asset_id', '=', assetId).where('version', '=', servedVersion).executeTakeFirst()
  if (row === undefined) return
  await enqueueMediaJob(trx, accountId, { assetId, kind: 'replacement', originalKey: row.original_key })
}
