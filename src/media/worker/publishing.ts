import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import {
  meanBitRate, peakBitRate, renderMediaPlaylist, SEGMENT_SECONDS,
  type LadderPlan, type LadderSegment, type ProbeResult, type Rendition
} from '../processing/index.ts'
import { CONTENT_TYPES, type MediaStore } from '../store/index.ts'
import type { MediaAssets, MediaJobRef, StreamState } from '../asset-state/index.ts'
import { encryptSegment, KEY_ROTATION_SEGMENTS, keyLine } from '../encryption/index.ts'

/** What publishing needs of the job's context: the store and the asset side. */
interface PublishingContext {
  store: MediaStore
  assets: MediaAssets
}

/**
 * A rendition enters the master playlist (the version's row marks it `in_master`; the master is rendered
 * from the row when requested), and the first one makes the asset playable, once this many of
 * its segments are in the store (or it is complete with fewer): with the 2 s first segments, a player
 * starting then has 4 s of media ahead of it while the encoders go on (docs/media.md, "Growing playlists").
 */
const PUBLISH_LEAD_SEGMENTS = 2
/** The duration shown is what the renditions play; past this difference from the header, a warning says so. */
const DURATION_TOLERANCE_MS = 1000

/** The version stopped being one this job may write (the asset was deleted, or a newer attempt took over). */
export class VersionGone extends Error {}

/**
 * Publishes a ladder while ffmpeg makes it: each closed segment goes to the store, then its rendition's
 * EVENT playlist is rewritten; a rendition with its lead is marked in the version's row as in the master
 * (with its rates), and the first to get there makes the asset serve the version. A complete
 * rendition's playlist becomes VOD with `ENDLIST`.
 * Callbacks come one at a time (makeLadder awaits each), so the state here needs no lock.
 */
export class Publishing {
  private readonly made = new Map<string, LadderSegment[]>()
  private readonly inMaster = new Set<string>()
  private readonly complete = new Set<string>()
  private published = false
  private reported = 0
  private readonly renditions: Rendition[]

  constructor (
    private readonly ctx: PublishingContext,
    private readonly job: MediaJobRef,
    private readonly version: string,
    private readonly prefix: string,
    private readonly probe: ProbeResult,
    private readonly ladder: LadderPlan,
    private readonly streams: StreamState[],
    private readonly hasPreview: boolean,
    private readonly hasStoryboard = false,
    /** An encrypted version's secret: every segment is encrypted before it leaves the job folder. */
    private readonly secret: Buffer | null = null
  ) {
    this.renditions = [...ladder.encoded, ...(ladder.copy === null ? [] : [ladder.copy])]
  }

  /** Segments ffmpeg closed: to the store, then the rendition's growing playlist. */
  async segments (r: Rendition, directory: string, fresh: LadderSegment[]): Promise<void> {
    const list = this.list(r)
    // Until the rendition is in the master its lead goes up alone, so a burst of segments (a copy runs at
    // disk speed) does not hold back the first play.
    const lead = PUBLISH_LEAD_SEGMENTS - list.length
    if (!this.inMaster.has(r.name) && lead > 0 && fresh.length > lead) {
      await this.segments(r, directory, fresh.slice(0, lead))
      return await this.segments(r, directory, fresh.slice(lead))
    }
    for (const s of fresh) {
      const key = `${this.prefix}${r.name}/${s.uri}`
      if (this.secret === null) await this.ctx.store.uploadFrom(join(directory, s.uri), key, CONTENT_TYPES.segment)
      else {
        // Its media sequence number is its place in the playlist (the IV a player uses).
        const sealed = encryptSegment(await readFile(join(directory, s.uri)), this.secret, list.length)
        await this.ctx.store.put(key, sealed, { contentType: CONTENT_TYPES.segment })
        s.bytes = sealed.length
      }
      list.push(s)
    }
    await this.putPlaylist(r, false)
    this.setStream(r, { state: 'processing', duration_ms: Math.round(seconds(list) * 1000) })
    if (this.inMaster.has(r.name)) this.setStream(r, this.masterRates(r))
    else if (list.length >= PUBLISH_LEAD_SEGMENTS) return await this.enter(r)
    await this.progress(false)
  }

  /** The rendition's run ended well: its playlist becomes VOD and its measured rates are announced. */
  async onComplete (r: Rendition): Promise<void> {
    this.complete.add(r.name)
    await this.putPlaylist(r, true)
    const { peak, mean } = this.rates(r)
    this.setStream(r, { state: 'ready', bandwidth: peak, average_bandwidth: mean, duration_ms: Math.round(seconds(this.list(r)) * 1000) })
    await this.enter(r)
  }

  /**
   * The whole ladder is made: the duration is what the renditions play, with a warning when it falls
   * short of (or passes) the header's claim by more than a second. False when the version is gone.
   */
  async finish (downloads?: { mp4: boolean, m4a: boolean }): Promise<boolean> {
    const playedMs = Math.max(...this.renditions.map((r) => Math.round(seconds(this.list(r)) * 1000)))
    const warnings = durationWarnings(playedMs, this.probe.durationMs)
    if (!await this.ctx.assets.finish(this.job, this.version, { durationMs: playedMs, warnings, downloads })) return false
    return await this.ctx.assets.saveProgress(this.job, this.version, this.streams, 100)
  }

  private list (r: Rendition): LadderSegment[] {
    let list = this.made.get(r.name)
    if (list === undefined) {
      list = []
      this.made.set(r.name, list)
    }
    return list
  }

  /** Fixed for the playlist's life: 6 s, or for segments cut at the source's key frames, 6 s plus the longest gap. */
  private targetDuration (): number {
    return this.ladder.keyFrameGapSeconds === null ? SEGMENT_SECONDS : Math.ceil(SEGMENT_SECONDS + this.ladder.keyFrameGapSeconds)
  }

  private async putPlaylist (r: Rendition, complete: boolean): Promise<void> {
    const keys = this.secret === null ? null : { every: KEY_ROTATION_SEGMENTS, line: keyLine }
    const text = renderMediaPlaylist(this.list(r), this.targetDuration(), complete, keys)
    await this.ctx.store.put(`${this.prefix}${r.name}/index.m3u8`, Buffer.from(text), { contentType: CONTENT_TYPES.playlist })
  }

  /**
   * Marks the rendition in the master in the version's row (a state change: written at once), then, for
   * the first one, makes the asset serve the version: the master names it from then on.
   */
  private async enter (r: Rendition): Promise<void> {
    if (!this.inMaster.has(r.name)) {
      this.inMaster.add(r.name)
      if (!this.complete.has(r.name)) this.setStream(r, this.masterRates(r))
    }
    this.setStream(r, { in_master: true })
    await this.progress(true)
    if (this.published) return
    const published = await this.ctx.assets.publish(this.job, this.version, { durationMs: this.probe.durationMs, hasPreview: this.hasPreview, hasStoryboard: this.hasStoryboard })
    if (published === null) throw new VersionGone('the version is gone')
    this.published = true
    // The replaced versions' renditions stay for players in the middle of them; the sweep removes them later.
    for (const old of published.replaced) {
      if (old.originalKey !== this.job.originalKey) await this.ctx.store.delete(old.originalKey)
    }
  }

  /** Measured on the segments written; while a rendition grows, at least what its encoder may peak at. */
  private rates (r: Rendition): { peak: number, mean: number } {
    const list = this.list(r)
    const playlist = { targetDurationSeconds: this.targetDuration(), segments: list }
    const sizes = list.map((s) => s.bytes)
    const measured = { peak: peakBitRate(playlist, sizes), mean: meanBitRate(playlist, sizes) }
    if (this.complete.has(r.name)) return measured
    const nominal = Math.round((r.videoMaxRate ?? (r.videoBitRate ?? 0) * 1.1) + (r.audioBitRate ?? 0))
    return { peak: Math.max(measured.peak, nominal), mean: Math.max(measured.mean, Math.round(nominal / 1.1)) }
  }

  private masterRates (r: Rendition): Partial<StreamState> {
    const { peak, mean } = this.rates(r)
    return { bandwidth: peak, average_bandwidth: mean }
  }

  private setStream (r: Rendition, changes: Partial<StreamState>): void {
    const index = this.streams.findIndex((s) => s.name === r.name)
    if (index >= 0) this.streams[index] = { ...this.streams[index] as StreamState, ...changes }
  }

  /**
   * processing_progress: 5 for the probe and preview, the rest shared by the renditions in proportion to
   * their pixels (the work x264 does; a copy counts as one pixel), each by the seconds it has made. A
   * write every 5 points at most, and at every state change.
   */
  private async progress (force: boolean): Promise<void> {
    const total = Math.max(1, this.probe.durationMs / 1000)
    let done = 0
    let weights = 0
    for (const r of this.renditions) {
      const weight = r === this.ladder.copy ? 1 : (r.width ?? 0) * (r.height ?? 0) || 1
      const fraction = this.complete.has(r.name) ? 1 : Math.min(0.99, seconds(this.list(r)) / total)
      done += weight * fraction
      weights += weight
    }
    const percent = Math.min(99, Math.floor(5 + 95 * done / weights))
    if (!force && percent - this.reported < 5) return
    this.reported = percent
    let saved: boolean
    try {
      saved = await this.ctx.assets.saveProgress(this.job, this.version, this.streams, percent)
    } catch (error) {
      // A tick is for people watching: one that fails (a database busy with other writers) is not the
      // job's failure; the next tick, or the rendition's end, says it again.
      if (force) throw error
      return
    }
    if (!saved) throw new VersionGone('the version is gone')
  }
}

function seconds (segments: LadderSegment[]): number {
  return segments.reduce((sum, s) => sum + s.durationSeconds, 0)
}

/** "The file ends after 3.8 s of its 60 s: it may be cut short." */
function durationWarnings (playedMs: number, claimedMs: number): string[] {
  if (Math.abs(playedMs - claimedMs) <= DURATION_TOLERANCE_MS) return []
  const played = (playedMs / 1000).toFixed(1)
  const claimed = Number.isInteger(claimedMs / 1000) ? String(claimedMs / 1000) : (claimedMs / 1000).toFixed(1)
  return playedMs < claimedMs
    ? [`The file ends after ${played} s of its ${claimed} s: it may be cut short.`]
    : [`The file plays for ${played} s, though its header says ${claimed} s.`]
}
