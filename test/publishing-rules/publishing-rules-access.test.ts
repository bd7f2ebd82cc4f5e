import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { USER_ROLES } from '../../src/auth/roles.ts'
import { databaseBackends } from '../support/backends.ts'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { assertAbsent, assertRoleMatrix, roleTitle, type RouteCall } from '../support/role-matrix.ts'

/** Every /v2/publishing_rules route on one rule, delete last. */
function callsOn (id: string): RouteCall[] {
  return [
    { method: 'GET', path: '/v2/publishing_rules' },
    { method: 'GET', path: `/v2/publishing_rules/${id}` },
    { method: 'POST', path: '/v2/publishing_rules', body: { name: 'New' } },
    { method: 'PATCH', path: `/v2/publishing_rules/${id}`, body: { allowed_devices: ['ipad'] } },
    { method: 'PUT', path: `/v2/publishing_rules/${id}`, body: { name: 'Replaced' } },
    { method: 'DELETE', path: `/v2/publishing_rules/${id}` }
  ]
}

for (const backend of databaseBackends()) {
  describe(`/v2/publishing_rules roles and accounts on ${backend.name}`, { skip: backend.skip }, () => {
    let t: TestApp
    before(async () => { t = await buildTestApp(backend.name) })
    after(async () => { await t.close() })

    for (const role of USER_ROLES) {
      it(roleTitle('publishing rules', role), async () => {
        const victim = (await t.signed('POST', '/v2/publishing_rules', { body: { name: 'Victim' } })).json()
        await assertRoleMatrix(t, 'publishing rules', role, await t.userWithRole(role), callsOn(victim.id), ['publishing_rules'])
      })
    }

    it("answers 404 for another account's rule on every route, and changes nothing", async () => {
      const other = await t.otherAccount()
      const theirs = (await t.signed('POST', '/v2/publishing_rules', { as: other, body: { name: 'Theirs' } })).json()
      await assertAbsent(t, callsOn(theirs.id).filter((call) => call.path !== '/v2/publishing_rules'), ['publishing_rules'], `Publishing rule ${theirs.id} does not exist.`)
      const list = (await t.signed('GET', '/v2/publishing_rules?limit=500')).json()
      assert.ok(!list.items.some((r: { id: string }) => r.id === theirs.id))
    })
  })
}
