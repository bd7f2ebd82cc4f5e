import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { databaseBackends } from '../support/backends.ts'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { remoteAsset } from './support/assets.ts'

for (const backend of databaseBackends()) {
  describe(`/v2/assets/:id/metadata on ${backend.name}`, { skip: backend.skip }, () => {
    let t: TestApp
    before(async () => { t = await buildTestApp(backend.name) })
    after(async () => { await t.close() })

    it('replaces with PUT, merges with PATCH (null removes), empties with DELETE', async () => {
      const asset = await remoteAsset(t)
      const path = `/v2/assets/${asset.embed_code}/metadata`
      assert.deepEqual((await t.signed('GET', path)).json(), {})
      const put = await t.signed('PUT', path, { body: { rating: 'R', director: 'Michel Gondry', year: '2004' } })
      assert.equal(put.statusCode, 200, put.body)
      assert.deepEqual(put.json(), { rating: 'R', director: 'Michel Gondry', year: '2004' })
      const patched = await t.signed('PATCH', path, { body: { rating: 'PG', year: null, 'cast.lead(1)?': 'Jim Carrey' } })
      assert.deepEqual(patched.json(), { rating: 'PG', director: 'Michel Gondry', 'cast.lead(1)?': 'Jim Carrey' })
      assert.deepEqual((await t.signed('GET', path)).json(), patched.json())
      assert.deepEqual((await t.signed('PUT', path, { body: { only: 'this' } })).json(), { only: 'this' })
      assert.deepEqual((await t.signed('DELETE', path)).json(), {})
      assert.deepEqual((await t.signed('GET', path)).json(), {})
    })

    it('moves the asset\'s updated_at with its metadata', async () => {
      const asset = await remoteAsset(t)
      t.clock.advance(5000)
      await t.signed('PATCH', `/v2/assets/${asset.embed_code}/metadata`, { body: { a: 'b' } })
      assert.notEqual((await t.signed('GET', `/v2/assets/${asset.embed_code}`)).json().updated_at, asset.updated_at)
    })

    it('holds 100 entries with 128-character names and 2,048-character values, and refuses the 101st by PATCH', async () => {
      const asset = await remoteAsset(t)
      const path = `/v2/assets/${asset.embed_code}/metadata`
      const full = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`${'n'.repeat(125)}${String(i).padStart(3, '0')}`, 'v'.repeat(2048)]))
      const res = await t.signed('PUT', path, { body: full })
      assert.equal(res.statusCode, 200, res.body.slice(0, 300))
      assert.equal(Object.keys(res.json()).length, 100)
      const more = await t.signed('PATCH', path, { body: { extra: 'x' } })
      assert.equal(more.statusCode, 400)
      assert.equal(more.json().message, 'An asset holds at most 100 metadata entries.')
      const swap = await t.signed('PATCH', path, { body: { extra: 'x', [Object.keys(full)[0] as string]: null } })
      assert.equal(swap.statusCode, 200, 'removing one makes room for another in the same PATCH')
    })

    it('shows metadata with include=metadata, on lists and single assets', async () => {
      const other = await t.otherAccount()
      const asset = await remoteAsset(t, { name: 'with metadata' }, other)
      await remoteAsset(t, { name: 'without' }, other)
      await t.signed('PUT', `/v2/assets/${asset.embed_code}/metadata`, { body: { genre: 'drama' }, as: other })
      const list = (await t.signed('GET', '/v2/assets?include=metadata', { as: other })).json()
      assert.deepEqual(list.items.map((a: { name: string, metadata: object }) => [a.name, a.metadata]).sort(), [['with metadata', { genre: 'drama' }], ['without', {}]])
      assert.deepEqual((await t.signed('GET', `/v2/assets/${asset.embed_code}?include=metadata`, { as: other })).json().metadata, { genre: 'drama' })
      assert.equal((await t.signed('GET', `/v2/assets/${asset.embed_code}`, { as: other })).json().metadata, undefined)
    })

    it('removes the metadata with its asset', async () => {
      const asset = await remoteAsset(t)
      await t.signed('PUT', `/v2/assets/${asset.embed_code}/metadata`, { body: { a: 'b' } })
      await t.signed('DELETE', `/v2/assets/${asset.embed_code}`)
      const rows = await t.ctx.db.selectFrom('asset_metadata').selectAll().where('asset_id', '=', asset.embed_code).execute()
      assert.deepEqual(rows, [])
    })
  })
}
