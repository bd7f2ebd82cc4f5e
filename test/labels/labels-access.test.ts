import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { USER_ROLES, type UserRole } from '../../src/auth/roles.ts'
import { databaseBackends } from '../support/backends.ts'
import { buildTestApp, snapshot, type TestApp } from '../support/app.ts'

/** product.md §2: administrator and manager all; upload_only and read_only read; analytics_only nothing. */
const MAY: Record<UserRole, { read: boolean, write: boolean }> = {
  administrator: { read: true, write: true },
  manager: { read: true, write: true },
  upload_only: { read: true, write: false },
  analytics_only: { read: false, write: false },
  read_only: { read: true, write: false }
}

for (const backend of databaseBackends()) {
  describe(`/v2/labels roles and accounts on ${backend.name}`, { skip: backend.skip }, () => {
    let t: TestApp
    before(async () => { t = await buildTestApp(backend.name) })
    after(async () => { await t.close() })

    for (const role of USER_ROLES) {
      it(`${MAY[role].write ? 'allows' : MAY[role].read ? 'allows only reads to' : 'refuses'} ${role} on every /v2/labels route`, async () => {
        const caller = await t.userWithRole(role)
        const parent = (await t.signed('POST', '/v2/labels', { body: { name: `P-${role}` } })).json()
        const victim = (await t.signed('POST', '/v2/labels', { body: { name: 'V', parent_id: parent.id } })).json()
        const calls: Array<[string, string, object?]> = [
          ['GET', '/v2/labels'],
          ['GET', `/v2/labels/${victim.id}`],
          ['GET', `/v2/labels/${parent.id}/children`],
          ['GET', `/v2/labels/by_full_path/${encodeURIComponent(`/P-${role}/V`)}`],
          ['POST', '/v2/labels', { name: `New-${role}` }],
          ['POST', `/v2/labels/by_full_path/${encodeURIComponent(`/Path-${role}/Leaf`)}`],
          ['PATCH', `/v2/labels/${victim.id}`, { name: 'V2' }],
          ['PUT', `/v2/labels/${victim.id}`, { name: 'V3', parent_id: parent.id }],
          ['DELETE', `/v2/labels/${victim.id}`]
        ]
        const beforeRows = await snapshot(t.ctx, ['labels'])
        for (const [method, path, body] of calls) {
          const action = method === 'GET' ? 'read' : 'write'
          const res = await t.signed(method, path, { as: caller, body })
          if (MAY[role][action]) {
            assert.equal(res.statusCode, 200, `${method} ${path}: ${res.body}`)
          } else {
            assert.equal(res.statusCode, 403, `${method} ${path}`)
            assert.equal(res.json().message, `Role ${role} may not ${action} labels.`)
          }
        }
        if (!MAY[role].write) assert.equal(await snapshot(t.ctx, ['labels']), beforeRows)
      })
    }

    it("answers 404 for another account's label on every route, and changes nothing", async () => {
      const other = await t.otherAccount()
      const theirs = (await t.signed('POST', '/v2/labels', { as: other, body: { name: 'Theirs' } })).json()
      await t.signed('POST', '/v2/labels', { as: other, body: { name: 'Child', parent_id: theirs.id } })
      const beforeRows = await snapshot(t.ctx, ['labels'])
      const calls: Array<[string, string, object?]> = [
        ['GET', `/v2/labels/${theirs.id}`],
        ['GET', `/v2/labels/${theirs.id}/children`],
        ['PATCH', `/v2/labels/${theirs.id}`, { name: 'Mine' }],
        ['PUT', `/v2/labels/${theirs.id}`, { name: 'Mine' }],
        ['DELETE', `/v2/labels/${theirs.id}`],
        ['DELETE', `/v2/labels/${theirs.id}?recursive=true`]
      ]
      for (const [method, path, body] of calls) {
        const res = await t.signed(method, path, { body })
        assert.equal(res.statusCode, 404, `${method} ${path}`)
        assert.equal(res.json().message, `Label ${theirs.id} does not exist.`)
      }
      const underTheirs = await t.signed('POST', '/v2/labels', { body: { name: 'x', parent_id: theirs.id } })
      assert.equal(underTheirs.statusCode, 400)
      assert.equal(underTheirs.json().message, `Parent label ${theirs.id} does not exist.`)
      const byPath = await t.signed('GET', '/v2/labels/by_full_path/%2FTheirs%2FChild')
      assert.equal(byPath.statusCode, 400)
      assert.deepEqual(byPath.json().missing_labels, ['/Theirs/Child'])
      assert.equal(await snapshot(t.ctx, ['labels']), beforeRows)
      const list = (await t.signed('GET', '/v2/labels?limit=500')).json()
      assert.ok(!list.items.some((l: { id: string }) => l.id === theirs.id))
      const mine = (await t.signed('POST', '/v2/labels/by_full_path/%2FTheirs%2FChild')).json()
      assert.notEqual(mine[0].parent_id, theirs.id, 'the same path in this account is a different label')
    })
  })
}
