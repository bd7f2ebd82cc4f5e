// `node --import tsx bench/playback-rules.ts`: the cost of publishing rules on the media path
// (docs/playback.md). The same segment GET on the cdn listener, alternately with the asset under no rule
// and under a rule that checks a time window (recurring, in a named zone), devices and domains — every
// restriction but countries, which needs a GeoIP database — with the headers that pass it; interleaved
// rounds on one server. Prints the ruled/public ratio (goal ≥ 0.9×).
//
// BENCH_SECONDS (5), BENCH_ROUNDS (3), BENCH_CLIP_SECONDS (6) tune it.
import { rmSync } from 'node:fs'
import { call } from './lib/client.ts'
import { prepareMedia, startOnDataDir } from './lib/media-asset.ts'
import { report, writeResults } from './lib/report.ts'
import { wrk, type WrkResult } from './lib/wrk.ts'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const ALL_DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']

function median (values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] as number
}

const media = await prepareMedia(Number(process.env.BENCH_CLIP_SECONDS ?? 6))
const ours = await startOnDataDir(media.dataDir, 'api,cdn')
try {
  const assets = await call(ours.api, 'GET', '/v2/assets')
  const id = assets.json.items[0].embed_code as string
  const rule = await call(ours.api, 'POST', '/v2/publishing_rules', {
    name: 'bench',
    allowed_devices: ['desktop'],
    time_restrictions: { type: 'recurring', all_day: true, recurring_days: ALL_DAYS, time_zone: 'America/New_York', start_date: '2020-01-01T00:00:00Z' },
    domain_restrictions: { type: 'allow', domains: ['*.example.com'] }
  })
  if (rule.status !== 200) throw new Error(`rule: ${rule.status} ${JSON.stringify(rule.json)}`)
  const url = `${ours.cdn.base}${media.paths.segment}`
  const headers = { 'user-agent': CHROME, origin: 'https://www.example.com' }
  const runs: Record<'public' | 'ruled', WrkResult[]> = { public: [], ruled: [] }
  for (let round = 0; round < ROUNDS; round++) {
    for (const kind of round % 2 === 0 ? ['public', 'ruled'] as const : ['ruled', 'public'] as const) {
      const set = kind === 'ruled'
        ? await call(ours.api, 'PUT', `/v2/assets/${id}/publishing_rule/${rule.json.id as string}`)
        : await call(ours.api, 'DELETE', `/v2/assets/${id}/publishing_rule`)
      if (set.status !== 200) throw new Error(`${kind}: ${set.status}`)
      await wrk({ url, headers, seconds: 1 })
      const result = await wrk({ url, headers, seconds: SECONDS, serverCpuMs: ours.child.cpuMs })
      if (result.failed > 0) throw new Error(`${kind}: ${result.failed} requests failed`)
      runs[kind].push(result)
    }
  }
  const publicRps = median(runs.public.map((r) => r.requestsPerSecond))
  const ruledRps = median(runs.ruled.map((r) => r.requestsPerSecond))
  const value = ruledRps / publicRps
  report({
    scenario: 'segment GET under a publishing rule vs public (cdn listener)',
    ratio: { value, of: 'requests/s, ruled ÷ public, medians', goal: '≥ 0.9×', met: value >= 0.9 },
    figures: {
      public: { rps: publicRps, p99Ms: median(runs.public.map((r) => r.p99Ms)), cpuMicros: median(runs.public.map((r) => r.serverCpuMicros ?? 0)) },
      ruled: { rps: ruledRps, p99Ms: median(runs.ruled.map((r) => r.p99Ms)), cpuMicros: median(runs.ruled.map((r) => r.serverCpuMicros ?? 0)) }
    }
  })
  console.log(`results: ${writeResults('playback-rules')}`)
} finally {
  await ours.child.stop()
  rmSync(media.dataDir, { recursive: true, force: true })
}
