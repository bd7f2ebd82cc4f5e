import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { USER_ROLES } from '../../src/auth/roles.ts'
import { databaseBackends } from '../support/backends.ts'
import { buildTestApp, snapshot, type TestApp } from '../support/app.ts'
import { assertAbsent, assertRoleMatrix, roleTitle, type RouteCall } from '../support/role-matrix.ts'

for (const backend of databaseBackends()) {
  describe(`/v2/labels roles and accounts on ${backend.name}`, { skip: backend.skip }, () => {
    let t: TestApp
    before(async () => { t = await buildTestApp(backend.name) })
    after(async () => { await t.close() })

    for (const role of USER_ROLES) {
      it(roleTitle('labels', role), async () => {
        const parent = (await t.signed('POST', '/v2/labels', { body: { name: `P-${role}` } })).json()
        const victim = (await t.signed('POST', '/v2/labels', { body: { name: 'V', parent_id: parent.id } })).json()
        const calls: RouteCall[] = [
          { method: 'GET', path: '/v2/labels' },
          { method: 'GET', path: `/v2/labels/${victim.id}` },
          { method: 'GET', path: `/v2/labels/${parent.id}/children` },
          { method: 'GET', path: `/v2/labels/by_full_path/${encodeURIComponent(`/P-${role}/V`)}` },
          { method: 'POST', path: '/v2/labels', body: { name: `New-${role}` } },
          { method: 'POST', path: `/v2/labels/by_full_path/${encodeURIComponent(`/Path-${role}/Leaf`)}` },
          { method: 'PATCH', path: `/v2/labels/${victim.id}`, body: { name: 'V2' } },
          { method: 'PUT', path: `/v2/labels/${victim.id}`, body: { name: 'V3', parent_id: parent.id } },
          { method: 'DELETE', path: `/v2/labels/${victim.id}` }
        ]
        await assertRoleMatrix(t, 'labels', role, await t.userWithRole(role), calls, ['labels'])
      })
    }

    it("answers 404 for another account's label on every route, and changes nothing", async () => {
      const other = await t.otherAccount()
      const theirs = (await t.signed('POST', '/v2/labels', { as: other, body: { name: 'Theirs' } })).json()
      await t.signed('POST', '/v2/labels', { as: other, body: { name: 'Child', parent_id: theirs.id } })
      const calls: RouteCall[] = [
        { method: 'GET', path: `/v2/labels/${theirs.id}` },
        { method: 'GET', path: `/v2/labels/${theirs.id}/children` },
        { method: 'PATCH', path: `/v2/labels/${theirs.id}`, body: { name: 'Mine' } },
        { method: 'PUT', path: `/v2/labels/${theirs.id}`, body: { name: 'Mine' } },
        { method: 'DELETE', path: `/v2/labels/${theirs.id}` },
        { method: 'DELETE', path: `/v2/labels/${theirs.id}?recursive=true` }
      ]
      await assertAbsent(t, calls, ['labels'], `Label ${theirs.id} does not exist.`)
      const beforeRows = await snapshot(t.ctx, ['labels'])
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
