import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { USER_ROLES, type UserRole } from '../../src/auth/roles.ts'
import { databaseBackends } from '../support/backends.ts'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { createVia, snapshotTables, SYNDICATION_TABLES } from '../assets/support/assets.ts'

interface Call { method: string, path: string, body?: unknown, action: 'read' | 'write' }

/** Every signed syndication route, reads first; in this order each succeeds for a role that may make it. */
function everyRoute (id: string, key: string): Call[] {
  const s = `/v2/syndications/${id}`
  return [
    { action: 'read', method: 'GET', path: '/v2/syndications' },
    { action: 'read', method: 'GET', path: s },
    { action: 'read', method: 'GET', path: `${s}/access_keys` },
    { action: 'write', method: 'POST', path: '/v2/syndications', body: { name: 'new', type: 'mrss' } },
    { action: 'write', method: 'PATCH', path: s, body: { title: 'patched' } },
    { action: 'write', method: 'PUT', path: s, body: { name: 'replaced', type: 'source' } },
    { action: 'write', method: 'POST', path: `${s}/access_keys` },
    { action: 'write', method: 'DELETE', path: `${s}/access_keys/${key}` },
    { action: 'write', method: 'DELETE', path: s }
  ]
}

const ALLOWED: Record<UserRole, Array<'read' | 'write'>> = {
  administrator: ['read', 'write'],
  manager: ['read', 'write'],
  upload_only: [],
  analytics_only: [],
  read_only: ['read']
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
      it(`${role}: ${ALLOWED[role].join(' and ') || 'nothing'} on every syndication route, 403 naming the role otherwise`, async () => {
        const caller = await t.userWithRole(role)
        const { id, key } = await fixture()
        for (const call of everyRoute(id, key)) {
          const beforeRows = await snapshotTables(t.ctx, SYNDICATION_TABLES)
          const res = await t.signed(call.method, call.path, { as: caller, body: call.body === undefined ? undefined : JSON.stringify(call.body) })
          if (ALLOWED[role].includes(call.action)) {
            assert.equal(res.statusCode, 200, `${call.method} ${call.path}: ${res.body}`)
          } else {
            assert.equal(res.statusCode, 403, `${call.method} ${call.path}`)
            assert.equal(res.json().message, `Role ${role} may not ${call.action} syndications.`)
            assert.equal(await snapshotTables(t.ctx, SYNDICATION_TABLES), beforeRows)
          }
        }
      })
    }

    it('answers 404 for another account\'s syndication on every route, and its feed under our account code', async () => {
      const other = await t.otherAccount()
      const { id, key } = await fixture(other)
      const beforeRows = await snapshotTables(t.ctx, SYNDICATION_TABLES)
      for (const call of everyRoute(id, key).filter((c) => c.path.includes(id))) {
        const res = await t.signed(call.method, call.path, { body: call.body === undefined ? undefined : JSON.stringify(call.body) })
        assert.equal(res.statusCode, 404, `${call.method} ${call.path}`)
        assert.equal(res.json().message, `Syndication ${id} does not exist.`)
      }
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
