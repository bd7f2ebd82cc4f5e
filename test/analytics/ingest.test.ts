import assert from 'node:assert/strict'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, it } from 'node:test'
import { Ingestor } from '../../src/analytics/index.ts'
import { durabilityBatch } from './support/durability-batches.ts'
import { openTestAnalytics, storedCount, type TestAnalytics } from './support/harness.ts'

describe('ingestion', () => {
  let t: TestAnalytics | undefined
  afterEach(async () => { await t?.close(); t = undefined })
  const segments = (dir: string): string[] => readdirSync(join(dir, 'analytics-spool')).filter((f) => f.startsWith('segment-'))

  it('journals concurrent batches (sharing fsyncs), rotates full segments and deletes them once applied', async () => {
    t = await openTestAnalytics('duckdb', { ingest: { flushIntervalMs: 60_000, maxSegmentBytes: 4096 } })
    const analytics = t.analytics
    // A group of concurrent batches goes into one segment; the next group starts a new one once it is full.
    for (let round = 0; round < 5; round++) {
      await Promise.all(Array.from({ length: 10 }, async (_, i) => { await analytics.collect(durabilityBatch(`s-${round}-${i}`, 20)) }))
    }
    assert.ok(segments(t.dir).length >= 5, 'each round of ~20 KiB fills a 4 KiB segment')
    await analytics.flush()
    assert.equal(await storedCount(analytics), 1000)
    assert.ok(segments(t.dir).length <= 1, 'only the open segment stays once everything is applied')
  })

  it('answers 503 with Retry-After while the store is too far behind, and after shutdown', async () => {
    t = await openTestAnalytics('duckdb', { ingest: { flushIntervalMs: 60_000, flushRows: 1000, maxQueuedRows: 10 } })
    await t.analytics.collect(durabilityBatch('a', 10))
    await assert.rejects(t.analytics.collect(durabilityBatch('b', 1)), {
      code: 'dependency_unavailable', status: 503, message: 'Analytics ingestion is behind; try again in a few seconds.', headers: { 'Retry-After': '5' }
    })
    await t.analytics.flush()
    await t.analytics.collect(durabilityBatch('c', 1))
    await t.analytics.ingestor?.close()
    await assert.rejects(t.analytics.collect(durabilityBatch('d', 1)), { code: 'dependency_unavailable', message: 'Analytics ingestion is shutting down.' })
    assert.equal(await storedCount(t.analytics), 11)
  })

  it('opens no spool for a reports-only process, which still imports and reports', async () => {
    t = await openTestAnalytics('duckdb', { ingest: false })
    assert.equal(existsSync(join(t.dir, 'analytics-spool')), false)
    await assert.rejects(t.analytics.collect(durabilityBatch('x', 1)), /collection is not served here/)
    await t.analytics.importEvents('acc-a', [JSON.stringify({ session_id: 's', asset_id: 'asset-1', name: 'display', time: '2026-11-22T09:00:00Z' })])
    const report = await t.analytics.report('acc-a', { start_date: '2026-11-22', metrics: 'displays' })
    assert.deepEqual(report.results[0].data, [{ group: {}, metrics: { displays: 1 } }])
  })

  it('refuses a second ingestor on a spool this process already holds', async () => {
    t = await openTestAnalytics('duckdb')
    await assert.rejects(Ingestor.start(t.analytics.store, join(t.dir, 'analytics-spool')), /already open in this process/)
  })
})
