// `node --expose-gc --import tsx bench/response-cache-size.ts`: how the cached variant's in-process response cache's
// own count of its bytes (CDN_CACHE_BYTES bounds it) compares with the memory its entries take, V8's heap and the
// bodies' buffers outside it, for each kind of answer: small label lists, asset lists, one asset, each under a JSONP
// callback of its own per URL (as JSONP libraries name them). Fills the cache through the cdn variant, then measures
// after full collections with its entries and again once they are dropped. docs/deployment.md, "Memory".
import { buildTestApp } from '../test/support/app.ts'
import { MemoryResponseCache } from '../src/cdn/index.ts'

const count = Number(process.env.ENTRIES ?? 2000)
const collect = (globalThis as { gc?: () => void }).gc
if (collect === undefined) throw new Error('run with node --expose-gc')
const heapUsed = (): number => { collect(); collect(); return process.memoryUsage().heapUsed }
/** The bodies' memory outside V8's heap: each distinct backing store the entries keep alive (a pooled slab once). */
const backingStores = (): number => {
  const stores = new Set<ArrayBufferLike>()
  // The cache's own LRU, read by a benchmark only.
  for (const stored of (cache as unknown as { lru: { values: () => Iterable<{ entry: { body: Buffer } }> } }).lru.values()) stores.add(stored.entry.body.buffer)
  let bytes = 0
  for (const store of stores) bytes += store.byteLength
  return bytes
}

const t = await buildTestApp('sqlite', { CDN_CACHE_BYTES: String(1024 * 1024 * 1024), CREDITS_PER_MINUTE: '1000000000' }, 'cdn')
const cache = t.ctx.responseCache.inner
if (!(cache instanceof MemoryResponseCache)) throw new Error('expected the in-process response cache')
const assets: string[] = []
const labels: string[] = []
// Seeded through the services: the cdn variant takes GET and HEAD only.
for (let i = 0; i < 200; i++) {
  const caller = { accountId: t.admin.accountId, accountCode: t.admin.accountCode, userId: t.admin.userId, role: 'administrator' as const }
  labels.push((await t.ctx.services.labels.create(caller, { name: `Label ${i}` }) as { id: string }).id)
  assets.push((await t.ctx.services.assets.create(caller, { asset_type: 'remote_asset', name: `Asset number ${i}`, description: 'A remote asset', stream_urls: { source_file: 'https://cdn.example.com/a.mp4' } }) as { embed_code: string }).embed_code)
}
const kinds: Record<string, (i: number) => string> = {
  'label lists': (i) => `/v2/labels?limit=${1 + (i % 5)}&callback=cb_${i}`,
  'asset lists': (i) => `/v2/assets?limit=20&include=labels&callback=jQuery${i}_1764240000000`,
  'one asset': (i) => `/v2/assets/${assets[i % assets.length]}?callback=cb_${i}`
}
for (const [kind, path] of Object.entries(kinds)) {
  await cache.clear()
  for (let i = 0; i < count; i++) {
    const res = await t.signed('GET', path(i))
    if (res.statusCode !== 200) throw new Error(`${path(i)}: ${res.statusCode} ${res.body}`)
  }
  // Each entry hit once: the hit lane's prepared form of it counts too.
  for (let i = 0; i < count; i++) {
    const res = await t.signed('GET', path(i))
    if (res.headers['x-cache'] !== 'HIT') throw new Error(`${path(i)}: not a hit`)
  }
  const full = heapUsed()
  const entries = cache.size
  const counted = cache.bytes
  const outside = backingStores()
  await cache.clear()
  const heap = full - heapUsed()
  const each = (bytes: number): string => String(Math.round(bytes / entries)).padStart(6)
  console.log(`${kind.padEnd(12)} ${String(entries).padStart(6)} entries  counted ${each(counted)} B each  heap ${each(heap)} B  outside ${each(outside)} B  counted / real ${(counted / (heap + outside)).toFixed(2)}`)
}
await t.close()
