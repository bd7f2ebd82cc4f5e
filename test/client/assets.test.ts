import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { NotFoundError, where, type Asset, type Reelhouse } from 'reelhouse/client'
import { databaseBackends } from '../support/backends.ts'
import { startClientServer, type ClientServer } from './support/client-server.ts'

const remote = (name: string) => ({ asset_type: 'remote_asset' as const, name, stream_urls: { iphone: `https://cdn.example.com/${encodeURIComponent(name)}.m3u8` } })

for (const backend of databaseBackends()) {
  describe(`the client's assets against a real server on ${backend.name}`, { skip: backend.skip }, () => {
    let server: ClientServer
    let client: Reelhouse
    before(async () => {
      server = await startClientServer(backend.name)
      client = server.client()
    })
    after(async () => { await server?.close() })

    it('creates, reads, patches, replaces, lists with where/orderby/include, and deletes an asset', async () => {
      const created = await client.assets.create({ ...remote('Trailer'), external_id: 'site/58' })
      assert.equal(created.status, 'live')
      assert.equal(created.stream_urls?.iphone, 'https://cdn.example.com/Trailer.m3u8')
      assert.equal((await client.assets.get('site/58')).embed_code, created.embed_code, 'an external id with "/" is one path segment')
      const patched = await client.assets.update(created.embed_code, { description: 'Short cut' })
      assert.equal(patched.description, 'Short cut')
      const replaced = await client.assets.replace(created.embed_code, { name: 'Trailer (final)', external_id: 'site/58' })
      assert.equal(replaced.description, '', 'PUT returns fields not given to their defaults')
      await client.assets.create({ ...remote('Paused one'), status: 'paused' })
      await client.assets.metadata.replace(created.embed_code, { 'cut(final)': "it's a \\ value" })

      const live: Asset[] = []
      const filter = where('status', '=', 'live').and('asset_type', 'IN', ['remote_asset', 'youtube']).and('metadata.cut(final)', '=', "it's a \\ value")
      for await (const asset of client.assets.list({ where: filter, orderby: 'name descending', include: ['metadata', 'player'] })) live.push(asset)
      assert.deepEqual(live.map((asset) => asset.name), ['Trailer (final)'])
      assert.deepEqual(live[0]?.metadata, { 'cut(final)': "it's a \\ value" })
      assert.equal(live[0]?.player, null)
      assert.deepEqual((await client.assets.get(created.embed_code, { include: ['metadata'] })).metadata, { 'cut(final)': "it's a \\ value" })

      await client.assets.delete(created.embed_code)
      await assert.rejects(client.assets.get(created.embed_code), NotFoundError)
      const deleted = (await client.deletedAssets.list().firstPage()).items
      assert.deepEqual(deleted.map((asset) => [asset.embed_code, asset.external_id]), [[created.embed_code, 'site/58']])
    })

    it('reads and writes an asset\'s metadata, labels, player and publishing rule', async () => {
      const asset = await client.assets.create(remote('Parts'))
      const id = asset.embed_code
      assert.deepEqual(await client.assets.metadata.replace(id, { a: '1', b: '2' }), { a: '1', b: '2' })
      assert.deepEqual(await client.assets.metadata.update(id, { a: null, c: '3' }), { b: '2', c: '3' })
      assert.deepEqual(await client.assets.metadata.get(id), { b: '2', c: '3' })
      await client.assets.metadata.clear(id)
      assert.deepEqual(await client.assets.metadata.get(id), {})

      const [sports, news, music] = await client.labels.createByFullPath(['/Sports', '/News', '/Music'])
      assert.ok(sports !== undefined && news !== undefined && music !== undefined)
      assert.deepEqual((await client.assets.labels.add(id, [sports.id, news.id])).map((label) => label.full_name), ['/News', '/Sports'])
      assert.deepEqual((await client.assets.labels.addOne(id, music.id)).map((label) => label.name), ['Music', 'News', 'Sports'])
      assert.deepEqual((await client.assets.labels.set(id, [news.id])).map((label) => label.name), ['News'])
      assert.deepEqual((await client.assets.labels.list(id)).map((label) => label.name), ['News'])
      const ofNews: string[] = []
      for await (const tagged of client.labels.assets(news.id)) ofNews.push(tagged.embed_code)
      assert.deepEqual(ofNews, [id])
      await client.assets.labels.remove(id, news.id)
      await client.assets.labels.add(id, [music.id])
      await client.assets.labels.clear(id)
      assert.deepEqual(await client.assets.labels.list(id), [])

      const player = await client.players.create({ name: 'Asset player' })
      assert.equal((await client.assets.player.set(id, player.id)).id, player.id)
      assert.equal((await client.assets.player.get(id)).name, 'Asset player')

      await assert.rejects(client.assets.publishingRule.get(id), (error: unknown) => error instanceof NotFoundError && error.code === 'publishing_rule_not_found')
      const rule = await client.publishingRules.create({ name: 'iPad only', allowed_devices: ['ipad'] })
      assert.equal((await client.assets.publishingRule.set(id, rule.id)).id, rule.id)
      assert.deepEqual((await client.assets.publishingRule.get(id)).allowed_devices, ['ipad'])
      await client.assets.publishingRule.remove(id)
      assert.equal((await client.assets.get(id)).publishing_rule_id, null)
    })
  })
}
