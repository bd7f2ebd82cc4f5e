// `node --import tsx bench/media-processing.ts`: processing time of a 60 s 1080p clip through the service
// (HTTP upload → worker → store) beside the same ffmpeg commands run by hand on the same file, and time to
// first playable as a fraction of the clip's duration. Writes bench/results/media-processing.json.
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { loadConfig } from '../src/config/index.ts'
import { previewArgs, probeArgs, renditionArgs } from '../src/media/processing/ffmpeg-arguments.ts'
import { locateMediaTools, planLadder, probeMedia } from '../src/media/processing/index.ts'
import { serve } from '../src/server/serve.ts'
import { signedPath } from '../src/signing/index.ts'

const run = promisify(execFile)
const SECONDS = Number(process.env.BENCH_CLIP_SECONDS ?? 60)
const root = mkdtempSync(join(tmpdir(), 'reelhouse-bench-media-'))
const clip = join(root, 'clip.mp4')

async function timed (work: () => Promise<unknown>): Promise<number> {
  const started = performance.now()
  await work()
  return (performance.now() - started) / 1000
}

/** The same commands the worker runs (src/media/processing/ffmpeg-arguments.ts), by hand: no nice, no prlimit, no store. */
async function byHand (): Promise<Record<string, number>> {
  const job = join(root, 'hand-in')
  const out = join(root, 'hand-out')
  mkdirSync(job)
  mkdirSync(out)
  const input = join(job, 'source')
  writeFileSync(input, readFileSync(clip))
  const threads = Math.min(16, availableParallelism())
  const ctx = { input, outDir: out, threads }
  const tools = await locateMediaTools({ env: process.env })
  const probe = await probeMedia(tools, input)
  const plan = planLadder(probe)
  const video = probe.streams.find((s) => s.type === 'video')
  const times: Record<string, number> = {}
  times.probe = await timed(async () => await run('ffprobe', probeArgs(ctx)))
  times.preview = await timed(async () => await run('ffmpeg', previewArgs(ctx, { atSeconds: probe.durationMs / 10000, streamIndex: video?.index ?? 0, width: 640, height: 360 })))
  for (const r of plan) {
    mkdirSync(join(out, r.name))
    times[r.name] = await timed(async () => await run('ffmpeg', renditionArgs({ ...ctx, outDir: join(out, r.name) }, r), { maxBuffer: 64 * 1024 * 1024 }))
  }
  times.total = Object.values(times).reduce((a, b) => a + b, 0)
  times.firstPlayable = (times.probe ?? 0) + (times.preview ?? 0) + (times[plan[0]?.name ?? ''] ?? 0)
  return times
}

/** The service: upload over HTTP, then the worker; time to first playable and to every rendition, from upload_status. */
async function service (): Promise<{ firstPlayable: number, total: number }> {
  const dataDir = join(root, 'data')
  const server = await serve(loadConfig({
    REELHOUSE_DATA_DIR: dataDir, REELHOUSE_MASTER_KEY: '0f'.repeat(32), HOST: '127.0.0.1', API_PORT: '0', CDN_PORT: '0', TRUST_PROXY: 'true', LOG_LEVEL: 'silent', CREDITS_ENABLED: 'false'
  }), ['api', 'worker'], () => {}, { media: { pollMs: 50 } })
  try {
    const admin = JSON.parse(readFileSync(join(dataDir, 'admin-credentials.json'), 'utf8')) as { api_key: string, secret: string }
    const api = `http://127.0.0.1:${(server.apps.api?.server.address() as AddressInfo).port}`
    const call = async (method: string, path: string, body?: object): Promise<any> => {
      const text = body === undefined ? undefined : JSON.stringify(body)
      const res = await fetch(api + signedPath({ apiKey: admin.api_key, secret: admin.secret, method, path, body: text }), { method, body: text, headers: { 'x-forwarded-proto': 'https' } })
      return await res.json()
    }
    const bytes = readFileSync(clip)
    const asset = await call('POST', '/v2/assets', { asset_type: 'video', name: 'Bench', file_name: 'clip.mp4', file_size: bytes.length })
    const [url] = await call('GET', `/v2/assets/${asset.embed_code as string}/uploading_urls`) as string[]
    const chunk = new URL(url as string)
    await fetch(api + chunk.pathname + chunk.search, { method: 'PUT', body: bytes, headers: { 'x-forwarded-proto': 'https' } })
    await call('PUT', `/v2/assets/${asset.embed_code as string}/upload_status`, { status: 'uploaded' })
    const started = performance.now()
    let firstPlayable = 0
    for (;;) {
      const now = await call('GET', `/v2/assets/${asset.embed_code as string}`)
      if (now.status === 'error') throw new Error(now.processing_error)
      if (firstPlayable === 0 && now.status === 'live') firstPlayable = (performance.now() - started) / 1000
      if (now.status === 'live' && now.processing_progress === 100) return { firstPlayable, total: (performance.now() - started) / 1000 }
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  } finally {
    await server.close()
  }
}

try {
  await run('ffmpeg', ['-nostdin', '-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=1920x1080:rate=30', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000',
    '-t', String(SECONDS), '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '128k', clip])
  const loadBefore = loadavg()[0]
  const hand = await byHand()
  const svc = await service()
  const result = {
    clip: `${SECONDS} s 1920×1080 30 fps H.264 + AAC`,
    cores: availableParallelism(),
    loadAverageBefore: loadBefore,
    loadAverageAfter: loadavg()[0],
    byHand: hand,
    service: svc,
    ratio: hand.total / svc.total,
    timeToFirstPlayableFraction: svc.firstPlayable / SECONDS
  }
  mkdirSync(join(import.meta.dirname, 'results'), { recursive: true })
  writeFileSync(join(import.meta.dirname, 'results', 'media-processing.json'), JSON.stringify(result, null, 2) + '\n')
  console.log(`media processing: by hand ${hand.total.toFixed(1)} s, service ${svc.total.toFixed(1)} s, ratio ${result.ratio.toFixed(2)} (goal ≥ 0.9); ` +
    `first playable after ${svc.firstPlayable.toFixed(1)} s = ${(result.timeToFirstPlayableFraction * 100).toFixed(0)} % of the clip's ${SECONDS} s`)
} finally {
  rmSync(root, { recursive: true, force: true })
}
