import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { databaseBackends } from '../support/backends.ts'
import { buildTestApp, type Caller, type TestApp } from '../support/app.ts'
import { indexNow } from '../indexer/support/index-now.ts'
import { allPages, createAsset, createVia } from './support/assets.ts'

interface Item { embed_code: string, name: string, [field: string]: unknown }

// where / orderby / include (docs/resources.md, "Lists") over one account's fixture (a1 oldest … a5 newest).
for (const backend of databaseBackends()) {
  describe(`asset list queries on ${backend.name}`, { skip: backend.skip }, () => {
    let t: TestApp
    let acct: Caller
    const ids: Record<string, string> = {}
    const byId = (items: Item[]): string[] => items.map((item) => Object.keys(ids).find((k) => ids[k] === item.embed_code) ?? item.name)
    const list = async (query: string): Promise<string[]> => {
      const res = await t.signed('GET', `/v2/assets?limit=500&${query}`, { as: acct })
      assert.equal(res.statusCode, 200, `${query}: ${res.body}`)
      return byId(res.json().items)
    }
    const where = async (expression: string): Promise<string[]> => (await list(`where=${encodeURIComponent(expression)}`)).sort()

    before(async () => {
      t = await buildTestApp(backend.name)
      acct = await t.otherAccount()
      const sports = (await createVia(t, '/v2/labels', { name: 'Sports' }, acct)).id
      const hockey = (await createVia(t, '/v2/labels', { name: 'Hockey', parent_id: sports }, acct)).id
      const music = (await createVia(t, '/v2/labels', { name: 'Music' }, acct)).id
      const player = (await createVia(t, '/v2/players', { name: 'Main' }, acct)).id
      const fixtures: Array<[string, Record<string, unknown>, string[], Record<string, string>]> = [
        ['a1', { asset_type: 'remote_asset', name: 'Piano cat', description: 'Funny video of a cat', duration: 1000, external_id: 'ext-1', player_id: player }, [sports, music], { rating: 'R' }],
        ['a2', { asset_type: 'channel', name: 'Cat Videos Compilation', duration: 600000, status: 'paused', time_restrictions: { type: 'range', start_date: '2011-05-01T00:00:00Z' } }, [music], { rating: 'PG' }],
        ['a3', { asset_type: 'live_stream', name: 'Dog training', description: 'Good dog', duration: 600, time_restrictions: { type: 'range', start_date: '2011-07-01T00:00:00Z' } }, [], {}],
        ['a4', { asset_type: 'youtube', name: 'ringer', youtube_id: 'yt4', duration: 601 }, [hockey], {}],
        ['a5', { asset_type: 'video', name: 'zebra', file_name: 'z.mp4', file_size: 5 }, [], {}]
      ]
      for (const [key, body, labels, metadata] of fixtures) {
        const asset = await createAsset(t, body, acct)
        ids[key] = asset.embed_code
        if (labels.length > 0) await t.signed('POST', `/v2/assets/${asset.embed_code}/labels`, { body: labels, as: acct })
        if (Object.keys(metadata).length > 0) await t.signed('PUT', `/v2/assets/${asset.embed_code}/metadata`, { body: metadata, as: acct })
        t.clock.advance(1000)
      }
      // Metadata and label writes moved updated_at; make a1 the most recently updated.
      await t.signed('PATCH', `/v2/assets/${ids.a1}`, { body: { description: 'Funny video of a cat' }, as: acct })
      await indexNow(t.ctx) // text predicates are answered by the search index
    })
    after(async () => { await t.close() })

    it('filters by status, type, number, external_id and dates', async () => {
      assert.deepEqual(await where('status=\'live\''), ['a1', 'a3', 'a4'])
      assert.deepEqual(await where('status!=\'live\''), ['a2', 'a5'])
      assert.deepEqual(await where('asset_type IN (\'channel\',\'youtube\')'), ['a2', 'a4'])
      assert.deepEqual(await where('duration>600'), ['a1', 'a2', 'a4'])
      assert.deepEqual(await where('duration<=600'), ['a3', 'a5'])
      assert.deepEqual(await where('external_id=\'ext-1\''), ['a1'])
      assert.deepEqual(await where(`embed_code IN ('${ids.a2}','${ids.a3}')`), ['a2', 'a3'])
      assert.deepEqual(await where('created_at>=\'2026-11-22T10:00:02Z\''), ['a3', 'a4', 'a5'])
      assert.deepEqual(await where('time_restrictions.start_date<=\'2011-06-01\''), ['a1', 'a2', 'a4', 'a5'], 'assets without flight times always match')
    })

    it('matches words in names and descriptions, case-insensitively, singular and plural alike', async () => {
      assert.deepEqual(await where('name=\'cat\''), ['a1', 'a2'])
      assert.deepEqual(await where('name=\'CAT videos\''), ['a2'])
      assert.deepEqual(await where('description=\'Cat videos\''), ['a1'])
      assert.deepEqual(await where('name INCLUDES \'dog\''), ['a3'])
    })

    it('finds labels by name or full name with INCLUDES, not their children', async () => {
      assert.deepEqual(await where('labels INCLUDES \'music\''), ['a1', 'a2'])
      assert.deepEqual(await where('labels INCLUDES \'Sports\''), ['a1'])
      assert.deepEqual(await where('labels INCLUDES \'/Sports/Hockey\''), ['a4'])
      assert.deepEqual(await where('labels INCLUDES \'Music\' AND labels INCLUDES \'Sports\''), ['a1'])
    })

    it('compares metadata values', async () => {
      assert.deepEqual(await where('metadata.rating=\'PG\''), ['a2'])
      assert.deepEqual(await where('metadata.rating!=\'PG\''), ['a1', 'a3', 'a4', 'a5'])
    })

    it('joins clauses with AND in any case, with + for spaces', async () => {
      assert.deepEqual(await where('status=\'live\' and duration>600'), ['a1', 'a4'])
      const res = await t.signed('GET', `/v2/assets?where=${'STATUS%3D%27live%27+AND+asset_type%3D%27remote_asset%27'}`, { as: acct })
      assert.deepEqual(byId(res.json().items), ['a1'])
    })

    it('orders newest first by default, and by each orderby field in both directions', async () => {
      assert.deepEqual(await list(''), ['a5', 'a4', 'a3', 'a2', 'a1'])
      assert.deepEqual(await list('orderby=created_at+ascending'), ['a1', 'a2', 'a3', 'a4', 'a5'])
      assert.deepEqual(await list('orderby=name'), ['a2', 'a3', 'a1', 'a4', 'a5'])
      assert.deepEqual(await list('orderby=name+DESCENDING'), ['a5', 'a4', 'a1', 'a3', 'a2'])
      assert.deepEqual(await list('orderby=duration%20descending'), ['a2', 'a1', 'a4', 'a3', 'a5'])
      assert.deepEqual(await list('orderby=asset_type'), ['a2', 'a3', 'a1', 'a5', 'a4'])
      assert.deepEqual((await list('orderby=updated_at+desc'))[0], 'a1')
    })

    for (const order of ['', 'orderby=name', 'orderby=name+descending', 'orderby=duration', 'orderby=duration+descending', 'orderby=asset_type+desc', 'orderby=updated_at']) {
      it(`pages ${order === '' ? 'the default order' : order} at limit=2 exactly like the whole list`, async () => {
        const whole = await list(order)
        const { items, pages } = await allPages<Item>(t, `/v2/assets?${order === '' ? '' : `${order}&`}include=labels&limit=2`, acct)
        assert.deepEqual(byId(items), whole)
        assert.equal(pages.length, 3)
        for (const next of pages.slice(1)) {
          const [path, query] = next.split('?') as [string, string]
          assert.equal(path, '/v2/assets')
          const params = [...new URLSearchParams(query)]
          assert.deepEqual(params.map(([key]) => key), [...(order === '' ? [] : ['orderby']), 'include', 'limit', 'page_token'])
          if (order !== '') assert.equal(params[0]?.[1], order.slice('orderby='.length).replace('+', ' '))
        }
      })
    }

    it('keeps where and include in next_page, before limit, with page_token last', async () => {
      const first = (await t.signed('GET', `/v2/assets?limit=1&include=metadata,labels&where=${encodeURIComponent('status=\'live\'')}`, { as: acct })).json()
      assert.match(first.next_page, /^\/v2\/assets\?include=metadata%2Clabels&where=status%3D'live'&limit=1&page_token=[A-Za-z0-9_.-]+$/)
      assert.ok(!first.next_page.includes('api_key') && !first.next_page.includes('signature') && !first.next_page.includes('expires'))
      const { items } = await allPages<Item>(t, `/v2/assets?limit=1&include=metadata,labels&where=${encodeURIComponent('status=\'live\'')}`, acct)
      assert.deepEqual(byId(items), ['a4', 'a3', 'a1'])
      assert.deepEqual(items[2]?.metadata, { rating: 'R' })
    })

    it('breaks ties in the sort column by embed code, so equal durations page without loss', async () => {
      const tied = await t.otherAccount()
      const made = new Set<string>()
      for (let i = 0; i < 7; i++) made.add((await createAsset(t, { asset_type: 'channel', name: 'same', duration: 42 }, tied)).embed_code)
      for (const order of ['duration', 'name+descending', 'created_at']) {
        const { items, pages } = await allPages<Item>(t, `/v2/assets?orderby=${order}&limit=3`, tied)
        assert.equal(items.length, 7, order)
        assert.deepEqual(new Set(items.map((i) => i.embed_code)), made, order)
        assert.equal(pages.length, 3, order)
      }
      const { pages } = await allPages<Item>(t, '/v2/assets?limit=7', tied)
      assert.equal(pages.length, 1, 'no next_page when the total is a multiple of the limit')
    })

    it('neither repeats nor skips items while assets are created and deleted between pages', async () => {
      const live = await t.otherAccount()
      const original: string[] = []
      for (let i = 0; i < 6; i++) {
        original.push((await createAsset(t, { asset_type: 'channel', name: `c${i}` }, live)).embed_code)
        t.clock.advance(10)
      }
      const seen: string[] = []
      let next: string | undefined = '/v2/assets?limit=2&orderby=created_at+ascending'
      let round = 0
      while (next !== undefined) {
        const page: { items: Item[], next_page?: string } = (await t.signed('GET', next, { as: live })).json()
        seen.push(...page.items.map((i) => i.embed_code))
        next = page.next_page
        t.clock.advance(10)
        await createAsset(t, { asset_type: 'channel', name: `new${round++}` }, live)
        if (round === 1) await t.signed('DELETE', `/v2/assets/${original[5] as string}`, { as: live })
      }
      assert.equal(new Set(seen).size, seen.length, 'no item twice')
      for (const id of original.slice(0, 5)) assert.ok(seen.includes(id), 'no surviving item skipped')
      assert.ok(!seen.includes(original[5] as string))
    })

    it('includes metadata, labels and player on every item and on a single asset', async () => {
      const res = (await t.signed('GET', '/v2/assets?include=metadata,labels,player&orderby=created_at+ascending', { as: acct })).json()
      const [a1, a2] = res.items
      assert.deepEqual(a1.metadata, { rating: 'R' })
      assert.deepEqual(a1.labels.map((l: { full_name: string }) => l.full_name), ['/Music', '/Sports'])
      assert.equal(a1.player.name, 'Main')
      assert.equal(a2.player, null, 'no player and no default player')
      const one = (await t.signed('GET', '/v2/assets/ext-1?include=labels', { as: acct })).json()
      assert.equal(one.labels.length, 2)
      assert.equal(one.metadata, undefined)
    })
  })
}
