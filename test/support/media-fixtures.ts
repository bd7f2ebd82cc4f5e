import { execFile, spawnSync } from 'node:child_process'
import { copyFile, mkdtemp, readdir, readFile, readlink, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { promisify } from 'node:util'

/**
 * Real media for the processing tests, made by the system ffmpeg in a temporary folder, and the system
 * ffprobe used as an independent checker of what the engine wrote. Clips are short and small so the
 * suite stays fast.
 */

const run = promisify(execFile)

/** Set when this machine has no system ffmpeg/ffprobe: the media tests are skipped with this reason. */
export const mediaSkip: string | false = ['ffmpeg', 'ffprobe'].every((tool) => spawnSync(tool, ['-version'], { stdio: 'ignore' }).status === 0)
  ? false
  : 'needs ffmpeg and ffprobe on PATH (Debian: apt install ffmpeg)'

export async function makeScratchDir (prefix = 'reelhouse-media-'): Promise<string> {
  return await mkdtemp(join(tmpdir(), prefix))
}

export async function removeScratchDir (dir: string | undefined): Promise<void> {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true })
}

async function ffmpeg (args: string[]): Promise<void> {
  await run('ffmpeg', ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y', ...args])
}

export interface VideoSpec {
  width: number
  height: number
  seconds: number
  /** Default true: a 440 Hz tone as AAC. */
  audio?: boolean
  frameRate?: number
  /** Rotation metadata (the `rotate` tag, as phones write it), added without re-encoding. */
  rotate?: 90 | 180 | 270
  /**
   * `testsrc2` (default) moves and is hard to compress; `halves` is a still frame whose left half is
   * white and right half black, so a test can tell a rotated picture from a stretched one.
   */
  picture?: 'testsrc2' | 'halves'
}

/** An H.264 (+ AAC) MP4 at `file`. */
export async function makeVideo (file: string, spec: VideoSpec): Promise<string> {
  const rate = spec.frameRate ?? 30
  const size = `${spec.width}x${spec.height}`
  const picture = spec.picture === 'halves'
    ? `color=black:size=${size}:rate=${rate},drawbox=x=0:y=0:w=${spec.width / 2}:h=${spec.height}:color=white:t=fill`
    : `testsrc2=size=${size}:rate=${rate}`
  const audio = spec.audio ?? true
  const encoded = spec.rotate === undefined ? file : `${file}.unrotated.mp4`
  await ffmpeg([
    '-f', 'lavfi', '-i', picture,
    ...(audio ? ['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'] : []),
    '-t', String(spec.seconds),
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p',
    ...(audio ? ['-c:a', 'aac', '-b:a', '96k'] : []),
    encoded
  ])
  if (spec.rotate !== undefined) {
    // ffmpeg 5.1 drops a rotate tag set while encoding; set on a stream copy it becomes a display matrix.
    await ffmpeg(['-i', encoded, '-map', '0', '-c', 'copy', '-metadata:s:v:0', `rotate=${spec.rotate}`, file])
    await rm(encoded)
  }
  return file
}

/** An MP3 tone (an audio-only upload). */
export async function makeAudio (file: string, seconds: number): Promise<string> {
  await ffmpeg(['-f', 'lavfi', '-i', 'sine=frequency=330:sample_rate=44100', '-t', String(seconds), '-c:a', 'libmp3lame', '-b:a', '128k', file])
  return file
}

/**
 * A VP8 WebM written as a live stream to a pipe, as a browser's MediaRecorder writes it: no duration
 * in the header and clusters of unknown size, so ffprobe reports the duration as N/A.
 */
export async function makeStreamedWebm (file: string, seconds: number): Promise<string> {
  const { stdout } = await run('ffmpeg', [
    '-nostdin', '-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25', '-t', String(seconds),
    '-c:v', 'libvpx', '-deadline', 'realtime', '-b:v', '300k', '-live', '1', '-f', 'webm', 'pipe:1'
  ], { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 })
  await writeFile(file, stdout)
  return file
}

/** A job folder holding only a copy of `source` under `name`, as the engine requires. Answers the input path. */
export async function jobInput (root: string, source: string, name = basename(source)): Promise<string> {
  const dir = await mkdtemp(join(root, 'job-'))
  const input = join(dir, name)
  await copyFile(source, input)
  return input
}

/** A job folder holding only a file with `content`. */
export async function jobInputWith (root: string, name: string, content: string | Buffer): Promise<string> {
  const dir = await mkdtemp(join(root, 'job-'))
  const input = join(dir, name)
  await writeFile(input, content)
  return input
}

interface CheckedStream { codec_type?: string, codec_name?: string, profile?: string, level?: number, width?: number, height?: number }
export interface CheckedMedia { durationMs: number, streams: CheckedStream[] }

/** What the system ffprobe (no restrictions: it is the checker) reads from a file or playlist. */
export async function checkMedia (file: string): Promise<CheckedMedia> {
  const { stdout } = await run('ffprobe', [
    '-v', 'error', '-show_entries', 'format=duration:stream=codec_type,codec_name,profile,level,width,height', '-of', 'json', file
  ])
  const parsed = JSON.parse(stdout) as { format?: { duration?: string }, streams?: CheckedStream[] }
  return { durationMs: Math.round(Number(parsed.format?.duration) * 1000), streams: parsed.streams ?? [] }
}

/**
 * Decodes every frame of a file or playlist with the system ffmpeg; answers the position reached in
 * ms. Throws when ffmpeg reports a decoding error.
 */
export async function decodeAll (file: string): Promise<number> {
  const { stdout, stderr } = await run('ffmpeg', [
    '-nostdin', '-hide_banner', '-v', 'error', '-xerror', '-i', file, '-f', 'null', '-progress', 'pipe:1', '-nostats', '-'
  ], { maxBuffer: 16 * 1024 * 1024 })
  if (stderr.trim() !== '') throw new Error(`decoding ${file} reported: ${stderr.trim()}`)
  const times = [...stdout.matchAll(/^out_time_us=(\d+)$/gm)].map((m) => Number(m[1]))
  return Math.round(Math.max(0, ...times) / 1000)
}

/** Mean luma (0–255) of a region of the first frame of an image or video, decoded upright. */
export async function meanLuma (file: string, region: 'left' | 'right' | 'top' | 'bottom'): Promise<number> {
  const crop = { left: 'iw/2:ih:0:0', right: 'iw/2:ih:iw/2:0', top: 'iw:ih/2:0:0', bottom: 'iw:ih/2:0:ih/2' }[region]
  const { stdout } = await run('ffmpeg', [
    '-nostdin', '-v', 'error', '-i', file, '-frames:v', '1', '-vf', `crop=${crop},scale=1:1:flags=area`, '-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1'
  ], { encoding: 'buffer' })
  if (stdout.length !== 1) throw new Error(`expected one grey pixel from ${file}, got ${stdout.length} bytes`)
  return stdout[0] as number
}

/**
 * Processes whose working directory is `dir`, or with `below` a folder inside it (read from /proc; Linux
 * only): the engine runs every tool in the job folder, so this finds what a run left behind.
 */
export async function processesIn (dir: string, { below = false }: { below?: boolean } = {}): Promise<Array<{ pid: number, comm: string }>> {
  const found: Array<{ pid: number, comm: string }> = []
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const cwd = await readlink(`/proc/${entry}/cwd`)
      if (below ? !cwd.startsWith(`${dir}/`) : cwd !== dir) continue
      found.push({ pid: Number(entry), comm: (await readFile(`/proc/${entry}/comm`, 'utf8')).trim() })
    } catch { /* ended meanwhile, or another user's process */ }
  }
  return found
}
