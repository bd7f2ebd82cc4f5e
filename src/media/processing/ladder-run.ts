import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { copyArgs, ladderArgs, SEGMENT_LIST_FILE, segmentTimes, type LadderStoryboard } from './ladder-arguments.ts'
import { FRAMES_DIR, SPRITE_NAME, STORYBOARD_DIR } from './storyboard.ts'
import { MediaToolError } from './media-errors.ts'
import { checkJobLayout, runMediaTool } from './media-runner.ts'
import type { ChildResult } from './child-supervisor.ts'
import type { MediaTools, Rendition } from './processing-types.ts'
import { defaultTranscodeTimeoutMs } from './rendition-transcode.ts'
import { crashed, inputWasUnreadable, toolFailure, unreadable } from './tool-output.ts'

/** What one job makes: the copied top rendition of standard input (or none) and the encoded ones. */
export interface LadderPlan {
  copy: Rendition | null
  encoded: Rendition[]
  /** With a copy: the longest stretch between the source's key frames, which bounds its segments. */
  keyFrameGapSeconds: number | null
  /** The storyboard, made by the same decode as the encoded renditions (a decode of its own beside a copy alone). */
  storyboard?: LadderStoryboard | null
}

/** One closed segment of a rendition, as ffmpeg listed it. */
export interface LadderSegment {
  uri: string
  durationSeconds: number
  bytes: number
}

export interface LadderOptions {
  /**
   * Called with a rendition's newly closed segments, in order, one call at a time (the next read of the
   * lists waits for it): the worker uploads them and rewrites the rendition's playlist.
   */
  onSegments: (rendition: Rendition, directory: string, segments: LadderSegment[]) => Promise<void>
  /** Called once per rendition when its run has ended well and all its segments were handed over. */
  onComplete: (rendition: Rendition, segments: LadderSegment[]) => Promise<void>
  /**
   * With a storyboard: called with the sprite sheets written since the last call (in order), and once
   * more with `complete` when the decode ended well and every sheet was handed over.
   */
  onSheets?: (directory: string, sheets: string[], complete: boolean) => Promise<void>
  signal?: AbortSignal
  /** Default: 5 min plus 4× the source duration natively, 20× with the wasm build. */
  timeoutMs?: number
  /** Test only: the encoding run reads its input at this percentage of real time (`-readrate`); 0 is off. */
  pacingPercent?: number
  /** How often the segment lists are read while ffmpeg runs (default 100 ms: a new segment is published within it). */
  pollMs?: number
}

/** A rendition's segments in order, once the ladder is complete. */
type LadderResult = Map<string, LadderSegment[]>

const SEGMENT_NAME = /^segment-\d{5}\.ts$/
/**
 * A run that stopped on damaged data after it had made segments: a file cut short (an upload of the first
 * megabytes of a video) or corrupt past some point. What was made is kept; the duration that plays, and a
 * warning, tell the rest (docs/media.md, "The duration that plays").
 */
const DAMAGED_DATA = /Invalid data found|Invalid NAL unit|missing picture in access unit|error while decoding|partial file|stream ends prematurely/i

/**
 * Makes the whole ladder (docs/media.md, "One decode for the ladder"): at most two ffmpeg runs side by
 * side, the stream copy of standard input (disk speed) and one run that decodes the source once for
 * every encoded rendition. Segments are handed to `onSegments` as ffmpeg closes them, so the caller
 * publishes while the encoders are still at work. The guards are those of every run: the input alone in
 * its folder, outputs outside it, the whitelists, the time and memory limits.
 */
export async function makeLadder (tools: MediaTools, inputFile: string, outDir: string, plan: LadderPlan, options: LadderOptions): Promise<LadderResult> {
  const all = [...(plan.copy === null ? [] : [plan.copy]), ...plan.encoded]
  if (all.length === 0) throw new Error('a ladder needs at least one rendition')
  await checkJobLayout(inputFile, outDir)
  const storyboard = plan.storyboard ?? null
  const folders = [...all.map((r) => r.name), ...(storyboard === null ? [] : [STORYBOARD_DIR, FRAMES_DIR])]
  for (const name of folders) {
    await rm(join(outDir, name), { recursive: true, force: true })
    await mkdir(join(outDir, name), { recursive: true })
  }
  const durationMs = all[0]?.sourceDurationMs ?? 0
  const times = segmentTimes(durationMs)
  const timeoutMs = options.timeoutMs ?? defaultTranscodeTimeoutMs(tools, durationMs)
  const names = folders
  // One failing run stops the other: the job fails as a whole.
  const stop = new AbortController()
  const signal = options.signal === undefined ? stop.signal : AbortSignal.any([options.signal, stop.signal])
  const runs: Array<Promise<RunOutcome>> = []
  /** The renditions of each run, and whether it ended well (its renditions are then complete). */
  const groups: Array<{ renditions: Rendition[], sheets: boolean, ended: boolean, reported: boolean }> = []
  const start = (renditions: Rendition[], what: string, args: Parameters<typeof runMediaTool>[1]['args'], sheets = false): void => {
    const group = { renditions, sheets, ended: false, reported: false }
    groups.push(group)
    runs.push(run(tools, inputFile, outDir, names, what, args, timeoutMs, signal, stop).then((outcome) => {
      group.ended = outcome.result.exitCode === 0 || outcome.damaged
      return outcome
    }))
  }
  if (plan.copy !== null) {
    const copy = plan.copy
    start([copy], `Copying the ${copy.name} rendition`, (ctx) => copyArgs(ctx, copy, times))
  }
  if (plan.encoded.length > 0 || storyboard !== null) {
    const keyFrames = plan.copy === null ? 'interval' : 'source'
    const what = plan.encoded.length > 0 ? `Making the ${plan.encoded.map((r) => r.name).join(', ')} renditions` : 'Making the storyboard'
    start(plan.encoded, what, (ctx) => ladderArgs(ctx, plan.encoded, times, keyFrames, (options.pacingPercent ?? 0) / 100, storyboard), storyboard !== null)
  }

  const seen = new Map<string, LadderSegment[]>(all.map((r) => [r.name, []]))
  let sheetsSeen = 0
  const poll = async (): Promise<void> => {
    // Runs that had ended before the lists are read: their lists are complete.
    const ended = groups.filter((g) => g.ended && !g.reported)
    if (storyboard !== null && options.onSheets !== undefined) {
      const directory = join(outDir, STORYBOARD_DIR)
      const sheets = (await readdir(directory)).filter((name) => SPRITE_NAME.test(name)).sort()
      const fresh = sheets.slice(sheetsSeen)
      const complete = ended.some((g) => g.sheets)
      if (fresh.length > 0 || complete) {
        sheetsSeen = sheets.length
        await options.onSheets(directory, fresh, complete)
      }
    }
    for (const r of all) {
      const directory = join(outDir, r.name)
      const known = seen.get(r.name) as LadderSegment[]
      const fresh = await closedSegments(directory, known.length, groups.some((g) => g.ended && g.renditions.includes(r)))
      if (fresh.length === 0) continue
      known.push(...fresh)
      await options.onSegments(r, directory, fresh)
    }
    for (const group of ended) {
      group.reported = true
      for (const r of group.renditions) {
        const segments = seen.get(r.name) ?? []
        if (segments.length === 0) throw new MediaToolError(`Making the ${r.name} rendition produced no segments.`)
        await options.onComplete(r, segments)
      }
    }
  }
  let running = true
  const finished = Promise.allSettled(runs).finally(() => { running = false })
  while (running) {
    await Promise.race([sleep(options.pollMs ?? 100), finished])
    if (running) await poll()
  }
  const outcomes = await finished
  for (const outcome of outcomes) {
    if (outcome.status === 'rejected') throw outcome.reason
  }
  const failed = outcomes.map((o) => (o as PromiseFulfilledResult<RunOutcome>).value).find((o) => o.result.exitCode !== 0 && !o.damaged)
  if (failed !== undefined) throw inputWasUnreadable(failed.result) ? unreadable(failed.result) : toolFailure(failed.what, failed.result)
  await poll()
  return seen
}

interface RunOutcome { what: string, result: ChildResult, damaged: boolean }

async function run (
  tools: MediaTools, inputFile: string, outDir: string, subdirs: string[], what: string,
  args: Parameters<typeof runMediaTool>[1]['args'], timeoutMs: number, signal: AbortSignal, stop: AbortController
): Promise<RunOutcome> {
  try {
    const result = await runMediaTool(tools, { program: 'ffmpeg', args, inputFile, outDir, outSubdirs: subdirs, what, timeoutMs, signal })
    const damaged = result.exitCode !== 0 && !crashed(result) && !signal.aborted && DAMAGED_DATA.test(result.stderrTail) && !inputWasUnreadable(result)
    if (result.exitCode !== 0 && !damaged) stop.abort()
    return { what, result, damaged }
  } catch (error) {
    stop.abort()
    throw error
  }
}

/**
 * The segments ffmpeg has closed past the first `skip`: the complete lines of its CSV list
 * (`segment-00003.ts,10.000000,16.000000`), each naming a file it finished before writing the line.
 */
async function closedSegments (directory: string, skip: number, ended: boolean): Promise<LadderSegment[]> {
  let text: string
  try {
    text = await readFile(join(directory, SEGMENT_LIST_FILE), 'utf8')
  } catch {
    return []
  }
  const lines = text.split('\n')
  // The part after the last newline is a line still being written, unless the run has ended (a run
  // stopped by damaged data leaves its last line without one).
  const last = lines.pop() as string
  if (ended && /^segment-\d{5}\.ts,[\d.]+,[\d.]+$/.test(last)) lines.push(last)
  const fresh: LadderSegment[] = []
  for (const line of lines.slice(skip)) {
    const [uri, start, end] = line.split(',')
    if (uri === undefined || !SEGMENT_NAME.test(uri)) throw new MediaToolError(`ffmpeg listed an unexpected segment: ${line.slice(0, 80)}`)
    const durationSeconds = Math.max(0, Number(end) - Number(start))
    const { size } = await stat(join(directory, uri))
    fresh.push({ uri, durationSeconds: Number.isFinite(durationSeconds) ? durationSeconds : 0, bytes: size })
  }
  return fresh
}
