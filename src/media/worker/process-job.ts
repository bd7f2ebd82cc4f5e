import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { join } from 'node:path'
import {
  makeDownloads, makeLadder, makePreview, planLadder, planStoryboard, probeMedia, standardInput,
  type LadderPlan, type MediaTools, type ProbeResult, type Rendition
} from '../processing/index.ts'
import { CONTENT_TYPES, DOWNLOAD_FILES, mediaPrefix, newMediaVersion, PREVIEW_FILE, type MediaStore } from '../store/index.ts'
import type { MediaAssets, MediaJobRef, StreamState } from '../asset-state/index.ts'
import { Publishing, VersionGone } from './publishing.ts'
import { StoryboardPublishing } from './storyboard-publishing.ts'

export interface JobContext {
  store: MediaStore
  tools: MediaTools
  assets: MediaAssets
  /** A folder of this worker's own; each job gets a fresh folder inside it. */
  scratchDir: string
  /** Test only: the encoding run reads its input at this percentage of real time (0: off). */
  pacingPercent?: number
}

/** What became of a job: `done` (playable, or the asset is gone) or `rejected` (the file is not media we process). */
export type JobOutcome = { kind: 'done' } | { kind: 'rejected', reason: string }

/**
 * Processes one job into a fresh media version (docs/media.md, "Flow"): the original is fetched into a
 * folder holding only it, probed, previewed, and the whole ladder made at once (a stream copy of standard
 * input beside one decode for the encoded renditions); segments go to the store as ffmpeg closes them,
 * and the asset serves the version as soon as one rendition has its lead of segments. A retry after a crash starts a new version and removes the dead attempt's files, so one
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
    try {
      probe = await probeMedia(tools, input, { signal })
    } catch (error) {
      return await rejectedOr(ctx, job, version, error)
    }
    // The preview is made while the key frames are read: both only read the upload.
    const previewMade = makePreview(tools, input, outDir, probe, { signal })
    previewMade.catch(() => {}) // awaited below, or left with the job's rejection
    let ladder: LadderPlan
    try {
      ladder = await ladderOf(ctx, input, probe, planLadder(probe), signal)
    } catch (error) {
      await previewMade.catch(() => {})
      return await rejectedOr(ctx, job, version, error)
    }
    const streams: StreamState[] = [...ladder.encoded, ...(ladder.copy === null ? [] : [ladder.copy])].map((r) => ({
      name: r.name, kind: r.kind, state: 'pending', width: r.width, height: r.height, bandwidth: null, average_bandwidth: null, codecs: r.codecs, duration_ms: null
    }))
    if (!await assets.saveProbe(job, version, probe, streams)) {
      await previewMade.catch(() => {})
      return await abandon(ctx, job, version)
    }

    let hasPreview = false
    try {
      const preview = await previewMade
      if (preview !== null) {
        await store.uploadFrom(preview.file, `${prefix}${PREVIEW_FILE}`, CONTENT_TYPES.preview)
        hasPreview = true
      }
    } catch (error) {
      return await rejectedOr(ctx, job, version, error)
    }

    // The storyboard comes from the ladder's own decode; its WebVTT file exists before the asset plays.
    const storyboard = storyboardOf(ctx, prefix, probe)
    await storyboard?.begin()
    const publishing = new Publishing(ctx, job, version, prefix, probe, ladder, streams, hasPreview, storyboard !== null, begun.encryption)
    let made: Awaited<ReturnType<typeof makeLadder>>
    try {
      made = await makeLadder(tools, input, outDir, { ...ladder, storyboard: storyboard === null ? null : { plan: storyboard.plan, videoStreamIndex: videoIndex(probe) } }, {
        signal,
        pacingPercent: ctx.pacingPercent ?? 0,
        onSegments: async (rendition, directory, segments) => { await publishing.segments(rendition, directory, segments) },
        onComplete: async (rendition) => { await publishing.onComplete(rendition) },
        onSheets: async (directory, sheets) => { await storyboard?.add(directory, sheets) }
      })
    } catch (error) {
      if (error instanceof VersionGone) return await abandon(ctx, job, version)
      return await rejectedOr(ctx, job, version, error)
    }
    await storyboard?.finish(playedMs(made), outDir)
    const downloads = begun.downloads ? await downloadsOf(ctx, ladder, made, outDir, join(jobDir, 'downloads'), prefix, signal) : undefined
    if (!await publishing.finish(downloads)) return await abandon(ctx, job, version)
    return { kind: 'done' }
  } finally {
    await rm(jobDir, { recursive: true, force: true })
  }
}

/**
 * With `mp4_support: "standard"`: the top rendition (at most 1080p, as every ladder is) remuxed into an
 * MP4 and its audio into an M4A, once the ladder is done; both to the store. Answers which were made.
 */
async function downloadsOf (
  ctx: JobContext, ladder: LadderPlan, made: Map<string, Array<{ uri: string }>>, outDir: string, workDir: string, prefix: string, signal: AbortSignal
): Promise<{ mp4: boolean, m4a: boolean }> {
  const top = ladder.copy ?? ladder.encoded.at(-1)
  const segments = top === undefined ? [] : made.get(top.name) ?? []
  if (top === undefined || segments.length === 0) return { mp4: false, m4a: false }
  const files = await makeDownloads(ctx.tools, top, segments.map((s) => join(outDir, top.name, s.uri)), workDir, { signal })
  if (files.mp4 !== null) await ctx.store.uploadFrom(files.mp4, `${prefix}${DOWNLOAD_FILES.mp4}`, CONTENT_TYPES.mp4)
  if (files.m4a !== null) await ctx.store.uploadFrom(files.m4a, `${prefix}${DOWNLOAD_FILES.m4a}`, CONTENT_TYPES.m4a)
  return { mp4: files.mp4 !== null, m4a: files.m4a !== null }
}

function storyboardOf (ctx: JobContext, prefix: string, probe: ProbeResult): StoryboardPublishing | null {
  const plan = planStoryboard(probe)
  return plan === null ? null : new StoryboardPublishing(ctx.store, prefix, plan)
}

function videoIndex (probe: ProbeResult): number {
  return probe.streams.find((s) => s.type === 'video')?.index ?? 0
}

/** What the renditions play: the longest of them, in milliseconds. */
function playedMs (made: Map<string, Array<{ durationSeconds: number }>>): number {
  return Math.max(0, ...[...made.values()].map((segments) => Math.round(segments.reduce((sum, s) => sum + s.durationSeconds, 0) * 1000)))
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
 * Standard input's top rendition is a copy of the source (its own size and codecs); only the lower ones
 * are encoded. Anything else is encoded whole.
 */
async function ladderOf (ctx: JobContext, input: string, probe: ProbeResult, plan: Rendition[], signal: AbortSignal): Promise<LadderPlan> {
  const top = plan.at(-1)
  const video = probe.streams.find((s) => s.type === 'video')
  if (top === undefined || top.kind !== 'video' || video === undefined) return { copy: null, encoded: plan, keyFrameGapSeconds: null }
  const verdict = await standardInput(ctx.tools, input, probe, { signal })
  if (!verdict.standard) return { copy: null, encoded: plan, keyFrameGapSeconds: null }
  const copy: Rendition = {
    ...top,
    width: video.width,
    height: video.height,
    maxFrameRate: null,
    codecs: verdict.codecs,
    videoBitRate: video.bitRate ?? probe.bitRate,
    videoMaxRate: null,
    videoBufSize: null,
    level: null
  }
  return { copy, encoded: plan.slice(0, -1), keyFrameGapSeconds: verdict.maxKeyFrameGapSeconds }
}
