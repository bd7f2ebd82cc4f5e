import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { join } from 'node:path'
import {
  makePreview, masterPlaylist, planLadder, probeMedia, transcodeRendition,
  type MediaTools, type ProbeResult, type Rendition, type RenditionOutput
} from '../processing/index.ts'
import { CONTENT_TYPES, MASTER_FILE, mediaPrefix, newMediaVersion, PREVIEW_FILE, type MediaStore } from '../store/index.ts'
import type { MediaAssets, MediaJobRef, StreamState } from '../asset-state/index.ts'

export interface JobContext {
  store: MediaStore
  tools: MediaTools
  assets: MediaAssets
  /** A folder of this worker's own; each job gets a fresh folder inside it. */
  scratchDir: string
}

/** What became of a job: `done` (playable, or the asset is gone) or `rejected` (the file is not media we process). */
export type JobOutcome = { kind: 'done' } | { kind: 'rejected', reason: string }

/**
 * Processes one job into a fresh media version (docs/media.md, "Flow"): the original is fetched into a
 * folder holding only it, probed, previewed, and the ladder made lowest first; each rendition's files go
 * to the store under the version's prefix, then the master playlist; after the first, the asset serves
 * the version. A retry after a crash starts a new version and removes the dead attempt's files, so one
 * set of renditions remains. Errors other than a rejection are thrown for the caller to retry.
 */
export async function processJob (ctx: JobContext, job: MediaJobRef, signal: AbortSignal): Promise<JobOutcome> {
  const { store, tools, assets } = ctx
  const version = newMediaVersion()
  const prefix = mediaPrefix(job.accountId, job.assetId, version)
  const begun = await assets.begin(job, version)
  if (begun === null) return { kind: 'done' }
  await removeVersions(ctx, job, begun.leftovers)

  const jobDir = await mkdtemp(join(ctx.scratchDir, 'job-'))
  try {
    // The input folder holds only the upload (the engine checks it); outputs go beside it.
    const input = join(jobDir, 'in', 'source')
    const outDir = join(jobDir, 'out')
    await mkdir(join(jobDir, 'in'))
    await mkdir(outDir)
    await store.downloadTo(job.originalKey, input)

    let probe: ProbeResult
    let plan: Rendition[]
    try {
      probe = await probeMedia(tools, input, { signal })
      plan = planLadder(probe)
    } catch (error) {
      return await rejectedOr(ctx, job, version, error)
    }
    const streams: StreamState[] = plan.map((r) => ({
      name: r.name, kind: r.kind, state: 'pending', width: r.width, height: r.height, bandwidth: null, average_bandwidth: null, codecs: r.codecs, duration_ms: null
    }))
    if (!await assets.saveProbe(job, version, probe, streams)) return await abandon(ctx, job, version)

    let hasPreview = false
    try {
      const preview = await makePreview(tools, input, outDir, probe, { signal })
      if (preview !== null) {
        await store.uploadFrom(preview.file, `${prefix}${PREVIEW_FILE}`, CONTENT_TYPES.preview)
        hasPreview = true
      }
    } catch (error) {
      return await rejectedOr(ctx, job, version, error)
    }

    const progress = progressOf(plan)
    const done: RenditionOutput[] = []
    for (const [index, rendition] of plan.entries()) {
      streams[index] = { ...streams[index] as StreamState, state: 'processing' }
      let reported = progress(index, 0)
      if (!await assets.saveProgress(job, version, streams, reported)) return await abandon(ctx, job, version)
      let output: RenditionOutput
      // Progress writes run one after another and are awaited before the next step, so a late one never
      // lands after the rendition's final state.
      let writing: Promise<unknown> = Promise.resolve()
      try {
        output = await transcodeRendition(tools, input, outDir, rendition, {
          signal,
          onProgress: (fraction) => {
            const percent = progress(index, fraction)
            // A write every 5 points at most: progress is for people, not a log.
            if (percent - reported >= 5) {
              reported = percent
              writing = writing.then(async () => await assets.saveProgress(job, version, streams, percent)).catch(() => { /* the end of the rendition says it again */ })
            }
          }
        })
      } catch (error) {
        await writing
        return await rejectedOr(ctx, job, version, error)
      }
      await writing
      // Segments first, then the media playlist, then the master: a reader never finds a name that is not there yet.
      const folder = `${prefix}${rendition.name}/`
      for (const file of output.files.slice(1)) await store.uploadFrom(join(output.directory, file), `${folder}${file}`, CONTENT_TYPES.segment)
      await store.uploadFrom(join(output.directory, output.files[0] as string), `${folder}${output.files[0] as string}`, CONTENT_TYPES.playlist)
      done.push(output)
      await store.put(`${prefix}${MASTER_FILE}`, Buffer.from(masterPlaylist(done)), { contentType: CONTENT_TYPES.playlist })
      await rm(output.directory, { recursive: true, force: true })
      streams[index] = {
        ...streams[index] as StreamState, state: 'ready', bandwidth: output.bandwidth, average_bandwidth: output.averageBandwidth, duration_ms: output.durationMs
      }
      if (index === 0) {
        const published = await assets.publish(job, version, { durationMs: probe.durationMs, hasPreview })
        if (published === null) return await abandon(ctx, job, version)
        // The replaced versions' renditions stay for players in the middle of them; the sweep removes them later.
        for (const old of published.replaced) {
          if (old.originalKey !== job.originalKey) await store.delete(old.originalKey)
        }
      }
      if (!await assets.saveProgress(job, version, streams, progress(index + 1, 0))) return await abandon(ctx, job, version)
    }
    return { kind: 'done' }
  } finally {
    await rm(jobDir, { recursive: true, force: true })
  }
}

/** A rejection (the file is not media we process) ends the job; anything else is for the caller to retry. */
async function rejectedOr (ctx: JobContext, job: MediaJobRef, version: string, error: unknown): Promise<JobOutcome> {
  if ((error as { code?: string }).code !== 'media_rejected') throw error
  const reason = (error as Error).message
  await ctx.assets.fail(job, version, reason)
  await removeVersions(ctx, job, [version])
  return { kind: 'rejected', reason }
}

/** The asset was deleted, or a newer attempt took over: this version's files go. */
async function abandon (ctx: JobContext, job: MediaJobRef, version: string): Promise<JobOutcome> {
  await removeVersions(ctx, job, [version])
  return { kind: 'done' }
}

/** Removes versions' files from the store, then forgets them. */
export async function removeVersions (ctx: Pick<JobContext, 'store' | 'assets'>, job: Pick<MediaJobRef, 'accountId' | 'assetId'>, versions: string[]): Promise<void> {
  for (const v of versions) await ctx.store.deletePrefix(mediaPrefix(job.accountId, job.assetId, v))
  await ctx.assets.forget(job, versions)
}

/**
 * processing_progress: 5 for the probe and preview, the rest shared by the renditions in proportion to
 * their pixels (the work x264 does), so the bar moves evenly.
 */
function progressOf (plan: Rendition[]): (index: number, fraction: number) => number {
  const weights = plan.map((r) => (r.width ?? 0) * (r.height ?? 0) || 1)
  const total = weights.reduce((a, b) => a + b, 0)
  return (index, fraction) => {
    const before = weights.slice(0, index).reduce((a, b) => a + b, 0)
    const current = (weights[index] ?? 0) * Math.min(1, Math.max(0, fraction))
    return Math.min(100, Math.floor(5 + 95 * (before + current) / total))
  }
}
