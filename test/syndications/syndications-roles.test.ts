import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { USER_ROLES } from '../../src/auth/roles.ts'
import { databaseBackends } from '../support/backends.ts'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { assertAbsent, assertRoleMatrix, roleTitle, type RouteCall } from '../support/role-matrix.ts'
import { createVia, snapshotTables, SYNDICATION_TABLES } from '../assets/support/assets.ts'

/** Every signed syndication route, reads first; in this order each succeeds for a role that may make it. */
function everyRoute (id: string, key: string): RouteCall[] {
  const s = `/v2/syndications/${id}`
  return [
    { method: 'GET', path: '/v2/syndications' },
    { method: 'GET', path: s },
    { method: 'GET', path: `${s}/access_keys` },
    { method: 'POST', path: '/v2/syndications', body: { name: 'new', type: 'mrss' } },
    { method: 'PATCH', path: s, body: { title: 'patched' } },
    { method: 'PUT', path: s, body: { name: 'replaced', type: 'source' } },
    { method: 'POST', path: `${s}/access_keys` },
    { method: 'DELETE', path: `${s}/access_keys/${key}` },
    { method: 'DELETE', path: s }
  ]
}

for (const backend of databaseBackends()) {
  describe(`syndication roles and accounts on ${backend.name}`, { skip: backend.skip }, () => {
    let t: TestApp
    before(async () => { t = await buildTestApp(backend.name) })
    after(async () => { await t.close() })

    const fixture = async (as = t.admin): Promise<{ id: string, key: string }> => {
      const id = (await createVia(t, '/v2/syndications', { name: 'S', type: 'mrss' }, as)).id
      const key = (await t.signed('POST', `/v2/syndications/${id}/access_keys`, { as })).json().access_key as string
      return { id, key }
    }

    for (const role of USER_ROLES) {
      it(roleTitle('syndications', role), async () => {
        const { id, key } = await fixture()
        await assertRoleMatrix(t, 'syndications', role, await t.userWithRole(role), everyRoute(id, key), SYNDICATION_TABLES)
      })
    }

    it('answers 404 for another account\'s syndication on every route, and its feed under our account code', async () => {
      const other = await t.otherAccount()
      const { id, key } = await fixture(other)
      await assertAbsent(t, everyRoute(id, key).filter((c) => c.path.includes(id)), SYNDICATION_TABLES, `Syndication ${id} does not exist.`)
      const beforeRows = await snapshotTables(t.ctx, SYNDICATION_TABLES)
      const feed = await t.app.inject({ method: 'GET', url: `/v2/syndications/${id}/feed?pcode=${t.admin.accountCode}` })
      assert.equal(feed.statusCode, 404)
      assert.equal(await snapshotTables(t.ctx, SYNDICATION_TABLES), beforeRows)
      const list = (await t.signed('GET', '/v2/syndications?limit=500')).json()
      assert.ok(!list.items.some((s: { id: string }) => s.id === id))
      const own = await t.app.inject({ method: 'GET', url: `/v2/syndications/${id}/feed?pcode=${other.accountCode}` })
      assert.equal(own.statusCode, 200, 'the feed is public: no role, no signature')
    })
  })
}
