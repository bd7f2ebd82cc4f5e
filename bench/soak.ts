// `node --import tsx bench/soak.ts`: mixed load on a real `reelhouse serve` (every role, embedded engines)
// for SOAK_SECONDS (default 600), sampling the server's RSS and heap from its /metrics every SOAK_SAMPLE_SECONDS
// (default 10), with the read cache, buffers outside V8's heap and the DuckDB store's own count; prints the curve and the
// plateau (the median RSS of the last third). docs/benchmarks.md, "Soak".
// SOAK_MIX=read-bursts: the read-burst mix of bench/lib/read-bursts.ts instead (bursts of reads at a fixed rate with idle
// gaps between them; sampled every SOAK_SAMPLE_SECONDS, default 2), printing the peak of each burst and the idle
// baseline after it. Each sample also splits the server's RSS into anonymous and file-backed memory (smaps_rollup)
// and counts its prepared statements. docs/benchmarks.md, "Read bursts".
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { metricValue } from '../src/ops/metrics/index.ts'
import { signedPath } from '../src/signing/index.ts'
import { burst, burstPlan, seed, type BurstCounts } from './lib/read-bursts.ts'

const readBursts = process.env.SOAK_MIX === 'read-bursts'
const seconds = Number(process.env.SOAK_SECONDS ?? 600)
const sampleSeconds = Number(process.env.SOAK_SAMPLE_SECONDS ?? (readBursts ? 2 : 10))
const concurrency = Number(process.env.SOAK_CONCURRENCY ?? 8)
const dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-soak-'))
const HEADERS = { 'x-forwarded-proto': 'https', 'content-type': 'application/json' }

// SOAK_NODE_ARGS: node's own flags for the server, space-separated; by default V8's heap bounds as `npm start` sets them.
const nodeArgs = (process.env.SOAK_NODE_ARGS ?? '--max-semi-space-size=8 --heap-growing-percent=20').split(' ').filter((arg) => arg !== '')
const child = spawn(process.execPath, [...nodeArgs, join(import.meta.dirname, '..', 'bin', 'reelhouse.mjs'), 'serve'], {
  env: {
    ...process.env, REELHOUSE_DATA_DIR: dataDir, HOST: '127.0.0.1', API_PORT: '0', CDN_PORT: '0', INDEXER_PORT: '0', METRICS_PORT: '0',
    TRUST_PROXY: 'true', LOG_LEVEL: 'warn', CREDITS_PER_MINUTE: '1000000000', ANALYTICS_COLLECT_PER_MINUTE: '0',
    // As `npm start` and the deploy files run it (docs/deployment.md, "Memory").
    GLIBC_TUNABLES: process.env.GLIBC_TUNABLES ?? 'glibc.malloc.arena_max=2:glibc.malloc.mmap_threshold=131072:glibc.malloc.trim_threshold=131072'
  },
  stdio: ['ignore', 'pipe', 'inherit']
})
const lines: string[] = []
const urls = await new Promise<{ api: string, cdn: string, metrics: string }>((resolve, reject) => {
  const found: Record<string, string> = {}
  child.once('exit', (code) => { reject(new Error(`serve exited with ${String(code)}`)) })
  createInterface({ input: child.stdout }).on('line', (line) => {
    lines.push(line)
    for (const role of ['api', 'cdn', 'metrics']) {
      if (line.startsWith(`${role}: `)) found[role] = (/http:\/\/[^\s]+?(?=\/metrics|\s|$)/.exec(line) as RegExpExecArray)[0]
    }
    if (found.api !== undefined && found.cdn !== undefined && found.metrics !== undefined) resolve(found as { api: string, cdn: string, metrics: string })
  })
})
const admin = JSON.parse(readFileSync(join(dataDir, 'admin-credentials.json'), 'utf8')) as { api_key: string, secret: string, account_code: string }
const sign = (method: string, path: string, body?: string): string => signedPath({ apiKey: admin.api_key, secret: admin.secret, method, path, body })
const post = async (path: string, body: object): Promise<any> => {
  const text = JSON.stringify(body)
  const res = await fetch(urls.api + sign('POST', path, text), { method: 'POST', body: text, headers: HEADERS })
  return res.status === 200 ? await res.json() : undefined
}

const clip = (await post('/v2/assets', { asset_type: 'remote_asset', name: 'Clip', stream_urls: { source_file: 'https://cdn.example.com/a.mp4' } })).embed_code as string
let requests = 0
let errors = 0
const errorsByKind = new Map<number, number>()
let stop = false
/** One step of the mix: writes (labels, assets), reads (lists, pages, search), cached reads, event batches. */
async function step (worker: number, i: number): Promise<void> {
  const kind = i % 8
  let status = 200
  if (kind === 0) status = (await post('/v2/labels', { name: `L${worker}-${i}` })) === undefined ? 500 : 200
  else if (kind === 1) status = (await post('/v2/assets', { asset_type: 'remote_asset', name: `soak asset ${worker} ${i}`, stream_urls: { source_file: 'https://cdn.example.com/a.mp4' } })) === undefined ? 500 : 200
  else if (kind === 2 || kind === 3) status = (await fetch(urls.api + sign('GET', '/v2/assets?limit=100&include=metadata,labels&orderby=name'), { headers: HEADERS }).then(async (r) => { await r.arrayBuffer(); return r })).status
  else if (kind === 4) status = (await fetch(urls.api + sign('GET', `/v2/assets?limit=50&where=${encodeURIComponent("name INCLUDES 'soak'")}`), { headers: HEADERS }).then(async (r) => { await r.arrayBuffer(); return r })).status
  else if (kind === 5) status = (await fetch(urls.cdn + sign('GET', `/v2/labels?limit=${1 + (i % 200)}`)).then(async (r) => { await r.arrayBuffer(); return r })).status
  else if (kind === 6) {
    const when = new Date(Date.now() - 30_000).toISOString()
    const body = JSON.stringify({ account_code: admin.account_code, session_id: `s${worker}-${i}`, asset_id: clip, events: Array.from({ length: 20 }, () => ({ name: 'display', time: when })) })
    status = (await fetch(`${urls.api}/v2/analytics/events`, { method: 'POST', body, headers: HEADERS })).status === 204 ? 200 : 500
  } else {
    const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10)
    status = (await fetch(urls.api + sign('GET', `/v2/analytics/reports?start_date=${day(Date.now() - 86_400_000)}&end_date=${day(Date.now() + 86_400_000)}&metrics=displays`), { headers: HEADERS }).then(async (r) => { await r.arrayBuffer(); return r })).status
  }
  requests++
  if (status >= 400) { errors++; errorsByKind.set(kind, (errorsByKind.get(kind) ?? 0) + 1) }
}

/** The server's resident memory split from /proc/<pid>/smaps_rollup: anonymous (heaps, V8, malloc) and file-backed (code, mapped files), MB. */
function smapsRollup (pid: number | undefined): { anonMb: number, fileMb: number } {
  try {
    const text = readFileSync(`/proc/${String(pid)}/smaps_rollup`, 'utf8')
    const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0)
    return { anonMb: Math.round(kb('Anonymous') / 1024), fileMb: Math.round((kb('Rss') - kb('Anonymous')) / 1024) }
  } catch {
    return { anonMb: 0, fileMb: 0 }
  }
}

const samples: Array<{ t: number, phase: string, rssMb: number, heapMb: number, heapTotalMb: number, readCacheMb: number, cdnCacheMb: number, externalMb: number, analyticsMb: number, anonMb: number, fileMb: number, statements: number, requests: number }> = []
const started = Date.now()
let phase = readBursts ? 'seed' : 'load'
const counts: BurstCounts = { requests: 0, errors: 0, dropped: 0, byStatus: new Map() }
const sample = async (): Promise<void> => {
  const text = await (await fetch(`${urls.metrics}/metrics`)).text()
  const mb = (name: string): number => Math.round((metricValue(text, name) ?? 0) / 1024 / 1024)
  const rollup = smapsRollup(child.pid)
  samples.push({ t: Math.round((Date.now() - started) / 1000), phase, rssMb: mb('process_resident_memory_bytes'), heapMb: mb('nodejs_heap_used_bytes'), heapTotalMb: mb('nodejs_heap_total_bytes'), readCacheMb: mb('reelhouse_read_cache_bytes'), cdnCacheMb: mb('reelhouse_response_cache_bytes'), externalMb: mb('nodejs_external_memory_bytes'), analyticsMb: mb('reelhouse_analytics_store_memory_bytes'), anonMb: rollup.anonMb, fileMb: rollup.fileMb, statements: metricValue(text, 'reelhouse_sqlite_prepared_statements') ?? 0, requests: requests + counts.requests })
  const last = samples.at(-1) as typeof samples[number]
  const pad = (n: number, width: number): string => String(n).padStart(width)
  console.log(`${pad(last.t, 5)} s  ${last.phase.padEnd(7)} rss ${pad(last.rssMb, 4)} MB  heap ${pad(last.heapMb, 4)} / ${pad(last.heapTotalMb, 4)} MB  read cache ${pad(last.readCacheMb, 3)} MB  cdn cache ${pad(last.cdnCacheMb, 3)} MB  external ${pad(last.externalMb, 3)} MB  DuckDB ${pad(last.analyticsMb, 3)} MB  anon ${pad(last.anonMb, 4)} / file ${pad(last.fileMb, 3)} MB  ${pad(last.statements, 4)} statements  ${last.requests} requests`)
}
await sample()
const timer = setInterval(() => { sample().catch(() => {}) }, sampleSeconds * 1000)
const summary: Record<string, unknown> = {}
if (readBursts) {
  const plan = burstPlan(process.env)
  const target = { urls, admin }
  const assets = await seed(target, plan.assets)
  // Some events for the reports to read.
  for (let i = 0; i < 20; i++) await step(0, 6 + 8 * i)
  phase = 'settle'
  await new Promise((resolve) => setTimeout(resolve, plan.gapSeconds * 1000))
  const bursts: Array<{ peakRssMb: number, idleRssMb: number, requests: number, errors: number }> = []
  let next = 0
  for (let b = 1; b <= plan.bursts; b++) {
    const before = { requests: counts.requests, errors: counts.errors }
    const burstStarted = Date.now()
    phase = `burst ${b}`
    next = await burst(target, assets, plan, counts, next)
    const burstSeconds = (Date.now() - burstStarted) / 1000
    phase = `idle ${b}`
    await new Promise((resolve) => setTimeout(resolve, plan.gapSeconds * 1000))
    await sample()
    const idle = samples.at(-1) as typeof samples[number]
    // SOAK_SNAPSHOTS=1 with `--heapsnapshot-signal=SIGUSR2` in SOAK_NODE_ARGS: a heap snapshot of the server after each idle gap.
    // The server writes it on its main thread: its /metrics answers once the snapshot is written.
    if (process.env.SOAK_SNAPSHOTS === '1') {
      phase = 'snapshot'
      child.kill('SIGUSR2')
      for (let answered = false; !answered;) {
        await new Promise((resolve) => setTimeout(resolve, 1000))
        answered = await sample().then(() => true, () => false)
      }
      await new Promise((resolve) => setTimeout(resolve, 5000))
    }
    const during = samples.filter((s) => s.phase === `burst ${b}` || s.phase === `idle ${b}`)
    bursts.push({ peakRssMb: Math.max(...during.map((s) => s.rssMb)), idleRssMb: idle.rssMb, requests: counts.requests - before.requests, errors: counts.errors - before.errors })
    console.log(`burst ${b}: ${counts.requests - before.requests} requests in ${burstSeconds.toFixed(1)} s, peak ${bursts[b - 1].peakRssMb} MB, idle after ${bursts[b - 1].idleRssMb} MB`)
  }
  Object.assign(summary, { mix: 'read-bursts', ...plan, seedRssMb: samples.find((s) => s.phase === 'settle')?.rssMb, bursts, dropped: counts.dropped, byStatus: Object.fromEntries(counts.byStatus) })
} else {
  setTimeout(() => { stop = true }, seconds * 1000)
  await Promise.all(Array.from({ length: concurrency }, async (_, worker) => {
    for (let i = worker; !stop; i++) await step(worker, i).catch(() => { errors++ })
  }))
  const tail = samples.slice(Math.floor(samples.length * 2 / 3)).map((s) => s.rssMb).sort((a, b) => a - b)
  Object.assign(summary, { seconds, requests, errors, errorsByKind: Object.fromEntries(errorsByKind), requestsPerSecond: Math.round(requests / seconds), plateauRssMb: tail[Math.floor(tail.length / 2)] ?? 0 })
}
clearInterval(timer)
await sample()
const exited = new Promise((resolve) => child.once('exit', resolve))
child.kill('SIGTERM')
await exited
rmSync(dataDir, { recursive: true, force: true })

const peak = Math.max(...samples.filter((s) => s.phase !== 'seed' && s.phase !== 'snapshot').map((s) => s.rssMb))
console.log(JSON.stringify({ ...summary, requests: requests + counts.requests, errors: errors + counts.errors, peakRssMb: peak, goalMb: 250, met: peak <= 250 }))
