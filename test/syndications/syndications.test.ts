import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { databaseBackends } from '../support/backends.ts'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { allPages, createVia } from '../assets/support/assets.ts'

const DEFAULTS = {
  include_all_content: true,
  include_labels: [],
  asset_types: [],
  title: '',
  description: '',
  keywords: null,
  author: null,
  category: null,
  require_access_key: false
}

for (const backend of databaseBackends()) {
  describe(`/v2/syndications on ${backend.name}`, { skip: backend.skip }, () => {
    let t: TestApp
    before(async () => { t = await buildTestApp(backend.name) })
    after(async () => { await t.close() })

    it('creates a syndication from name and type with every other field at its default', async () => {
      const res = await t.signed('POST', '/v2/syndications', { body: { name: 'Source MRSS', type: 'source' } })
      assert.equal(res.statusCode, 200, res.body)
      const { id, feed_url: feedUrl, created_at: createdAt, updated_at: updatedAt, ...rest } = res.json()
      assert.match(id, /^[0-9a-f]{32}$/)
      assert.equal(feedUrl, `/v2/syndications/${id}/feed?pcode=${t.admin.accountCode}`)
      assert.equal(createdAt, '2026-11-22T10:00:00Z')
      assert.equal(updatedAt, createdAt)
      assert.deepEqual(rest, { name: 'Source MRSS', type: 'source', ...DEFAULTS })
      assert.deepEqual((await t.signed('GET', `/v2/syndications/${id}`)).json(), res.json())
    })

    it('takes every field on create, patches only what is given, and PUT returns the rest to defaults', async () => {
      const sports = await createVia(t, '/v2/labels', { name: 'Sports' })
      const news = await createVia(t, '/v2/labels', { name: 'News' })
      const full = {
        name: 'Podcast', type: 'itunes', include_all_content: 'false', include_labels: [news.id, sports.id, news.id], asset_types: ['audio', 'remote_asset', 'audio'],
        title: 'The Show', description: 'Weekly.\nEvery Monday.', keywords: 'news, sport', author: 'Ana', category: 'News', require_access_key: true
      }
      const created = (await t.signed('POST', '/v2/syndications', { body: full })).json()
      assert.equal(created.include_all_content, false)
      assert.deepEqual(created.include_labels, [news.id, sports.id], 'in the order given, repeats once')
      assert.deepEqual(created.asset_types, ['audio', 'remote_asset'])
      assert.equal(created.require_access_key, true)
      t.clock.advance(1000)
      const patched = (await t.signed('PATCH', `/v2/syndications/${created.id}`, { body: { title: 'New title', include_labels: [sports.id] } })).json()
      assert.equal(patched.title, 'New title')
      assert.equal(patched.author, 'Ana')
      assert.deepEqual(patched.include_labels, [sports.id])
      assert.equal(patched.updated_at, '2026-11-22T10:00:01Z')
      const replaced = await t.signed('PUT', `/v2/syndications/${created.id}`, { body: { name: 'Plain', type: 'mrss' } })
      assert.equal(replaced.statusCode, 200, replaced.body)
      const { id, feed_url: _f, created_at: _c, updated_at: _u, ...rest } = replaced.json()
      assert.equal(id, created.id)
      assert.deepEqual(rest, { name: 'Plain', type: 'mrss', ...DEFAULTS })
    })

    it('drops a deleted label from include_labels', async () => {
      const label = await createVia(t, '/v2/labels', { name: 'Temporary' })
      const syndication = (await t.signed('POST', '/v2/syndications', { body: { name: 'L', type: 'mrss', include_labels: [label.id] } })).json()
      await t.signed('DELETE', `/v2/labels/${label.id}`)
      assert.deepEqual((await t.signed('GET', `/v2/syndications/${syndication.id}`)).json().include_labels, [])
    })

    it('deletes a syndication with its access keys', async () => {
      const syndication = (await t.signed('POST', '/v2/syndications', { body: { name: 'D', type: 'roku' } })).json()
      await t.signed('POST', `/v2/syndications/${syndication.id}/access_keys`)
      assert.deepEqual((await t.signed('DELETE', `/v2/syndications/${syndication.id}`)).json(), {})
      assert.equal((await t.signed('GET', `/v2/syndications/${syndication.id}`)).statusCode, 404)
      assert.deepEqual(await t.ctx.db.selectFrom('syndication_access_keys').selectAll().where('syndication_id', '=', syndication.id).execute(), [])
    })

    it('creates, lists and deletes access keys', async () => {
      const syndication = (await t.signed('POST', '/v2/syndications', { body: { name: 'K', type: 'mp4', require_access_key: 'true' } })).json()
      const base = `/v2/syndications/${syndication.id}/access_keys`
      assert.deepEqual((await t.signed('GET', base)).json(), { items: [] })
      const createdAt = `${new Date(t.clock.now()).toISOString().slice(0, 19)}Z`
      const first = (await t.signed('POST', base)).json()
      t.clock.advance(1000)
      const second = (await t.signed('POST', base, { body: {} })).json()
      assert.match(first.access_key, /^[A-Za-z0-9_-]{32}$/)
      assert.equal(first.created_at, createdAt)
      assert.deepEqual((await t.signed('GET', base)).json().items.map((k: { access_key: string }) => k.access_key), [first.access_key, second.access_key])
      assert.deepEqual((await t.signed('DELETE', `${base}/${first.access_key}`)).json(), {})
      assert.deepEqual((await t.signed('GET', base)).json().items, [second])
      const again = await t.signed('DELETE', `${base}/${first.access_key}`)
      assert.equal(again.statusCode, 404)
      assert.equal(again.json().message, `Access key ${first.access_key} does not exist.`)
    })

    it('refuses the 101st access key', async () => {
      const syndication = (await t.signed('POST', '/v2/syndications', { body: { name: 'Many', type: 'mp4' } })).json()
      const rows = Array.from({ length: 100 }, (_, i) => ({ account_id: t.admin.accountId, syndication_id: syndication.id, access_key: `k${i}`, created_at: '2026-11-22T10:00:00.000Z' }))
      await t.ctx.db.insertInto('syndication_access_keys').values(rows).execute()
      const res = await t.signed('POST', `/v2/syndications/${syndication.id}/access_keys`)
      assert.equal(res.statusCode, 409)
      assert.equal(res.json().message, `Syndication ${syndication.id} already has 100 access keys; delete one first.`)
    })

    it('pages syndications oldest first with next_page', async () => {
      const other = await t.otherAccount()
      const made: string[] = []
      for (let i = 0; i < 5; i++) {
        made.push((await createVia(t, '/v2/syndications', { name: `s${i}`, type: 'google' }, other)).id)
        t.clock.advance(1000)
      }
      const { items, pages } = await allPages<{ id: string }>(t, '/v2/syndications?limit=2', other)
      assert.deepEqual(items.map((s) => s.id), made)
      assert.equal(pages.length, 3)
      assert.match(pages[2] as string, /^\/v2\/syndications\?limit=2&page_token=[A-Za-z0-9_.-]+$/)
    })
  })
}
