// `node --import tsx bench/playback-rules.ts`: the cost of publishing rules on the media path
// (docs/playback.md). The same segment GET on the api listener (HTTPS: signed media is served there only), alternately with the asset under no rule
// and under a rule that checks a time window (recurring, in a named zone), devices and domains — every
// restriction but countries, which needs a GeoIP database — with the headers that pass it; interleaved
// rounds on one server. Prints the ruled/public ratio (goal ≥ 0.9×). Beside them, the same segment of
// the asset signed (`playback_policy: "signed"`) under the same rule, through the derived token in its
// path, as a player that loaded the master with `?token=` fetches it: signed/public (goal ≥ 0.9×).
//
// BENCH_SECONDS (5), BENCH_ROUNDS (3), BENCH_CLIP_SECONDS (6) tune it.
import { request as httpsRequest } from 'node:https'
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
  // Signed media is served over HTTPS by the api listener only, so every kind is measured there.
  const url = `${ours.api.base}${media.paths.segment}`
  const headers = { 'user-agent': CHROME, origin: 'https://www.example.com' }
  const runs: Record<'public' | 'ruled' | 'signed', WrkResult[]> = { public: [], ruled: [], signed: [] }
  /** The segment's URL under a signed master: the master's child URL (with its derived token) and the segment beside it. */
  async function signedSegment (): Promise<string> {
    const issued = await call(ours.api, 'POST', `/v2/assets/${id}/playback_tokens`, { expires_in: 86_400 })
    if (issued.status !== 200) throw new Error(`token: ${issued.status} ${JSON.stringify(issued.json)}`)
    const master = await getHttps(`${ours.api.base}${media.paths.master}?token=${issued.json.token as string}`, headers)
    const text = master.text
    const child = text.split('\n').find((line) => line.startsWith('t/'))
    if (!master.ok || child === undefined) throw new Error(`signed master: ${master.status} ${text}`)
    const segmentFile = media.paths.segment.slice(media.paths.segment.lastIndexOf('/') + 1)
    const playlist = media.paths.master.replace('master.m3u8', child)
    return `${ours.api.base}${playlist.replace('index.m3u8', segmentFile)}`
  }
  const ORDER = [['public', 'ruled', 'signed'], ['signed', 'ruled', 'public']] as const
  for (let round = 0; round < ROUNDS; round++) {
    for (const kind of ORDER[round % 2] as readonly ['public', 'ruled', 'signed']) {
      const set = kind === 'public'
        ? await call(ours.api, 'DELETE', `/v2/assets/${id}/publishing_rule`)
        : await call(ours.api, 'PUT', `/v2/assets/${id}/publishing_rule/${rule.json.id as string}`)
      if (set.status !== 200) throw new Error(`${kind}: ${set.status}`)
      const policy = await call(ours.api, 'PATCH', `/v2/assets/${id}`, { playback_policy: kind === 'signed' ? 'signed' : null })
      if (policy.status !== 200) throw new Error(`${kind} policy: ${policy.status}`)
      const target = kind === 'signed' ? await signedSegment() : url
      await wrk({ url: target, headers, seconds: 1 })
      const result = await wrk({ url: target, headers, seconds: SECONDS, serverCpuMs: ours.child.cpuMs })
      if (result.failed > 0) throw new Error(`${kind}: ${result.failed} requests failed`)
      runs[kind].push(result)
    }
  }
  const publicRps = median(runs.public.map((r) => r.requestsPerSecond))
  const ruledRps = median(runs.ruled.map((r) => r.requestsPerSecond))
  const value = ruledRps / publicRps
  const signedRps = median(runs.signed.map((r) => r.requestsPerSecond))
  report({
    scenario: 'segment GET under a publishing rule vs public (api listener, HTTPS)',
    ratio: { value, of: 'requests/s, ruled ÷ public, medians', goal: '≥ 0.9×', met: value >= 0.9 },
    figures: {
      public: { rps: publicRps, p99Ms: median(runs.public.map((r) => r.p99Ms)), cpuMicros: median(runs.public.map((r) => r.serverCpuMicros ?? 0)) },
      ruled: { rps: ruledRps, p99Ms: median(runs.ruled.map((r) => r.p99Ms)), cpuMicros: median(runs.ruled.map((r) => r.serverCpuMicros ?? 0)) }
    }
  })
  report({
    scenario: 'segment GET signed (rule + derived token in the path) vs public (api listener, HTTPS)',
    ratio: { value: signedRps / publicRps, of: 'requests/s, signed ÷ public, medians', goal: '≥ 0.9×', met: signedRps / publicRps >= 0.9 },
    figures: {
      public: { rps: publicRps, p99Ms: median(runs.public.map((r) => r.p99Ms)), cpuMicros: median(runs.public.map((r) => r.serverCpuMicros ?? 0)) },
      signed: { rps: signedRps, p99Ms: median(runs.signed.map((r) => r.p99Ms)), cpuMicros: median(runs.signed.map((r) => r.serverCpuMicros ?? 0)) }
    }
  })
  console.log(`results: ${writeResults('playback-rules')}`)
} finally {
  await ours.child.stop()
  rmSync(media.dataDir, { recursive: true, force: true })
}

/** A GET over the api listener's HTTPS (its certificate is self-signed): the status and the text. */
async function getHttps (url: string, headers: Record<string, string>): Promise<{ ok: boolean, status: number, text: string }> {
  return await new Promise((resolve, reject) => {
    httpsRequest(url, { rejectUnauthorized: false, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => { resolve({ ok: res.statusCode === 200, status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }) })
      res.on('error', reject)
    }).on('error', reject).end()
  })
}
