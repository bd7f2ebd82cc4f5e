import assert from 'node:assert/strict'
import { createWriteStream } from 'node:fs'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { after, before, describe, it } from 'node:test'
import { generateSql } from './support/generated-events.ts'
import { openTestAnalytics, STORES, type TestAnalytics } from './support/harness.ts'
import { parquetFigures, storedFigures } from './support/parquet-readback.ts'

// The Parquet export read back by DuckDB: the same count, sums and kinds as the store holds, over
// generated events of every kind (bench/analytics-export.ts does the same with 1M events).

const EVENTS = 20_000
const RANGE = { start_date: '2026-10-01', end_date: '2026-11-01' }

for (const store of STORES) {
  describe(`the Parquet export read back, ${store.name}`, { skip: store.skip }, () => {
    let t: TestAnalytics
    before(async () => {
      t = await openTestAnalytics(store.name)
      await t.analytics.store.query(generateSql(store.name, EVENTS, 'acc-a'), [])
    })
    after(async () => { await t.close() })

    it(`gives DuckDB the store's count, sums and kinds for ${EVENTS.toLocaleString('en')} generated events`, async () => {
      const want = await storedFigures(t.analytics.store, 'acc-a', RANGE.start_date, RANGE.end_date)
      assert.equal(want.count, EVENTS)
      assert.ok(want.codes > 0 && want.value2 > 0, 'the events carry the viewer-experience fields')
      const file = join(t.dir, 'export.parquet')
      const { body } = await t.analytics.exportEvents('acc-a', { ...RANGE, format: 'parquet' })
      await pipeline(body, createWriteStream(file))
      assert.deepEqual(await parquetFigures(file), want)
    })
  })
}
