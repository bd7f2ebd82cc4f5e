// `node --import tsx bench/media-processing.ts`: publishing figures through the service (HTTP upload →
// worker → store), each measured in one run (docs/media.md):
//   - time to first playable, from upload_status to `live`, for a 60 s and a 10 min 1080p standard clip
//     (goal ≤ 2 s) and a 60 s 1080p MPEG-2 clip (goal ≤ 0.15× its duration);
//   - on the 60 s standard clip, the whole job's CPU seconds and wall time against the one-run-per-
//     rendition way (the old ladder, by hand; goal ≤ 0.6×) and against the same commands as the worker's
//     run by hand, storyboard and frame branches included (goal ≥ 0.9× as fast).
// BENCH_CLIP_SECONDS (60) and BENCH_LONG_SECONDS (600) shrink the clips for a smoke run.
// Writes bench/results/media-processing.json.
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { loadConfig } from '../src/config/index.ts'
import { previewArgs, probeArgs, renditionArgs } from '../src/media/processing/ffmpeg-arguments.ts'
import { copyArgs, ladderArgs, segmentTimes } from '../src/media/processing/ladder-arguments.ts'
import { FRAMES_DIR, locateMediaTools, planLadder, planStoryboard, probeMedia, standardInput } from '../src/media/processing/index.ts'
import { STORYBOARD_DIR } from '../src/media/processing/storyboard.ts'
import { serve } from '../src/server/serve.ts'
import { signedPath } from '../src/signing/index.ts'

const run = promisify(execFile)
const SECONDS = Number(process.env.BENCH_CLIP_SECONDS ?? 60)
const LONG_SECONDS = Number(process.env.BENCH_LONG_SECONDS ?? 600)
const root = mkdtempSync(join(tmpdir(), 'reelhouse-bench-media-'))

/** CPU seconds of this process's reaped children (ffmpeg and ffprobe, run by hand or by the worker), from /proc. */
function childCpuSeconds (): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? []
  // After "pid (comm) ": state is field 3, so cutime (16) and cstime (17) are at 13 and 14 here.
  return (Number(fields[13]) + Number(fields[14])) / 100
}

async function measured (work: () => Promise<unknown>): Promise<{ wall: number, cpu: number }> {
  const cpu = childCpuSeconds()
  const started = performance.now()
  await work()
  return { wall: (performance.now() - started) / 1000, cpu: childCpuSeconds() - cpu }
}

async function makeClip (name: string, seconds: number, video: string[], audio = ['-c:a', 'aac', '-b:a', '128k']): Promise<string> {
  const file = join(root, name)
  await run('ffmpeg', ['-nostdin', '-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=1920x1080:rate=30', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000',
    '-t', String(seconds), ...video, ...audio, file], { maxBuffer: 64 * 1024 * 1024 })
  return file
}

/** A job folder holding only a copy of the clip, and an output folder beside it, as the worker makes them. */
function jobFolders (clip: string, name: string): { input: string, out: string } {
  const job = join(root, `${name}-in`)
  const out = join(root, `${name}-out`)
  mkdirSync(job)
  mkdirSync(out)
  const input = join(job, 'source')
  writeFileSync(input, readFileSync(clip))
  return { input, out }
}

/** The old way, by hand: probe, preview, then one ffmpeg run per rendition, each decoding the source again. */
async function onePerRendition (clip: string): Promise<{ wall: number, cpu: number }> {
  const { input, out } = jobFolders(clip, 'per-rendition')
  const ctx = { input, outDir: out, threads: Math.min(16, availableParallelism()) }
  const probe = await probeMedia(await locateMediaTools({ env: process.env }), input)
  const video = probe.streams.find((s) => s.type === 'video')
  return await measured(async () => {
    await run('ffprobe', probeArgs(ctx))
    await run('ffmpeg', previewArgs(ctx, { atSeconds: probe.durationMs / 10000, streamIndex: video?.index ?? 0, width: 640, height: 360 }))
    for (const r of planLadder(probe)) {
      mkdirSync(join(out, r.name))
      await run('ffmpeg', renditionArgs({ ...ctx, outDir: join(out, r.name) }, r), { maxBuffer: 64 * 1024 * 1024 })
    }
  })
}

/**
 * The worker's commands by hand: probe, preview, then the copy beside the one-decode run with its
 * storyboard and frame branches, as the worker runs them (no nice, no prlimit, no store, no publishing).
 */
async function sameCommandsByHand (clip: string): Promise<{ wall: number, cpu: number }> {
  const { input, out } = jobFolders(clip, 'by-hand')
  const ctx = { input, outDir: out, threads: Math.min(16, availableParallelism()) }
  const tools = await locateMediaTools({ env: process.env })
  const probe = await probeMedia(tools, input)
  const plan = planLadder(probe)
  const verdict = await standardInput(tools, input, probe)
  const video = probe.streams.find((s) => s.type === 'video')
  const times = segmentTimes(probe.durationMs)
  const top = plan.at(-1)
  const copy = verdict.standard && top !== undefined && top.kind === 'video' ? top : null
  const encoded = copy === null ? plan : plan.slice(0, -1)
  const sheets = planStoryboard(probe)
  const storyboard = sheets === null ? null : { plan: sheets, videoStreamIndex: video?.index ?? 0 }
  for (const name of [...plan.map((r) => r.name), ...(storyboard === null ? [] : [STORYBOARD_DIR, FRAMES_DIR])]) mkdirSync(join(out, name))
  return await measured(async () => {
    await run('ffprobe', probeArgs(ctx))
    await run('ffmpeg', previewArgs(ctx, { atSeconds: probe.durationMs / 10000, streamIndex: video?.index ?? 0, width: 640, height: 360 }))
    await Promise.all([
      ...(copy === null ? [] : [run('ffmpeg', copyArgs(ctx, copy, times))]),
      ...(encoded.length === 0 && storyboard === null ? [] : [run('ffmpeg', ladderArgs(ctx, encoded, times, copy === null ? 'interval' : 'source', 0, storyboard), { maxBuffer: 64 * 1024 * 1024 })])
    ])
  })
}

/**
 * The service: upload over HTTP, then the worker; from upload_status to `live`, and to the whole ladder
 * unless `untilLive` (the long clip: its ladder's wall time is not a goal, and closing the server stops its
 * encoder).
 */
async function service (clip: string, name: string, untilLive = false): Promise<{ firstPlayable: number, wall: number, cpu: number }> {
  const dataDir = join(root, `data-${name}`)
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
    let firstPlayable = 0
    const job = await measured(async () => {
      const started = performance.now()
      await call('PUT', `/v2/assets/${asset.embed_code as string}/upload_status`, { status: 'uploaded' })
      for (;;) {
        const now = await call('GET', `/v2/assets/${asset.embed_code as string}`)
        if (now.status === 'error') throw new Error(now.processing_error)
        if (firstPlayable === 0 && now.status === 'live') firstPlayable = (performance.now() - started) / 1000
        if (now.status === 'live' && (untilLive || now.processing_progress === 100)) return
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    })
    return { firstPlayable, ...job }
  } finally {
    await server.close()
  }
}

try {
  // Standard input: H.264 High 8-bit 4:2:0, a key frame every 2 s, 5 Mbit/s, AAC-LC.
  const standard = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', '60', '-b:v', '5M', '-maxrate', '6M', '-bufsize', '6M']
  const short = await makeClip('standard.mp4', SECONDS, standard)
  const long = await makeClip('standard-long.mp4', LONG_SECONDS, standard)
  const mpeg2 = await makeClip('mpeg2.mpg', SECONDS, ['-c:v', 'mpeg2video', '-b:v', '8M', '-maxrate', '10M', '-bufsize', '4M', '-f', 'mpeg'], ['-c:a', 'mp2', '-b:a', '192k'])
  const loadBefore = loadavg()[0]
  const perRendition = await onePerRendition(short)
  const byHand = await sameCommandsByHand(short)
  const svc = await service(short, 'standard')
  const svcLong = await service(long, 'standard-long', true)
  const svcMpeg2 = await service(mpeg2, 'mpeg2')
  const result = {
    clips: { standard: `${SECONDS} s and ${LONG_SECONDS} s 1920×1080 30 fps H.264 5 Mbit/s + AAC-LC`, nonStandard: `${SECONDS} s 1920×1080 30 fps MPEG-2 8 Mbit/s + MP2 in MPEG-PS` },
    cores: availableParallelism(),
    loadAverageBefore: loadBefore,
    loadAverageAfter: loadavg()[0],
    timeToFirstPlayable: {
      standard: svc.firstPlayable,
      standardLong: svcLong.firstPlayable,
      mpeg2: svcMpeg2.firstPlayable,
      mpeg2Fraction: svcMpeg2.firstPlayable / SECONDS
    },
    ladder: {
      service: { wall: svc.wall, cpu: svc.cpu },
      onePerRendition: perRendition,
      sameCommandsByHand: byHand,
      cpuVsOnePerRendition: svc.cpu / perRendition.cpu,
      speedVsByHand: byHand.wall / svc.wall
    },
    wholeLadder: { mpeg2: svcMpeg2.wall }
  }
  mkdirSync(join(import.meta.dirname, 'results'), { recursive: true })
  writeFileSync(join(import.meta.dirname, 'results', 'media-processing.json'), JSON.stringify(result, null, 2) + '\n')
  const f = (n: number): string => n.toFixed(1)
  console.log([
    `time to first playable: standard ${SECONDS} s ${f(svc.firstPlayable)} s, standard ${LONG_SECONDS} s ${f(svcLong.firstPlayable)} s (goal ≤ 2 s); ` +
      `MPEG-2 ${SECONDS} s ${f(svcMpeg2.firstPlayable)} s = ${result.timeToFirstPlayable.mpeg2Fraction.toFixed(2)}× (goal ≤ 0.15×)`,
    `ladder of the ${SECONDS} s standard clip: service ${f(svc.wall)} s wall, ${f(svc.cpu)} s CPU; one run per rendition ${f(perRendition.wall)} s wall, ${f(perRendition.cpu)} s CPU ` +
      `(CPU ratio ${result.ladder.cpuVsOnePerRendition.toFixed(2)}, goal ≤ 0.6); same commands by hand ${f(byHand.wall)} s wall, ${f(byHand.cpu)} s CPU ` +
      `(speed ratio ${result.ladder.speedVsByHand.toFixed(2)}, goal ≥ 0.9)`
  ].join('\n'))
} finally {
  rmSync(root, { recursive: true, force: true })
}
