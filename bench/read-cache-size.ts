// `node --expose-gc --import tsx bench/read-cache-size.ts`: how the read cache's own count of its bytes
// (READ_CACHE_BYTES bounds it) compares with the V8 heap its entries take, for each kind of entry: labels and
// assets read by id, and verified URLs (signed GETs). Fills the cache through the API, then measures the heap
// after full collections with its entries and again once they are dropped. docs/deployment.md, "Memory".
import { buildTestApp } from '../test/support/app.ts'

const count = Number(process.env.ENTRIES ?? 3000)
const collect = (globalThis as { gc?: () => void }).gc
if (collect === undefined) throw new Error('run with node --expose-gc')
const heapUsed = (): number => { collect(); collect(); return process.memoryUsage().heapUsed }

const t = await buildTestApp('sqlite', { READ_CACHE_BYTES: String(512 * 1024 * 1024), CREDITS_PER_MINUTE: '1000000000' })
const labels: string[] = []
const assets: string[] = []
for (let i = 0; i < count; i++) {
  const asset = await t.signed('POST', '/v2/assets', { body: { asset_type: 'remote_asset', name: `Asset number ${i}`, description: 'A remote asset', stream_urls: { source_file: 'https://cdn.example.com/a.mp4' } } })
  assets.push(`/v2/assets/${asset.json().embed_code as string}`)
  const label = await t.signed('POST', '/v2/labels', { body: { name: `Label ${i}` } })
  labels.push(`/v2/labels/${label.json().id as string}`)
}
const cache = t.ctx.freshness.readCache
const kinds: Record<string, () => Promise<void>> = {
  labels: async () => { for (const path of labels) await t.signed('GET', path) },
  assets: async () => { for (const path of assets) await t.signed('GET', path) },
  // One path, a new `expires` each time: every URL is one of its own, requested twice (a verified URL is kept from its second sight).
  'verified URLs': async () => { for (let i = 0; i < 2 * count; i++) await t.signed('GET', labels[0], { expires: 1_900_000_000 + Math.floor(i / 2) }) }
}
for (const [kind, fill] of Object.entries(kinds)) {
  cache.setServing(true)
  await fill()
  const full = heapUsed()
  const entries = cache.size
  const counted = cache.bytes
  cache.setServing(true)
  const real = full - heapUsed()
  console.log(`${kind.padEnd(14)} ${String(entries).padStart(6)} entries  counted ${String(Math.round(counted / entries)).padStart(5)} B each  heap ${String(Math.round(real / entries)).padStart(5)} B each  counted / heap ${(counted / real).toFixed(2)}`)
}
await t.close()
