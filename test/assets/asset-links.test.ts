import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { databaseBackends } from '../support/backends.ts'
import { buildTestApp, type Caller, type TestApp } from '../support/app.ts'
import { indexNow } from '../indexer/support/index-now.ts'
import { allPages, createVia, remoteAsset } from './support/assets.ts'

interface LabelJson { id: string, name: string, full_name: string, parent_id: string | null }

for (const backend of databaseBackends()) {
  describe(`asset labels, player and publishing rule on ${backend.name}`, { skip: backend.skip }, () => {
    let t: TestApp
    let other: Caller
    before(async () => {
      t = await buildTestApp(backend.name)
      other = await t.otherAccount()
    })
    after(async () => { await t.close() })

    const label = async (name: string, parentId?: string): Promise<LabelJson> =>
      await createVia(t, '/v2/labels', { name, ...(parentId !== undefined ? { parent_id: parentId } : {}) }, other) as unknown as LabelJson
    const names = (items: LabelJson[]): string[] => items.map((l) => l.full_name)

    it('adds one, adds many, replaces, lists and removes labels', async () => {
      const asset = await remoteAsset(t, {}, other)
      const base = `/v2/assets/${asset.embed_code}/labels`
      const sports = await label('Sports')
      const hockey = await label('Hockey', sports.id)
      const news = await label('News')
      const one = await t.signed('PUT', `${base}/${hockey.id}`, { as: other })
      assert.equal(one.statusCode, 200, one.body)
      assert.deepEqual(names(one.json().items), ['/Sports/Hockey'])
      const many = await t.signed('POST', base, { body: [sports.id, hockey.id, sports.id], as: other })
      assert.deepEqual(names(many.json().items), ['/Sports', '/Sports/Hockey'], 'adding is idempotent')
      assert.deepEqual(many.json().items[1], { id: hockey.id, name: 'Hockey', parent_id: sports.id, full_name: '/Sports/Hockey' })
      const replaced = await t.signed('PUT', base, { body: [news.id], as: other })
      assert.deepEqual(names(replaced.json().items), ['/News'])
      assert.deepEqual(names((await t.signed('GET', base, { as: other })).json().items), ['/News'])
      await t.signed('POST', base, { body: [sports.id], as: other })
      assert.deepEqual((await t.signed('DELETE', `${base}/${news.id}`, { as: other })).json(), {})
      assert.deepEqual((await t.signed('DELETE', `${base}/${news.id}`, { as: other })).json(), {}, 'removing a label the asset lacks is a no-op')
      assert.deepEqual(names((await t.signed('GET', base, { as: other })).json().items), ['/Sports'])
      assert.deepEqual((await t.signed('DELETE', base, { as: other })).json(), {})
      assert.deepEqual((await t.signed('GET', base, { as: other })).json(), { items: [] })
      assert.deepEqual((await t.signed('PUT', base, { body: [], as: other })).json(), { items: [] })
    })

    it('shows renamed labels and drops deleted ones (ON DELETE CASCADE)', async () => {
      const asset = await remoteAsset(t, {}, other)
      const music = await label('Music')
      const jazz = await label('Jazz', music.id)
      await t.signed('POST', `/v2/assets/${asset.embed_code}/labels`, { body: [music.id, jazz.id], as: other })
      await t.signed('PATCH', `/v2/labels/${music.id}`, { body: { name: 'Sound' }, as: other })
      const list = (await t.signed('GET', `/v2/assets/${asset.embed_code}?include=labels`, { as: other })).json()
      assert.deepEqual(names(list.labels), ['/Sound', '/Sound/Jazz'])
      const deleted = await t.signed('DELETE', `/v2/labels/${music.id}?recursive=true`, { as: other })
      assert.equal(deleted.statusCode, 200, deleted.body)
      assert.deepEqual((await t.signed('GET', `/v2/assets/${asset.embed_code}/labels`, { as: other })).json(), { items: [] })
    })

    it('lists the assets of a label, not those of its child labels, paged with where and include', async () => {
      const parent = await label('Films')
      const child = await label('Shorts', parent.id)
      const tagged: string[] = []
      for (let i = 0; i < 5; i++) {
        const asset = await remoteAsset(t, { name: `film ${i}` }, other)
        t.clock.advance(1000)
        await t.signed('PUT', `/v2/assets/${asset.embed_code}/labels/${parent.id}`, { as: other })
        tagged.unshift(asset.embed_code)
      }
      const childOnly = await remoteAsset(t, { name: 'short' }, other)
      await t.signed('PUT', `/v2/assets/${childOnly.embed_code}/labels/${child.id}`, { as: other })
      const { items, pages } = await allPages<{ embed_code: string, labels: LabelJson[] }>(t, `/v2/labels/${parent.id}/assets?include=labels&limit=2`, other)
      assert.deepEqual(items.map((a) => a.embed_code), tagged)
      assert.equal(pages.length, 3)
      assert.match(pages[1] as string, new RegExp(`^/v2/labels/${parent.id}/assets\\?include=labels&limit=2&page_token=`))
      assert.deepEqual(names(items[0]?.labels ?? []), ['/Films'])
      await indexNow(t.ctx) // `where` on name is answered by the search index
      const filtered = (await t.signed('GET', `/v2/labels/${parent.id}/assets?where=${encodeURIComponent("name='film 3'")}`, { as: other })).json()
      assert.deepEqual(filtered.items.map((a: { name: string }) => a.name), ['film 3'])
      assert.deepEqual((await t.signed('GET', `/v2/labels/${child.id}/assets`, { as: other })).json().items.map((a: { name: string }) => a.name), ['short'])
    })

    it('sets the player; without one the account\'s default player answers; deleting the player unsets it', async () => {
      const asset = await remoteAsset(t, {}, other)
      const fallback = await createVia(t, '/v2/players', { name: 'Default', is_default: true }, other)
      const own = await createVia(t, '/v2/players', { name: 'Own' }, other)
      assert.equal((await t.signed('GET', `/v2/assets/${asset.embed_code}/player`, { as: other })).json().id, fallback.id)
      const set = await t.signed('PUT', `/v2/assets/${asset.embed_code}/player/${own.id}`, { as: other })
      assert.equal(set.statusCode, 200, set.body)
      assert.equal(set.json().id, own.id)
      assert.equal(set.json().name, 'Own')
      const shown = (await t.signed('GET', `/v2/assets/${asset.embed_code}?include=player`, { as: other })).json()
      assert.equal(shown.player_id, own.id)
      assert.equal(shown.player.name, 'Own')
      assert.equal((await t.signed('GET', `/v2/assets/${asset.embed_code}/player`, { as: other })).json().id, own.id)
      assert.equal((await t.signed('DELETE', `/v2/players/${own.id}`, { as: other })).statusCode, 200)
      const after = (await t.signed('GET', `/v2/assets/${asset.embed_code}?include=player`, { as: other })).json()
      assert.equal(after.player_id, null)
      assert.equal(after.player.id, fallback.id)
    })

    it('sets, reads and removes the publishing rule; deleting the rule unsets it', async () => {
      const asset = await remoteAsset(t, {}, other)
      const rule = await createVia(t, '/v2/publishing_rules', { name: 'Web only' }, other)
      const set = await t.signed('PUT', `/v2/assets/${asset.embed_code}/publishing_rule/${rule.id}`, { as: other })
      assert.equal(set.statusCode, 200, set.body)
      assert.equal(set.json().name, 'Web only')
      assert.equal((await t.signed('GET', `/v2/assets/${asset.embed_code}/publishing_rule`, { as: other })).json().id, rule.id)
      assert.equal((await t.signed('GET', `/v2/assets/${asset.embed_code}`, { as: other })).json().publishing_rule_id, rule.id)
      assert.deepEqual((await t.signed('DELETE', `/v2/assets/${asset.embed_code}/publishing_rule`, { as: other })).json(), {})
      assert.equal((await t.signed('GET', `/v2/assets/${asset.embed_code}/publishing_rule`, { as: other })).statusCode, 404)
      await t.signed('PATCH', `/v2/assets/${asset.embed_code}`, { body: { publishing_rule_id: rule.id }, as: other })
      await t.signed('DELETE', `/v2/publishing_rules/${rule.id}`, { as: other })
      assert.equal((await t.signed('GET', `/v2/assets/${asset.embed_code}`, { as: other })).json().publishing_rule_id, null)
    })
  })
}
