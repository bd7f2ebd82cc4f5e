import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { hexId } from '../../src/lib/ids.ts'
import { databaseBackends } from '../support/backends.ts'
import { buildTestApp, snapshot, type Caller, type TestApp } from '../support/app.ts'

interface Label { id: string, name: string, parent_id: string | null, full_name: string }

for (const backend of databaseBackends()) {
  describe(`/v2/labels on ${backend.name}`, { skip: backend.skip }, () => {
    let t: TestApp
    let as: Caller
    before(async () => { t = await buildTestApp(backend.name) })
    after(async () => { await t.close() })

    /** Each test works in a fresh account, so lists hold only its own labels. */
    async function freshAccount (): Promise<void> { as = await t.otherAccount() }
    async function call (method: string, path: string, body?: object) {
      return await t.signed(method, path, { as, body })
    }
    /** Creates a label one millisecond after the previous one, so lists (oldest first) have a known order. */
    async function create (name: string, parent?: Label): Promise<Label> {
      t.clock.advance(1)
      const res = await call('POST', '/v2/labels', { name, ...(parent !== undefined ? { parent_id: parent.id } : {}) })
      assert.equal(res.statusCode, 200, res.body)
      return res.json()
    }
    async function get (label: Label): Promise<Label> {
      return (await call('GET', `/v2/labels/${label.id}`)).json()
    }

    it('creates a tree whose full_name joins the ancestor names', async () => {
      await freshAccount()
      const sports = await create('Sports')
      const hockey = await create('Hockey', sports)
      const nhl = await create('NHL', hockey)
      assert.deepEqual(sports, { id: sports.id, name: 'Sports', parent_id: null, full_name: '/Sports' })
      assert.match(sports.id, /^[0-9a-f]{32}$/)
      assert.deepEqual(nhl, { id: nhl.id, name: 'NHL', parent_id: hockey.id, full_name: '/Sports/Hockey/NHL' })
      assert.deepEqual(await get(nhl), nhl)
    })

    it('keeps names unique among siblings only', async () => {
      await freshAccount()
      const a = await create('A')
      const b = await create('B')
      await create('Same', a)
      await create('Same', b)
      const dupe = await call('POST', '/v2/labels', { name: 'Same', parent_id: a.id })
      assert.equal(dupe.statusCode, 400)
      assert.equal(dupe.json().message, 'Label /A/Same already exists.')
      const dupeRoot = await call('POST', '/v2/labels', { name: 'A' })
      assert.equal(dupeRoot.json().message, 'Label /A already exists.')
    })

    it('lets exactly one of several concurrent creates of one name win', async () => {
      await freshAccount()
      const results = await Promise.all(Array.from({ length: 6 }, async () => await call('POST', '/v2/labels', { name: 'Race' })))
      assert.deepEqual(results.map((r) => r.statusCode).sort(), [200, 400, 400, 400, 400, 400])
      assert.equal((await call('GET', '/v2/labels')).json().items.length, 1)
    })

    it('has a unique index behind the sibling check, top level included', async () => {
      await freshAccount()
      const row = { account_id: as.accountId, name: 'Twin', parent_id: null, full_name: '/Twin', created_at: 'x', updated_at: 'x' }
      await t.ctx.db.insertInto('labels').values({ ...row, id: hexId() }).execute()
      await assert.rejects(t.ctx.db.insertInto('labels').values({ ...row, id: hexId() }).execute())
    })

    it('renaming a label rewrites the full_name of every descendant', async () => {
      await freshAccount()
      const sports = await create('Sports')
      const hockey = await create('Hockey', sports)
      const nhl = await create('NHL', hockey)
      const team = await create('Team', nhl)
      const other = await create('Sportswear')
      const res = await call('PATCH', `/v2/labels/${sports.id}`, { name: 'Sport' })
      assert.equal(res.statusCode, 200, res.body)
      assert.equal(res.json().full_name, '/Sport')
      assert.equal((await get(hockey)).full_name, '/Sport/Hockey')
      assert.equal((await get(nhl)).full_name, '/Sport/Hockey/NHL')
      assert.equal((await get(team)).full_name, '/Sport/Hockey/NHL/Team')
      assert.equal((await get(other)).full_name, '/Sportswear', 'a label that only shares the prefix text is untouched')
    })

    it('moving a label rewrites the full_name of its subtree, and null moves it to the top', async () => {
      await freshAccount()
      const sports = await create('Sports')
      const archive = await create('Archive')
      const hockey = await create('Hockey', sports)
      const nhl = await create('NHL', hockey)
      const team = await create('Tëam 🏒', nhl)
      const moved = await call('PATCH', `/v2/labels/${hockey.id}`, { parent_id: archive.id })
      assert.equal(moved.statusCode, 200, moved.body)
      assert.deepEqual(moved.json(), { ...hockey, parent_id: archive.id, full_name: '/Archive/Hockey' })
      assert.equal((await get(nhl)).full_name, '/Archive/Hockey/NHL')
      assert.equal((await get(team)).full_name, '/Archive/Hockey/NHL/Tëam 🏒')
      const both = await call('PATCH', `/v2/labels/${hockey.id}`, { parent_id: null, name: 'Ice' })
      assert.equal(both.json().full_name, '/Ice')
      assert.equal((await get(team)).full_name, '/Ice/NHL/Tëam 🏒')
      assert.equal((await get(sports)).full_name, '/Sports')
    })

    it('refuses to move a label under itself or its own descendant, changing nothing', async () => {
      await freshAccount()
      const a = await create('A')
      const b = await create('B', a)
      const c = await create('C', b)
      const before = await snapshot(t.ctx, ['labels'])
      for (const target of [a, b, c]) {
        const res = await call('PATCH', `/v2/labels/${a.id}`, { parent_id: target.id })
        assert.equal(res.statusCode, 400)
        assert.equal(res.json().message, 'Label /A cannot be moved under itself or one of its descendants.')
      }
      assert.equal(await snapshot(t.ctx, ['labels']), before)
    })

    it('refuses a rename or move onto an existing sibling name', async () => {
      await freshAccount()
      const a = await create('A')
      const b = await create('B')
      await create('X', a)
      const x2 = await create('X', b)
      assert.equal((await call('PATCH', `/v2/labels/${b.id}`, { name: 'A' })).json().message, 'Label /A already exists.')
      assert.equal((await call('PATCH', `/v2/labels/${x2.id}`, { parent_id: a.id })).json().message, 'Label /A/X already exists.')
      assert.equal((await call('PATCH', `/v2/labels/${b.id}`, { name: 'B' })).statusCode, 200, 'keeping its own name is fine')
    })

    it('PUT replaces the label: a parent not given means the top level', async () => {
      await freshAccount()
      const a = await create('A')
      const b = await create('B', a)
      const res = await call('PUT', `/v2/labels/${b.id}`, { name: 'C' })
      assert.deepEqual(res.json(), { id: b.id, name: 'C', parent_id: null, full_name: '/C' })
    })

    it('refuses to delete a label with children unless recursive=true, which removes the subtree', async () => {
      await freshAccount()
      const a = await create('A')
      const b = await create('B', a)
      await create('C', b)
      const keep = await create('Keep')
      const refused = await call('DELETE', `/v2/labels/${a.id}`)
      assert.equal(refused.statusCode, 409)
      assert.equal(refused.json().message, 'Label /A has child labels; delete them first or pass recursive=true.')
      const gone = await call('DELETE', `/v2/labels/${a.id}?recursive=true`)
      assert.equal(gone.statusCode, 200)
      assert.deepEqual(gone.json(), {})
      const left = (await call('GET', '/v2/labels')).json().items
      assert.deepEqual(left, [keep])
      assert.equal((await call('DELETE', `/v2/labels/${keep.id}`)).statusCode, 200, 'a leaf needs no flag')
    })

    it('lists only top-level labels with is_root=true, and children of one label', async () => {
      await freshAccount()
      const a = await create('A')
      const b = await create('B')
      const a1 = await create('A1', a)
      const a2 = await create('A2', a)
      await create('A1x', a1)
      assert.deepEqual((await call('GET', '/v2/labels?is_root=true')).json(), { items: [a, b] })
      assert.deepEqual((await call('GET', `/v2/labels/${a.id}/children`)).json(), { items: [a1, a2] })
      const page = (await call('GET', `/v2/labels/${a.id}/children?limit=1`)).json()
      assert.deepEqual(page.items, [a1])
      assert.match(page.next_page, new RegExp(`^/v2/labels/${a.id}/children\\?limit=1&page_token=[^&]+$`))
      const rootsPage = (await call('GET', '/v2/labels?is_root=true&limit=1')).json()
      assert.match(rootsPage.next_page, /^\/v2\/labels\?is_root=true&limit=1&page_token=[^&]+$/)
      assert.deepEqual((await call('GET', rootsPage.next_page)).json(), { items: [b] })
    })

    it('GET by_full_path answers {items} in request order, or 400 naming the missing paths', async () => {
      await freshAccount()
      const sports = await create('Sports')
      const hockey = await create('Hockey', sports)
      const rock = await create('Rock, Pop')
      const one = await call('GET', '/v2/labels/by_full_path/%2FSports%2FHockey')
      assert.deepEqual(one.json(), { items: [hockey] })
      const several = await call('GET', `/v2/labels/by_full_path/${encodeURIComponent('/Rock, Pop')},%2FSports`)
      assert.deepEqual(several.json(), { items: [rock, sports] })
      const allEncoded = await call('GET', `/v2/labels/by_full_path/${encodeURIComponent('/Sports,/Sports/Hockey')}`)
      assert.deepEqual(allEncoded.json(), { items: [sports, hockey] })
      const missing = await call('GET', `/v2/labels/by_full_path/${encodeURIComponent('/Sports/Golf')},%2FSports,%2FNews`)
      assert.equal(missing.statusCode, 400)
      assert.equal(missing.json().message, 'These labels do not exist: /Sports/Golf, /News.')
      assert.deepEqual(missing.json().missing_labels, ['/Sports/Golf', '/News'])
    })

    it('POST by_full_path creates only the missing components and returns a bare array', async () => {
      await freshAccount()
      const sports = await create('Sports')
      const hockey = await create('Hockey', sports)
      const before = (await call('GET', '/v2/labels')).json().items as Label[]
      t.clock.advance(1)
      const res = await call('POST', `/v2/labels/by_full_path/${encodeURIComponent('/Sports/Hockey/NHL/Teams')},${encodeURIComponent('/Sports/Hockey')},%2FNews`)
      assert.equal(res.statusCode, 200, res.body)
      const [teams, again, news] = res.json() as Label[]
      assert.deepEqual(again, hockey, 'an existing label is returned, not duplicated')
      assert.equal(teams?.full_name, '/Sports/Hockey/NHL/Teams')
      assert.deepEqual(news, { id: news?.id, name: 'News', parent_id: null, full_name: '/News' })
      const after = (await call('GET', '/v2/labels')).json().items as Label[]
      assert.deepEqual(after.slice(0, before.length), before)
      assert.deepEqual(after.map((l) => l.full_name).slice(before.length).sort(), ['/News', '/Sports/Hockey/NHL', '/Sports/Hockey/NHL/Teams'])
      const nhl = after.find((l) => l.full_name === '/Sports/Hockey/NHL') as Label
      assert.equal(nhl.parent_id, hockey.id)
      assert.equal(teams?.parent_id, nhl.id)
      const repeat = await call('POST', `/v2/labels/by_full_path/${encodeURIComponent('/Sports/Hockey/NHL/Teams')}`)
      assert.deepEqual(repeat.json(), [teams], 'a second call creates nothing')
      assert.equal((await call('GET', '/v2/labels')).json().items.length, after.length)
    })
  })
}
