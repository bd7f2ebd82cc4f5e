import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { buildIndexerApp, IndexMetrics } from '../../src/indexer/index.ts'
import { metricValue } from '../../src/ops/metrics/index.ts'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { databaseBackends } from '../support/backends.ts'
import { remoteAsset } from '../assets/support/assets.ts'
import { indexNow } from './support/index-now.ts'

for (const backend of databaseBackends()) {
  describe(`coalescing in the deduped queue (${backend.name})`, { skip: backend.skip }, () => {
    let t: TestApp
    let indexer: FastifyInstance
    let metrics: IndexMetrics
    const scrape = async (): Promise<string> => (await indexer.inject({ method: 'GET', url: '/metrics' })).body

    beforeEach(async () => {
      t = await buildTestApp(backend.name, { CREDITS_ENABLED: 'false' })
      metrics = new IndexMetrics()
      indexer = await buildIndexerApp({ ...t.ctx, store: t.ctx.search, metrics }, { config: t.config, logger: false })
    })
    afterEach(async () => {
      await indexer.close()
      await t.close()
    })

    it('indexes an asset once after 100 rapid PATCHes, as the index-writes metric shows', async () => {
      const asset = await remoteAsset(t, { name: 'Take 0' })
      await indexNow(t.ctx, metrics)
      assert.equal(metricValue(await scrape(), 'reelhouse_index_writes_total'), 1)

      for (let i = 1; i <= 100; i++) {
        const res = await t.signed('PATCH', `/v2/assets/${asset.embed_code}`, { body: { name: `Take ${i}`, description: `edit ${i}` } })
        assert.equal(res.statusCode, 200, res.body)
      }
      const before = await scrape()
      assert.equal(metricValue(before, 'reelhouse_index_queue_depth'), 1, 'one entry for 100 changes')

      assert.equal(await indexNow(t.ctx, metrics), 1)
      const after = await scrape()
      assert.equal(metricValue(after, 'reelhouse_index_writes_total'), 2, 'exactly one more index write')
      assert.equal(metricValue(after, 'reelhouse_index_documents_indexed_total', { type: 'asset' }), 2)
      assert.equal(metricValue(after, 'reelhouse_index_queue_depth'), 0)
      const doc = await t.ctx.search.get(t.admin.accountId, 'asset', asset.embed_code)
      assert.equal(doc?.fields.name, 'Take 100')
      assert.equal(doc?.fields.description, 'edit 100')
    })
  })
}
