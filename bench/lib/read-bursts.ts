/**
 * The soak's read-burst mix (`SOAK_MIX=read-bursts`, docs/benchmarks.md, "Read bursts"): an account of
 * SOAK_ASSETS assets (default 3,000) with labels and metadata, then SOAK_BURSTS bursts (default 3) of
 * SOAK_BURST_SECONDS (20) of reads only at a fixed SOAK_RATE requests a second (200, at most SOAK_CONCURRENCY
 * in flight), SOAK_GAP_SECONDS (20)
 * of idle after each. The reads: asset lists with `where` and `include`, labels, the cached variant with
 * JSONP callbacks (a name of its own per page load, as JSONP libraries make them), analytics reports, and
 * requests with bad signatures on both listeners.
 */
import { signedPath } from '../../src/signing/index.ts'

export interface Target {
  urls: { api: string, cdn: string }
  admin: { api_key: string, secret: string, account_code: string }
}

export interface BurstPlan { bursts: number, burstSeconds: number, gapSeconds: number, rate: number, assets: number, inFlight: number }

export function burstPlan (env: NodeJS.ProcessEnv): BurstPlan {
  return {
    bursts: Number(env.SOAK_BURSTS ?? 3),
    burstSeconds: Number(env.SOAK_BURST_SECONDS ?? 20),
    gapSeconds: Number(env.SOAK_GAP_SECONDS ?? 20),
    rate: Number(env.SOAK_RATE ?? 200),
    assets: Number(env.SOAK_ASSETS ?? 3000),
    inFlight: Number(env.SOAK_CONCURRENCY ?? 32)
  }
}

const HEADERS = { 'x-forwarded-proto': 'https', 'content-type': 'application/json' }
const LABELS = 60
const TIERS = ['gold', 'silver', 'bronze', 'free']
const WORDS = ['river', 'mountain', 'city', 'night', 'ocean', 'forest', 'desert', 'winter', 'summer', 'storm']

/** Seeds the account: LABELS labels, `count` remote assets named from WORDS, each with two labels and three metadata pairs. */
export async function seed (target: Target, count: number): Promise<string[]> {
  const sign = signer(target)
  const send = async (method: string, path: string, body: unknown): Promise<any> => {
    const text = JSON.stringify(body)
    const res = await fetch(target.urls.api + sign(method, path, text), { method, body: text, headers: HEADERS })
    if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`)
    return await res.json()
  }
  const labels: string[] = []
  for (let i = 0; i < LABELS; i++) labels.push((await send('POST', '/v2/labels', { name: `genre ${i}` })).id as string)
  const assets: string[] = []
  let next = 0
  await Promise.all(Array.from({ length: 8 }, async () => {
    for (let i = next++; i < count; i = next++) {
      const name = `${WORDS[i % WORDS.length]} ${WORDS[(i * 7 + 3) % WORDS.length]} clip ${i}`
      const asset = await send('POST', '/v2/assets', { asset_type: 'remote_asset', name, description: `A seeded asset, number ${i}, about the ${WORDS[(i * 3) % WORDS.length]}`, duration: 1000 * (i % 600), stream_urls: { source_file: `https://cdn.example.com/${i}.mp4` } })
      const id = asset.embed_code as string
      await send('POST', `/v2/assets/${id}/labels`, [labels[i % LABELS], labels[(i * 13 + 5) % LABELS]])
      await send('PUT', `/v2/assets/${id}/metadata`, { tier: TIERS[i % TIERS.length], season: String(i % 12), producer: `studio ${i % 40}` })
      assets.push(id)
    }
  }))
  return assets
}

function signer (target: Target): (method: string, path: string, body?: string) => string {
  return (method, path, body) => signedPath({ apiKey: target.admin.api_key, secret: target.admin.secret, method, path, body })
}

/** The read of step `i` of the mix, as a URL; one in ten carries a bad signature. */
export function readUrl (target: Target, assets: string[], i: number): string {
  const sign = signer(target)
  const { api, cdn } = target.urls
  const q = encodeURIComponent
  const word = WORDS[i % WORDS.length]
  const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10)
  switch (i % 10) {
    case 0: return api + sign('GET', `/v2/assets?limit=100&include=metadata,labels&where=${q(`labels INCLUDES 'genre ${i % LABELS}'`)}`)
    case 1: return api + sign('GET', `/v2/assets?limit=50&include=metadata&where=${q(`metadata.tier = '${TIERS[i % TIERS.length]}' AND duration > ${1000 * (i % 300)}`)}&orderby=name`)
    case 2: return api + sign('GET', `/v2/assets?limit=50&include=labels,player&where=${q(`name INCLUDES '${word}'`)}`)
    case 3: return api + sign('GET', `/v2/labels?limit=${1 + (i % 100)}`)
    case 4: return api + sign('GET', `/v2/assets/${assets[i % assets.length]}/labels`)
    // The cached variant with a callback of its own per call, as jQuery names them (`jQuery<random>_<time>`).
    case 5: return cdn + sign('GET', `/v2/assets?limit=20&include=labels&callback=jQuery${String(i * 7919 % 1e9)}_${Date.now()}`)
    case 6: return cdn + sign('GET', `/v2/labels?limit=${1 + (i % 50)}&callback=cb_${i}`)
    case 7: return api + sign('GET', `/v2/analytics/reports?start_date=${day(Date.now() - 7 * 86_400_000)}&end_date=${day(Date.now() + 86_400_000)}&metrics=displays,plays_requested&dimensions=asset`)
    case 8: return (i % 20 < 10 ? api : cdn) + sign('GET', `/v2/assets/${assets[(i * 31) % assets.length]}`).replace(/signature=[^&]+/, `signature=${q(badSignature(i))}`)
    default: return cdn + sign('GET', `/v2/assets/${assets[(i * 17) % assets.length]}?include=metadata,labels`)
  }
}

function badSignature (i: number): string {
  return Buffer.from(`not the signature ${i} ${Date.now()}`).toString('base64').slice(0, 43)
}

export interface BurstCounts { requests: number, errors: number, dropped: number, byStatus: Map<number, number> }

/**
 * Sends `rate` requests a second for `seconds`, open loop: a request is started on schedule whatever the
 * others are doing, up to SOAK_CONCURRENCY (32) in flight: beyond that one is counted as dropped rather
 * than sent late, so that a server slower than the rate shows as drops, not as a pile of requests in it.
 */
export async function burst (target: Target, assets: string[], plan: BurstPlan, counts: BurstCounts, start: number): Promise<number> {
  let i = start
  let inFlight = 0
  const pending = new Set<Promise<void>>()
  const began = performance.now()
  const total = Math.round(plan.rate * plan.burstSeconds)
  for (let n = 0; n < total; n++) {
    const due = began + (n * 1000) / plan.rate
    const wait = due - performance.now()
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait))
    if (inFlight >= plan.inFlight) { counts.dropped++; continue }
    const url = readUrl(target, assets, i++)
    inFlight++
    const p = (async () => {
      try {
        const res = await fetch(url, { headers: { 'x-forwarded-proto': 'https' } })
        await res.arrayBuffer()
        counts.byStatus.set(res.status, (counts.byStatus.get(res.status) ?? 0) + 1)
        // Bad signatures are meant to be refused; anything else 4xx/5xx is an error.
        if (res.status >= 500 || (res.status >= 400 && !(res.status === 401 && url.includes('signature=bm90')))) counts.errors++
      } catch {
        counts.errors++
      } finally {
        counts.requests++
        inFlight--
      }
    })()
    pending.add(p)
    void p.finally(() => pending.delete(p))
  }
  await Promise.all(pending)
  return i
}
