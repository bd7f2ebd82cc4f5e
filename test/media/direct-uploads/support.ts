// Helpers of the direct upload tests: tus-js-client in Node against a listening api, the service's
// absolute URLs (PUBLIC_API_URL) sent to the chosen listener instead.
import { execFile } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { appendFile, readFile } from 'node:fs/promises'
import { promisify } from 'node:util'
import * as tus from 'tus-js-client'
import { PUBLIC_API_URL } from '../e2e/support.ts'

/** A tus HTTP stack that sends the service's absolute URLs to `api` (an http://127.0.0.1:port listener). */
export function stackTo (api: string): tus.HttpStack {
  const inner = new tus.DefaultHttpStack({})
  return {
    createRequest: (method, url) => inner.createRequest(method, url.startsWith(PUBLIC_API_URL) ? api + url.slice(PUBLIC_API_URL.length) : url),
    getName: () => 'rewriting'
  }
}

export interface TusRun { upload: tus.Upload, done: Promise<void> }

/** Starts a tus upload of `bytes`; `onHalf` runs once, when at least half has been acknowledged. */
export function startTus (api: string, bytes: Buffer, options: { endpoint?: string, uploadUrl?: string, chunkSize: number, onHalf?: (upload: tus.Upload) => void }): TusRun {
  let upload: tus.Upload
  let halfSeen = false
  const done = new Promise<void>((resolve, reject) => {
    upload = new tus.Upload(bytes, {
      ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }),
      ...(options.uploadUrl === undefined ? {} : { uploadUrl: options.uploadUrl }),
      chunkSize: options.chunkSize,
      retryDelays: [],
      metadata: { filename: 'clip.mp4', filetype: 'video/mp4' },
      headers: { 'x-forwarded-proto': 'https' },
      httpStack: stackTo(api),
      onChunkComplete: (_size, sent, total) => {
        if (!halfSeen && options.onHalf !== undefined && sent >= total / 2) {
          halfSeen = true
          options.onHalf(upload)
        }
      },
      onSuccess: () => { resolve() },
      onError: (error) => { reject(error) }
    })
    upload.start()
  })
  return { upload: upload!, done }
}

export function sha256 (bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex')
}

/**
 * A real MP4 of about `bytes`: 2 s of H.264 noise at a quantiser that keeps it large, so processing is
 * real and the file is big enough to be cut in the middle.
 */
export async function noisyMp4 (file: string, bytes: number): Promise<Buffer> {
  const frames = 48
  const perFrame = Math.ceil(bytes / frames)
  const side = Math.max(64, Math.ceil(Math.sqrt(perFrame / 1.6) / 16) * 16)
  await promisify(execFile)('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', `nullsrc=s=${side}x${side}:r=24:d=2,geq=random(1)*255:128:128`,
    '-c:v', 'libx264', '-preset', 'ultrafast', '-qp', '0', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', file])
  const made = await readFile(file)
  if (made.length >= bytes / 2) return made
  await appendFile(file, randomBytes(bytes - made.length))
  return await readFile(file)
}

/**
 * A real MP4 of exactly `bytes`: a small 2 s H.264 clip (moov first) followed by random bytes, so an
 * upload is as large as a test needs while processing stays quick.
 */
export async function paddedMp4 (file: string, bytes: number): Promise<Buffer> {
  await promisify(execFile)('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=s=160x90:r=24:d=2',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', file])
  const made = await readFile(file)
  if (made.length < bytes) await appendFile(file, randomBytes(bytes - made.length))
  return await readFile(file)
}
