import { createReadStream, createWriteStream } from 'node:fs'
import { mkdir, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { FORMAT_WHITELIST, type RunContext } from './ffmpeg-arguments.ts'
import { runMediaTool } from './media-runner.ts'
import type { MediaTools, Rendition } from './processing-types.ts'
import { toolFailure } from './tool-output.ts'

/**
 * Downloads (docs/media.md, "Downloads"): the top rendition's segments joined into one MP4, and its
 * audio into one M4A, by remuxing (`-c copy`): nothing is decoded or encoded again. The input is our own
 * MPEG-TS, joined byte for byte (MPEG-TS segments concatenate), alone in a folder of its own, and read
 * with the same guards as every run.
 */

export const MP4_FILE = 'video.mp4'
export const M4A_FILE = 'audio.m4a'
const DOWNLOAD_TIMEOUT_MS = 300_000

export interface Downloads {
  /** Paths of the files made; null where the rendition has no such stream. */
  mp4: string | null
  m4a: string | null
}

/** The remux's argument list: a video MP4 (with the audio, if any) and an audio-only M4A, `faststart` so a browser plays before the end. */
export function downloadArgs (run: RunContext, wanted: { video: boolean, audio: boolean }): string[] {
  const input = ['-protocol_whitelist', 'file', '-format_whitelist', FORMAT_WHITELIST, '-threads', String(run.threads), '-i', `file:${run.input}`]
  const common = ['-map_metadata', '-1', '-map_chapters', '-1', '-c', 'copy', '-movflags', '+faststart']
  const mp4 = wanted.video
    ? ['-map', '0:v:0', ...(wanted.audio ? ['-map', '0:a:0', '-bsf:a', 'aac_adtstoasc'] : []), ...common, '-f', 'mp4', '-y', `${run.outDir}/${MP4_FILE}`]
    : []
  const m4a = wanted.audio
    ? ['-map', '0:a:0', '-vn', '-bsf:a', 'aac_adtstoasc', ...common, '-f', 'ipod', '-y', `${run.outDir}/${M4A_FILE}`]
    : []
  return ['-nostdin', '-hide_banner', '-loglevel', 'error', ...input, ...mp4, ...m4a]
}

/**
 * Makes the downloads of `rendition` from its segment files (in order) under `workDir`, which must be
 * empty or absent. Answers the files made.
 */
export async function makeDownloads (tools: MediaTools, rendition: Rendition, segmentFiles: string[], workDir: string, options: { signal?: AbortSignal } = {}): Promise<Downloads> {
  const video = rendition.kind === 'video'
  const audio = rendition.audioStreamIndex !== null
  if (!video && !audio) return { mp4: null, m4a: null }
  await rm(workDir, { recursive: true, force: true })
  const inDir = join(workDir, 'in')
  const outDir = join(workDir, 'out')
  await mkdir(inDir, { recursive: true })
  await mkdir(outDir, { recursive: true })
  const joined = join(inDir, 'joined.ts')
  const out = createWriteStream(joined)
  for (const file of segmentFiles) await pipeline(createReadStream(file), out, { end: false })
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => { if (error != null) reject(error); else resolve() }))
  const result = await runMediaTool(tools, {
    program: 'ffmpeg',
    args: (run) => downloadArgs(run, { video, audio }),
    inputFile: joined,
    outDir,
    what: 'Making the downloads',
    timeoutMs: DOWNLOAD_TIMEOUT_MS,
    signal: options.signal
  })
  if (result.exitCode !== 0) throw toolFailure('Making the downloads', result)
  const made = async (name: string, wanted: boolean): Promise<string | null> => {
    if (!wanted) return null
    const file = join(outDir, name)
    return await stat(file).then((s) => s.size > 0 ? file : null, () => null)
  }
  return { mp4: await made(MP4_FILE, video), m4a: await made(M4A_FILE, audio) }
}
