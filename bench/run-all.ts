// `npm run bench`: every scenario in one run, one ratio line each, results in bench/results/all.json.
// Each scenario starts its servers in their own processes; the load generator is this process.
import { measureCdnHit, reportCdnHit } from './cdn-hit.ts'
import { measureCreditsOverhead, reportCreditsOverhead } from './credits-overhead.ts'
import { report, writeResults } from './lib/report.ts'
import { measurePagingDepth } from './paging-depth.ts'
import { measureSignedGet, reportSignedGet } from './signed-get.ts'
import { measureWrites } from './writes.ts'
import { measureReindexThroughput } from './reindex-throughput.ts'

const seconds = Number(process.env.BENCH_SECONDS ?? 5)
const started = Date.now()

const signed = await measureSignedGet({ seconds, ladder: true })
reportSignedGet(signed)

const cdn = await measureCdnHit({ seconds })
reportCdnHit(cdn)

const paging = await measurePagingDepth(seconds)
report({ scenario: '3 paging depth: page 1,000 vs page 1 (500k labels, limit=500)', ratio: { value: paging.ratio, of: 'mean latency page 1000 / page 1', goal: '≤ 1.2', met: paging.ratio <= 1.2 }, figures: paging })

const writes = await measureWrites(seconds) as any
const pgRate = typeof writes.postgres === 'string' ? NaN : writes.postgres.labels.requestsPerSecond
report({ scenario: '4 writes: POST /v2/labels, PostgreSQL vs SQLite', ratio: { value: pgRate / writes.sqlite.labels.requestsPerSecond, of: 'req/s PostgreSQL / SQLite (context; no goal)', goal: 'none', met: true }, figures: writes })

reportCreditsOverhead(await measureCreditsOverhead(seconds))

// Scenario 6: latency at a fixed rate, at half of Reelhouse's own closed-loop throughput, well below saturation (autocannon corrects coordinated omission).
const rate1 = Math.round(signed.reelhouse.requestsPerSecond * 0.5)
const fixed1 = await measureSignedGet({ seconds, rate: rate1 })
report({ scenario: `6a signed GET p99 at ${rate1} req/s`, ratio: { value: fixed1.reelhouse.p99, of: `p99 ms of Reelhouse; p50 ${fixed1.reelhouse.p50} ms; bare p50/p99 ${fixed1.bare.p50}/${fixed1.bare.p99} ms`, goal: 'context', met: true }, figures: { rate: rate1, reelhouse: { p50: fixed1.reelhouse.p50, p99: fixed1.reelhouse.p99 }, bare: { p50: fixed1.bare.p50, p99: fixed1.bare.p99 } } })
const rate2 = Math.round(cdn.reelhouse.requestsPerSecond * 0.5)
const fixed2 = await measureCdnHit({ seconds, rate: rate2 })
report({ scenario: `6b cache hit p99 at ${rate2} req/s`, ratio: { value: fixed2.reelhouse.p99, of: `p99 ms of Reelhouse; p50 ${fixed2.reelhouse.p50} ms; bare p50/p99 ${fixed2.bare.p50}/${fixed2.bare.p99} ms`, goal: 'context', met: true }, figures: { rate: rate2, reelhouse: { p50: fixed2.reelhouse.p50, p99: fixed2.reelhouse.p99 }, bare: { p50: fixed2.bare.p50, p99: fixed2.bare.p99 } } })

// Reindex throughput: 100k assets, embedded, against writing the same documents straight into FTS5.
const reindex = await measureReindexThroughput(Number(process.env.BENCH_ASSETS ?? 100_000), 100)
const r8 = reindex.docsPerSecond / reindex.bareStoreDocsPerSecond
report({ scenario: `8 reindex of ${reindex.assets} assets, embedded (${reindex.docsPerSecond} docs/s)`, ratio: { value: r8, of: 'docs/s through the indexer / docs/s written straight into FTS5', goal: 'context', met: true }, figures: reindex })

// Scenario 7: the server's RSS after each scenario is in each figure set as rssMiB.
report({ scenario: '7 server RSS after scenario 1 / 2 / 3 (MiB)', ratio: { value: signed.rssMiB, of: `RSS MiB after scenario 1 (2: ${cdn.rssMiB}, 3: ${String(paging.rssMiB)})`, goal: 'context', met: true }, figures: { signed: signed.rssMiB, cdn: cdn.rssMiB, paging: paging.rssMiB } })

console.log(`results: ${writeResults('all')} (${Math.round((Date.now() - started) / 1000)} s)`)
