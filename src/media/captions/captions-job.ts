import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { probeMedia, type MediaTools } from '../processing/index.ts'
import type { MediaStore } from '../store/index.ts'
import type { Cue } from '../../resources/assets/index.ts'
import { transcribe, type CaptionEngineChoice } from './caption-engines.ts'

/** Where a generated track goes: the asset's captions (an uploaded track of the language is kept instead). */
export interface GeneratedCaptionsSink {
  /** Stores the track; false when it was not (the asset is gone, or has an uploaded track of the language). */
  storeGenerated: (accountId: string, assetId: string, language: string, engine: string, cues: Cue[]) => Promise<boolean>
}

export interface CaptionsJobContext {
  store: MediaStore
  tools: MediaTools
  engine: CaptionEngineChoice
  sink: GeneratedCaptionsSink
  scratchDir: string
}

export interface CaptionsJob {
  accountId: string
  assetId: string
  language: string
  originalKey: string
}

/** How long the engine may take, at most, for each second of media (and never less than five minutes). */
const TIMEOUT_PER_MEDIA_SECOND_MS = 20_000

/**
 * Transcribes the asset's uploaded original into a generated track: fetched into a folder holding only
 * it, its duration probed, the engine run, the cues stored. Answers how many cues were stored (0: none heard).
 */
export async function runCaptionsJob (ctx: CaptionsJobContext, job: CaptionsJob, signal: AbortSignal): Promise<number> {
  if (ctx.engine.name === 'off') throw new Error(ctx.engine.reason)
  const jobDir = await mkdtemp(join(ctx.scratchDir, 'captions-'))
  try {
    const input = join(jobDir, 'in', 'source')
    const outDir = join(jobDir, 'out')
    await mkdir(join(jobDir, 'in'))
    await mkdir(outDir)
    await ctx.store.downloadTo(job.originalKey, input)
    const probe = await probeMedia(ctx.tools, input, { signal })
    const timeoutMs = Math.max(300_000, Math.ceil(probe.durationMs / 1000) * TIMEOUT_PER_MEDIA_SECOND_MS)
    const cues = await transcribe(ctx.engine, ctx.tools, { input, outDir, language: job.language, durationMs: probe.durationMs, timeoutMs, signal })
    if (cues.length === 0) return 0
    return await ctx.sink.storeGenerated(job.accountId, job.assetId, job.language, ctx.engine.name, cues) ? cues.length : 0
  } finally {
    await rm(jobDir, { recursive: true, force: true })
  }
}
