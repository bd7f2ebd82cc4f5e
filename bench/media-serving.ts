// `node --import tsx bench/media-serving.ts`: media delivery (docs/benchmarks.md, "Media serving").
// A segment GET, a media playlist GET, a master GET and a ranged GET of the original, on both listeners
// (api HTTPS, cdn plain HTTP), beside a bare Node static server on the same files and certificate and
// beside nginx when it is installed (its ratio printed, never required); interleaved rounds, every
// server started afresh each round on the servers' core, wrk on the other; server CPU per request and
// RSS printed. With S3 (TEST_S3_URL, or a throw-away Ceph RGW started by scripts/rgw.mjs when radosgw is
// installed), the segment GET both ways (proxied, MEDIA_REDIRECT=presigned).
// Then BENCH_SLOW_READERS (500) players reading a segment slowly while signed API GETs are timed.
//
// BENCH_SECONDS (5), BENCH_ROUNDS (3), BENCH_CLIP_SECONDS (12), BENCH_ONLY (a comma list of kinds:
// segment,playlist,master,range), BENCH_SLOW_READERS (0 skips) tune it; BENCH_PIN=0 turns pinning off.
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { call, fixedSignedPath } from './lib/client.ts'
import { prepareMedia, startOnDataDir, type PreparedMedia } from './lib/media-asset.ts'
import { hasNginx, startNginx } from './lib/nginx.ts'
import { startChild } from './lib/process.ts'
import { report, writeResults } from './lib/report.ts'
import { slowReaders } from './lib/slow-readers.ts'
import { wrk, type WrkResult } from './lib/wrk.ts'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const KINDS = ['segment', 'playlist', 'master', 'range'] as const
type Kind = typeof KINDS[number]
const only = (process.env.BENCH_ONLY ?? KINDS.join(',')).split(',') as Kind[]
const TRANSPORTS = ['https', 'http'] as const
type Transport = typeof TRANSPORTS[number]
const SERVERS = ['bare', 'nginx', 'reelhouse'] as const
type Server = typeof SERVERS[number]

interface Contender { server: Server, kind: Kind, transport: Transport, url: string, headers: Record<string, string>, cpuMs: () => number }

/** A ranged read of the original as a player seeking in a download asks it: 1 MiB from 1 MiB in (or its second half). */
function rangeOf (size: number): string {
  return size > 2 * 1024 * 1024 ? 'bytes=1048576-2097151' : `bytes=${Math.floor(size / 2)}-${size - 1}`
}

async function round (media: PreparedMedia, originalSize: number, index: number): Promise<{ results: Record<string, WrkResult>, rssMiB: number }> {
  const ours = await startOnDataDir(media.dataDir, 'api,cdn')
  const bare = await startChild<{ https: number, http: number }>('bench/servers/bare-static.ts', { BARE_STATIC_ROOT: media.objectsRoot, BARE_TLS_DIR: media.dataDir })
  const nginx = hasNginx() ? await startNginx(media.objectsRoot, media.dataDir) : undefined
  try {
    const contenders: Contender[] = []
    for (const transport of TRANSPORTS) {
      for (const kind of only) {
        const path = kind === 'range' ? media.paths.original : media.paths[kind]
        const file = `/${relative(media.objectsRoot, kind === 'range' ? media.files.original : media.files[kind])}`
        const headers: Record<string, string> = kind === 'range' ? { range: rangeOf(originalSize) } : {}
        const ourBase = transport === 'https' ? ours.api.base : ours.cdn.base
        contenders.push({ server: 'bare', kind, transport, url: `${transport}://127.0.0.1:${bare.info[transport]}${file}`, headers, cpuMs: bare.cpuMs })
        if (nginx !== undefined) contenders.push({ server: 'nginx', kind, transport, url: `${transport}://127.0.0.1:${nginx[transport]}${file}`, headers, cpuMs: nginx.cpuMs })
        contenders.push({ server: 'reelhouse', kind, transport, url: `${ourBase}${path}`, headers, cpuMs: ours.child.cpuMs })
      }
    }
    // Warm every contender up first, then measure them in an order that starts one further each round.
    for (const c of contenders) await wrk({ url: c.url, headers: c.headers, seconds: 1 })
    const results: Record<string, WrkResult> = {}
    for (let i = 0; i < contenders.length; i++) {
      const c = contenders[(i + index) % contenders.length] as Contender
      results[`${c.server} ${c.kind} ${c.transport}`] = await wrk({ url: c.url, headers: c.headers, seconds: SECONDS, serverCpuMs: c.cpuMs })
    }
    return { results, rssMiB: Math.round(ours.child.rssMiB()) }
  } finally {
    await Promise.all([ours.child.stop(), bare.stop(), nginx?.stop()])
  }
}

function median (values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] as number
}

async function filesystemComparison (media: PreparedMedia, originalSize: number): Promise<void> {
  const rounds: Array<Record<string, WrkResult>> = []
  const rss: number[] = []
  for (let i = 0; i < ROUNDS; i++) {
    const { results, rssMiB } = await round(media, originalSize, i)
    const failed = Object.entries(results).filter(([, r]) => r.failed > 0)
    if (failed.length > 0) throw new Error(`failed answers: ${failed.map(([name, r]) => `${name} ${r.failed}`).join(', ')}`)
    rounds.push(results)
    rss.push(rssMiB)
  }
  for (const kind of only) {
    for (const transport of TRANSPORTS) {
      const ratio = (server: Server): number => median(rounds.map((r) => (r[`${server} ${kind} ${transport}`]?.requestsPerSecond ?? Number.NaN) / (r[`bare ${kind} ${transport}`] as WrkResult).requestsPerSecond))
      const medianRun = (server: Server): WrkResult | undefined => {
        const runs = rounds.map((r) => r[`${server} ${kind} ${transport}`]).filter((r) => r !== undefined).sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)
        return runs[Math.floor(runs.length / 2)]
      }
      const value = ratio('reelhouse')
      report({
        scenario: `media ${kind} GET vs bare Node static (${transport === 'https' ? 'api, HTTPS' : 'cdn, HTTP'})`,
        ratio: { value, of: 'req/s Reelhouse / req/s bare Node', goal: '≥ 0.8', met: value >= 0.8 },
        figures: {
          reelhouse: medianRun('reelhouse'),
          bare: medianRun('bare'),
          ...(hasNginx() ? { nginx: medianRun('nginx'), nginxOverBare: Number(ratio('nginx').toFixed(3)), reelhouseOverNginx: Number((value / ratio('nginx')).toFixed(3)) } : {}),
          rounds: rounds.map((r) => Object.fromEntries(SERVERS.map((s) => [s, Math.round(r[`${s} ${kind} ${transport}`]?.requestsPerSecond ?? 0)])))
        }
      })
    }
  }
  console.log(`      Reelhouse RSS after each round: ${rss.join(', ')} MiB; segment ${media.segmentBytes} bytes`)
}

/** With S3: the segment GET proxied through the service against the redirect to a pre-signed URL, and the store's own answer to that URL. */
async function s3Comparison (): Promise<void> {
  let base = process.env.TEST_S3_URL
  let rgwDir: string | undefined
  if ((base === undefined || base === '') && hasRadosgw()) {
    // No S3 given, Ceph installed: a throw-away RGW for this run, as .ci/run starts one.
    rgwDir = mkdtempSync(join(tmpdir(), 'reelhouse-bench-rgw-'))
    execFileSync(process.execPath, ['scripts/rgw.mjs', 'start', rgwDir], { stdio: ['ignore', 'ignore', 'inherit'] })
    base = readFileSync(join(rgwDir, 'url'), 'utf8').trim()
  }
  if (base === undefined || base === '') {
    console.log('S3 both ways: skipped (TEST_S3_URL is not set and radosgw is not installed; scripts/rgw.mjs starts Ceph RGW)')
    return
  }
  try {
    await s3BothWays(base)
  } finally {
    if (rgwDir !== undefined) {
      execFileSync(process.execPath, ['scripts/rgw.mjs', 'stop', rgwDir], { stdio: 'ignore' })
      rmSync(rgwDir, { recursive: true, force: true })
    }
  }
}

function hasRadosgw (): boolean {
  try {
    execFileSync('radosgw', ['--version'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

async function s3BothWays (base: string): Promise<void> {
  const url = new URL(base)
  url.pathname = `/bench-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`
  const media = await prepareMedia(Number(process.env.BENCH_CLIP_SECONDS ?? 12), { MEDIA_STORE_URL: url.href })
  const figures: Record<string, WrkResult> = {}
  for (const mode of ['proxy', 'presigned'] as const) {
    const ours = await startOnDataDir(media.dataDir, 'api,cdn', { MEDIA_STORE_URL: url.href, MEDIA_REDIRECT: mode })
    try {
      const target = `${ours.cdn.base}${media.paths.segment}`
      await wrk({ url: target, seconds: 1 })
      figures[`reelhouse ${mode}`] = await wrk({ url: target, seconds: SECONDS, serverCpuMs: ours.child.cpuMs })
      if (mode === 'presigned') {
        const answer = await fetch(target, { redirect: 'manual' })
        const location = answer.headers.get('location')
        if (answer.status !== 302 || location === null) throw new Error(`presigned: ${answer.status}`)
        figures['store, the pre-signed URL'] = await wrk({ url: location, seconds: SECONDS })
      }
    } finally {
      await ours.child.stop()
    }
  }
  rmSync(media.dataDir, { recursive: true, force: true })
  const value = (figures['reelhouse presigned'] as WrkResult).requestsPerSecond / (figures['reelhouse proxy'] as WrkResult).requestsPerSecond
  report({ scenario: 'media segment GET with S3: redirect to a pre-signed URL vs proxied (cdn, HTTP)', ratio: { value, of: 'req/s redirect / req/s proxied', goal: 'printed', met: true }, figures })
}

/** Players on slow links: the process's memory and a signed API GET's latency while they read. */
async function slowReadersRun (media: PreparedMedia): Promise<void> {
  const readers = Number(process.env.BENCH_SLOW_READERS ?? 500)
  if (readers <= 0) return
  const ours = await startOnDataDir(media.dataDir, 'api,cdn')
  try {
    const rssBefore = ours.child.rssMiB()
    const signed = fixedSignedPath(ours.api, 'GET', '/v2/remaining_credits_and_reset_time')
    const outcome = await slowReaders({
      url: `${ours.cdn.base}${media.paths.segment}`,
      readers,
      sample: () => ours.child.rssMiB(),
      probe: async () => (await call(ours.api, 'GET', '/v2/remaining_credits_and_reset_time', undefined, signed)).status
    })
    // The documented bound (docs/media.md, "Reads and memory"): at most 1 MiB resident per slow reader above the idle process.
    const perReader = (outcome.peakRssMiB - rssBefore) / readers
    const answered = outcome.probes > 0 && outcome.probeStatuses.every((status) => status === 200)
    report({
      scenario: `${readers} slow readers of a segment (cdn) while signed API GETs are timed`,
      ratio: { value: perReader, of: 'MiB of peak RSS above idle per reader (signed GETs all 200)', goal: '≤ 1', met: perReader <= 1 && answered },
      figures: { rssBeforeMiB: Math.round(rssBefore), ...outcome }
    })
  } finally {
    await ours.child.stop()
  }
}

// BENCH_MEDIA_JSON: a prepared asset (the JSON `prepareMedia` answers) to reuse, kept afterwards.
const reused = process.env.BENCH_MEDIA_JSON
const media = reused === undefined ? await prepareMedia(Number(process.env.BENCH_CLIP_SECONDS ?? 12)) : JSON.parse(readFileSync(reused, 'utf8')) as PreparedMedia
try {
  await filesystemComparison(media, statSync(media.files.original).size)
  await s3Comparison()
  await slowReadersRun(media)
  console.log(`results: ${writeResults('media-serving')}`)
} finally {
  if (reused === undefined) rmSync(media.dataDir, { recursive: true, force: true })
}
