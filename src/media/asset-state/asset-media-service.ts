import type { Kysely } from 'kysely'
import type { Caller } from '../../auth/caller.ts'
import { lockAccount, withAccountLock, withRowWrite } from '../../db/account-lock.ts'
import type { Database } from '../../db/index.ts'
import type { DB } from '../../db/tables/index.ts'
import { storedTime, type Clock } from '../../lib/clock.ts'
import { urlSafeId } from '../../lib/ids.ts'
import type { MediaAssets, MediaJobRef, StreamState } from './asset-media-port.ts'
import { createAssetsRepository, toApiAsset, type AssetChanges, type AssetRow, type AssetsService } from '../../resources/assets/index.ts'
import { recordEvents } from '../../webhooks/index.ts'
import type { ProbeResult } from '../processing/index.ts'
import { jobStanding, renditionPercent, type JobStanding } from './job-standing.ts'
import { mediaUrls } from './media-urls.ts'
import { toSourceProbe } from './source-probe.ts'
import { createMediaVersionsRepository } from './media-versions-repository.ts'
import type { ApiStreams } from './streams-schemas.ts'
import type { SecretBox } from '../../secrets/index.ts'
import { contentKey, newVersionSecret } from '../encryption/index.ts'

export interface AssetMediaDeps {
  database: Database
  clock: Clock
  /** PUBLIC_API_URL: media URLs in answers start with it (never with a request's Host). */
  mediaBaseUrl: string
  /** Seals an encrypted version's secret with the master key (docs/playback.md, "Encryption"). */
  secrets: SecretBox
}

/**
 * The asset side of processing: the state changes the media worker makes (`MediaAssets`) and
 * `GET /v2/assets/:id/streams`. Each state change is one transaction under the account's lock, like an
 * API write, whose index update follows from the asset's row it changes. A progress tick is one write on
 * the version's own row, without the lock: it moves neither the asset's `updated_at` nor its search
 * document, and the caches still forget the answers that show it (docs/media.md, "State").
 */
export function createAssetMediaService ({ database, clock, mediaBaseUrl, secrets }: AssetMediaDeps, assets: Pick<AssetsService, 'find'>) {
  const assetRows = createAssetsRepository(database.db)
  const versions = createMediaVersionsRepository(database.db)

  /**
   * Runs `work` on the job's asset under its account's lock; null when the asset is gone. `event`: a
   * webhook event the change means that the asset's own change records cannot tell (`asset.ready`),
   * recorded in the same transaction with the asset as it is after the change.
   */
  async function onAsset<T> (job: MediaJobRef, work: (trx: Kysely<DB>, asset: AssetRow, now: string) => Promise<{ changes?: AssetChanges, result: T, event?: string }>): Promise<T | null> {
    return await withAccountLock(database, job.accountId, async (trx) => {
      const asset = await assetRows.findByRef(job.accountId, job.assetId, undefined, trx)
      if (asset?.id !== job.assetId) return null
      const now = storedTime(clock.now())
      const { changes, result, event } = await work(trx, asset, now)
      if (changes !== undefined) {
        await assetRows.update(job.accountId, asset, { ...changes, updated_at: now }, trx)
      }
      if (event !== undefined) {
        const after = await assetRows.findByRef(job.accountId, job.assetId, undefined, trx)
        if (after !== undefined) await recordEvents(trx, job.accountId, [{ type: event, data: toApiAsset(after) }], clock.now())
      }
      return result
    })
  }

  /**
   * `asset.rendition.ready` for each rendition that became ready in this write (it was not in the
   * version's stored states): the rendition as `GET /v2/assets/:id/streams` shows it, with its URL. A
   * version not yet published has no URLs: its ready renditions are announced when it is (`publish`).
   */
  async function renditionEvents (trx: Kysely<DB>, job: MediaJobRef, version: string, before: string, streams: readonly StreamState[]): Promise<void> {
    const wasReady = new Set((JSON.parse(before) as StreamState[]).filter((s) => s.state === 'ready').map((s) => s.name))
    const fresh = streams.filter((s) => s.state === 'ready' && !wasReady.has(s.name))
    if (fresh.length === 0) return
    // Events are recorded under the account's lock (their order is the listen stream's).
    await lockAccount(trx, database.dialect, job.accountId)
    const asset = await assetRows.findByRef(job.accountId, job.assetId, undefined, trx)
    if (asset?.id !== job.assetId || asset.media_version !== version || asset.media_token === null) return
    await renditionsReady(trx, job.accountId, asset.id, version, asset.media_token, fresh)
  }

  async function renditionsReady (trx: Kysely<DB>, accountId: string, assetId: string, version: string, token: string, ready: readonly StreamState[]): Promise<void> {
    if (ready.length === 0) return
    const base = mediaUrls(mediaBaseUrl, token)
    await recordEvents(trx, accountId, ready.map((s) => ({
      type: 'asset.rendition.ready',
      data: { embed_code: assetId, version, rendition: { ...s, url: base.rendition(version, s.name), percent: 100 } }
    })), clock.now())
  }

  /** Whether `version` is still one this job may write (not discarded by a newer attempt, nor retired). */
  async function live (trx: Kysely<DB>, job: MediaJobRef, version: string): Promise<boolean> {
    const row = await versions.find(job.accountId, job.assetId, version, trx)
    return row !== undefined && row.state !== 'discarded' && row.state !== 'retired'
  }

  /**
   * What the completion of a direct upload dropped from a new asset's settings (a label, player or rule
   * deleted meanwhile): the first media of that asset carries these among its warnings.
   */
  async function settingsWarnings (trx: Kysely<DB>, job: MediaJobRef): Promise<string[]> {
    if (job.kind !== 'ingest') return []
    const row = await trx.selectFrom('direct_uploads').select('warnings')
      .where('account_id', '=', job.accountId).where('asset_id', '=', job.assetId).executeTakeFirst()
    return row?.warnings == null ? [] : JSON.parse(row.warnings) as string[]
  }

  const warningsText = (warnings: readonly string[]): string | null => warnings.length === 0 ? null : JSON.stringify(warnings)

  const port: MediaAssets = {
    async begin (job, version) {
      return await onAsset(job, async (trx, asset, now) => {
        // Versions of dead attempts (a worker killed mid-job) are discarded; their files are leftovers.
        const stale = await versions.inStates(job.accountId, job.assetId, ['processing', 'discarded'], null, trx)
        for (const row of stale) await versions.update(job.accountId, job.assetId, row.version, { state: 'discarded', updated_at: now }, trx)
        // An encrypted version's keys all come from one secret, sealed in its row before any segment exists.
        const secret = asset.encryption === 'aes-128' ? newVersionSecret() : null
        await versions.insert({
          account_id: job.accountId, asset_id: job.assetId, version, job_id: job.jobId, state: 'processing', original_key: job.originalKey,
          probe: null, has_preview: 0, renditions: '[]', progress: 0, created_at: now, updated_at: now,
          encryption_keys: secret === null ? null : secrets.encrypt(secret.toString('hex'))
        }, trx)
        const settings = await settingsWarnings(trx, job)
        const leftovers = stale.map((row) => row.version).filter((v) => v !== asset.media_version)
        return { changes: { processing_progress: 0, processing_error: null, ...(settings.length === 0 ? {} : { processing_warnings: warningsText(settings) }) }, result: { leftovers, downloads: asset.mp4_support === 'standard', encryption: secret } }
      })
    },
    async saveProbe (job, version, probe, streams) {
      return await onAsset(job, async (trx, _asset, now) => {
        if (!await live(trx, job, version)) return { result: false }
        const probeText = JSON.stringify(probe)
        await versions.update(job.accountId, job.assetId, version, { probe: probeText, renditions: JSON.stringify(streams), updated_at: now }, trx)
        // source_file_info shows the media the asset plays; a replacement's probe waits until it is published.
        return { changes: job.kind === 'ingest' ? { source_probe: JSON.stringify(toSourceProbe(probe)) } : undefined, result: true }
      }) ?? false
    },
    async saveProgress (job, version, streams, progress) {
      const changes = { renditions: JSON.stringify(streams), progress, updated_at: storedTime(clock.now()) }
      return await withRowWrite(database, job.accountId, async (trx) => {
        const before = await versions.find(job.accountId, job.assetId, version, trx)
        const saved = await versions.saveProgress(job.accountId, job.assetId, version, changes, trx)
        if (saved && before !== undefined) await renditionEvents(trx, job, version, before.renditions, streams)
        return saved
      })
    },
    async publish (job, version, { durationMs, hasPreview, hasStoryboard = false }) {
      return await onAsset(job, async (trx, asset, now) => {
        const row = await versions.find(job.accountId, job.assetId, version, trx)
        if (row === undefined || row.state === 'discarded' || row.state === 'retired') return { result: null }
        if (asset.media_version === version) return { result: { replaced: [] } }
        const replaced = await versions.inStates(job.accountId, job.assetId, ['current'], version, trx)
        for (const old of replaced) await versions.update(job.accountId, job.assetId, old.version, { state: 'retired', updated_at: now }, trx)
        await versions.update(job.accountId, job.assetId, version, { state: 'current', has_preview: hasPreview ? 1 : 0, updated_at: now }, trx)
        const token = asset.media_token ?? urlSafeId(32)
        const urls = mediaUrls(mediaBaseUrl, token)
        // The renditions made before the version was published are announced now, with their URLs.
        await renditionsReady(trx, job.accountId, asset.id, version, token, (JSON.parse(row.renditions) as StreamState[]).filter((s) => s.state === 'ready'))
        const changes: AssetChanges = {
          media_token: token,
          media_version: version,
          source_probe: row.probe === null ? null : JSON.stringify(toSourceProbe(JSON.parse(row.probe) as ProbeResult)),
          duration: durationMs,
          preview_image_url: hasPreview ? urls.preview : null,
          stream_urls: JSON.stringify({ iphone: urls.master, ipad: urls.master, source_file: urls.source, ...(hasStoryboard ? { storyboard: urls.storyboard } : {}) }),
          processing_error: null,
          processing_warnings: warningsText(await settingsWarnings(trx, job)),
          // A new asset becomes playable; a replaced one keeps the status it has (live or paused).
          ...(asset.status === 'processing' || asset.status === 'error' ? { status: asset.post_processing_status } : {})
        }
        return { changes, result: { replaced: replaced.map((old) => ({ version: old.version, originalKey: old.original_key })) } }
      })
    },
    async finish (job, version, { durationMs, warnings, downloads }) {
      return await onAsset(job, async (trx, asset, now) => {
        if (!await live(trx, job, version)) return { result: false }
        if (asset.media_version !== version) return { result: true }
        // The whole ladder is made: the asset is ready (it became playable with its first rendition),
        // at 100 % in the same write, so that the event shows it so.
        await versions.update(job.accountId, job.assetId, version, { progress: 100, updated_at: now }, trx)
        const urls = asset.media_token === null ? null : mediaUrls(mediaBaseUrl, asset.media_token)
        const streams = downloads === undefined || urls === null || asset.stream_urls === null
          ? {}
          : { stream_urls: JSON.stringify({ ...JSON.parse(asset.stream_urls) as object, ...(downloads.mp4 ? { mp4: urls.mp4 } : {}), ...(downloads.m4a ? { m4a: urls.m4a } : {}) }) }
        return { changes: { duration: durationMs, processing_warnings: warningsText([...await settingsWarnings(trx, job), ...warnings]), ...streams }, result: true, event: 'asset.ready' }
      }) ?? false
    },
    async fail (job, version, reason) {
      await onAsset(job, async (trx, asset, now) => {
        if (version !== null && await live(trx, job, version)) {
          await versions.update(job.accountId, job.assetId, version, { state: 'discarded', updated_at: now }, trx)
        }
        // An asset that has playable media (a replacement, or a retry after publishing) keeps playing it.
        const playable = asset.media_version !== null && asset.media_version !== version
        return { changes: { processing_error: reason, processing_progress: playable ? 100 : 0, ...(playable ? {} : { status: 'error' }) }, result: undefined }
      })
    },
    async forget (job, gone) {
      await withRowWrite(database, job.accountId, async (trx) => { await versions.deleteVersions(job.accountId, job.assetId, gone, trx) })
    },
    async deletedWithMedia (cutoff, limit) {
      return (await assetRows.mediaToRemove(cutoff, limit)).map((row) => ({ accountId: row.account_id, assetId: row.id }))
    },
    async markMediaRemoved (accountId, assetId) {
      await assetRows.markMediaRemoved(accountId, assetId, storedTime(clock.now()))
    },
    async retiredBefore (cutoff, limit) {
      return (await versions.retiredBefore(cutoff, limit)).map((row) => ({ accountId: row.account_id, assetId: row.asset_id, version: row.version }))
    }
  }

  return {
    ...port,
    /** `GET /v2/assets/:id/streams`: the renditions of the version being made, else of the one served. */
    async streams (caller: Caller, ref: string): Promise<ApiStreams> {
      const asset = await assets.find(caller, ref)
      const row = await versions.latest(caller.accountId, asset.id)
      const processing = await jobStanding(database.db, caller.accountId, asset.id, row, clock.now())
      if (row === undefined) return { items: [], processing }
      const streams = JSON.parse(row.renditions) as StreamState[]
      const base = asset.media_token === null ? null : mediaUrls(mediaBaseUrl, asset.media_token)
      const sourceMs = row.probe === null ? 0 : (JSON.parse(row.probe) as ProbeResult).durationMs
      return {
        items: streams.map((s) => ({
          ...s,
          url: s.state === 'ready' && base !== null && row.state !== 'discarded' ? base.rendition(row.version, s.name) : null,
          percent: renditionPercent(s, sourceMs)
        })),
        processing
      }
    },
    /**
     * A user chose the preview of `version` (`PUT primary_preview_image`): the asset's preview_image_url
     * names it (an audio asset had none), or is `remoteUrl`, stored as given and never fetched. `version`
     * null: an asset without media of its own (remote, YouTube…), whose preview can only be a remote URL.
     * False when the asset serves another version by now.
     */
    async previewChosen (caller: Caller, assetId: string, version: string | null, remoteUrl?: string): Promise<boolean> {
      return await withAccountLock(database, caller.accountId, async (trx) => {
        const asset = await assetRows.findByRef(caller.accountId, assetId, undefined, trx)
        if (asset?.id !== assetId || asset.media_version !== version) return false
        const now = storedTime(clock.now())
        if (version === null || asset.media_token === null) {
          if (remoteUrl === undefined || version !== null) return false
          await assetRows.update(caller.accountId, asset, { preview_image_url: remoteUrl, updated_at: now }, trx)
          return true
        }
        if (remoteUrl === undefined) await versions.update(caller.accountId, assetId, version, { has_preview: 1, updated_at: now }, trx)
        await assetRows.update(caller.accountId, asset, { preview_image_url: remoteUrl ?? mediaUrls(mediaBaseUrl, asset.media_token).preview, updated_at: now }, trx)
        return true
      })
    },
    /**
     * `processing` of the assets of a page (or one) whose media job is not over: queued, running, or
     * playable with renditions still being made. Read per such asset at request time (a queue position
     * moves as other jobs are taken); settled assets need no query.
     */
    async processingOf (accountId: string, rows: ReadonlyArray<{ id: string }>): Promise<Map<string, JobStanding | null>> {
      const standings = new Map<string, JobStanding | null>()
      for (const { id } of rows) {
        const row = await versions.latest(accountId, id)
        const standing = await jobStanding(database.db, accountId, id, row, clock.now())
        standings.set(id, standing?.state === 'queued' || standing?.state === 'running' ? standing : null)
      }
      return standings
    },
    /**
     * The `index`th content key of an encrypted version (a key URI's answer), unsealed from the version's
     * row, with the names of the version's renditions (their segments tell which indexes its playlists
     * name); undefined for a clear or unknown version.
     */
    async contentKey (accountId: string, assetId: string, version: string, index: number): Promise<{ key: Buffer, renditions: string[] } | undefined> {
      const row = await versions.find(accountId, assetId, version)
      if (row?.encryption_keys == null || row.state === 'discarded') return undefined
      const renditions = (JSON.parse(row.renditions) as StreamState[]).map((r) => r.name)
      return { key: contentKey(Buffer.from(secrets.decrypt(row.encryption_keys), 'hex'), index), renditions }
    },
    /** The asset a public media URL's token names (src/media/serving). */
    servedByToken: versions.servedByToken
  }
}

export type AssetMediaService = ReturnType<typeof createAssetMediaService>
