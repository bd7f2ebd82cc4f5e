import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { databaseBackends } from '../support/backends.ts'
import { createVia, remoteAsset } from '../assets/support/assets.ts'
import { indexNow } from './support/index-now.ts'

// Every write of an indexed resource records its outbox entry (docs/search-and-indexing.md): after indexing, the
// documents are what the API says.
for (const backend of databaseBackends()) {
  describe(`index updates from resource writes (${backend.name})`, { skip: backend.skip }, () => {
    let t: TestApp
    const doc = async (type: 'asset' | 'label' | 'player' | 'syndication', id: string): Promise<Record<string, unknown> | undefined> =>
      (await t.ctx.search.get(t.admin.accountId, type, id))?.fields

    beforeEach(async () => { t = await buildTestApp(backend.name, { CREDITS_ENABLED: 'false' }) })
    afterEach(async () => { await t.close() })

    it('indexes an asset\'s metadata and labels when they change, and deletes its document with it', async () => {
      const asset = await remoteAsset(t, { name: 'Harbour at dawn' })
      const label = await createVia(t, '/v2/labels', { name: 'Boats' })
      await t.signed('PUT', `/v2/assets/${asset.embed_code}/labels/${label.id}`)
      await t.signed('PUT', `/v2/assets/${asset.embed_code}/metadata`, { body: { camera: 'x100' } })
      await indexNow(t.ctx)
      assert.deepEqual({ labels: (await doc('asset', asset.embed_code))?.labels, metadata: (await doc('asset', asset.embed_code))?.metadata }, { labels: ['/Boats'], metadata: { camera: 'x100' } })
      await t.signed('DELETE', `/v2/assets/${asset.embed_code}/labels/${label.id}`)
      await indexNow(t.ctx)
      assert.deepEqual((await doc('asset', asset.embed_code))?.labels, [])
      assert.equal((await t.signed('DELETE', `/v2/assets/${asset.embed_code}`)).statusCode, 200)
      await indexNow(t.ctx)
      assert.equal(await doc('asset', asset.embed_code), undefined)
    })

    it('re-indexes a renamed or moved label, the labels under it and their assets; a deleted label leaves them', async () => {
      const news = await createVia(t, '/v2/labels', { name: 'News' })
      const sports = await createVia(t, '/v2/labels', { name: 'Sports', parent_id: news.id })
      const asset = await remoteAsset(t, { name: 'Final' })
      await t.signed('PUT', `/v2/assets/${asset.embed_code}/labels/${sports.id}`)
      await indexNow(t.ctx)
      assert.deepEqual((await doc('asset', asset.embed_code))?.labels, ['/News/Sports'])

      assert.equal((await t.signed('PATCH', `/v2/labels/${news.id}`, { body: { name: 'Headlines' } })).statusCode, 200)
      assert.equal(await indexNow(t.ctx), 3, 'the label, its child and the asset')
      assert.equal((await doc('label', news.id))?.full_name, '/Headlines')
      assert.equal((await doc('label', sports.id))?.full_name, '/Headlines/Sports')
      assert.deepEqual((await doc('asset', asset.embed_code))?.labels, ['/Headlines/Sports'])
      assert.deepEqual(await t.ctx.search.search(t.admin.accountId, { clauses: [{ field: 'labels', text: 'headlines' }] }), [asset.embed_code])

      assert.equal((await t.signed('DELETE', `/v2/labels/${news.id}`, { params: { recursive: 'true' } })).statusCode, 200)
      await indexNow(t.ctx)
      assert.equal(await doc('label', news.id), undefined)
      assert.equal(await doc('label', sports.id), undefined)
      assert.deepEqual((await doc('asset', asset.embed_code))?.labels, [])
    })

    it('re-indexes the player that loses the default flag, and syndications as they change', async () => {
      const first = await createVia(t, '/v2/players', { name: 'First', is_default: true })
      await indexNow(t.ctx)
      assert.equal((await doc('player', first.id))?.is_default, true)
      const second = await createVia(t, '/v2/players', { name: 'Second', is_default: true })
      await indexNow(t.ctx)
      assert.equal((await doc('player', first.id))?.is_default, false)
      assert.equal((await doc('player', second.id))?.is_default, true)

      const feed = await createVia(t, '/v2/syndications', { name: 'Roku feed', type: 'roku' })
      await indexNow(t.ctx)
      assert.equal((await doc('syndication', feed.id))?.name, 'Roku feed')
      await t.signed('PATCH', `/v2/syndications/${feed.id}`, { body: { name: 'TV feed' } })
      await t.signed('DELETE', `/v2/players/${first.id}`)
      await indexNow(t.ctx)
      assert.equal((await doc('syndication', feed.id))?.name, 'TV feed')
      assert.equal(await doc('player', first.id), undefined)
      await t.signed('DELETE', `/v2/syndications/${feed.id}`)
      await indexNow(t.ctx)
      assert.equal(await doc('syndication', feed.id), undefined)
    })

    it('answers where text predicates from the index, so they see a change once it is indexed', async () => {
      const asset = await remoteAsset(t, { name: 'Quiet lake' })
      const where = async (expression: string): Promise<string[]> =>
        (await t.signed('GET', '/v2/assets', { params: { where: expression } })).json().items.map((item: { embed_code: string }) => item.embed_code)
      assert.deepEqual(await where("name='lake'"), [], 'not indexed yet: eventually consistent')
      assert.deepEqual(await where("status='live'"), [asset.embed_code], 'SQL predicates are not')
      await indexNow(t.ctx)
      assert.deepEqual(await where("name='lakes' AND status='live'"), [asset.embed_code])
      await t.signed('PATCH', `/v2/assets/${asset.embed_code}`, { body: { name: 'Loud river' } })
      await indexNow(t.ctx)
      assert.deepEqual(await where("name='lake'"), [])
      assert.deepEqual(await where("name='river'"), [asset.embed_code])
    })
  })
}
