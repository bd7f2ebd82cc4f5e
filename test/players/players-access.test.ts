import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { USER_ROLES } from '../../src/auth/roles.ts'
import { databaseBackends } from '../support/backends.ts'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { assertAbsent, assertRoleMatrix, roleTitle, type RouteCall } from '../support/role-matrix.ts'

/** Every /v2/players route on one player, deletes last. */
function callsOn (id: string): RouteCall[] {
  return [
    { method: 'GET', path: '/v2/players' },
    { method: 'GET', path: `/v2/players/${id}` },
    { method: 'GET', path: `/v2/players/${id}/metadata` },
    { method: 'POST', path: '/v2/players', body: { name: 'New' } },
    { method: 'PATCH', path: `/v2/players/${id}`, body: { name: 'Renamed' } },
    { method: 'PUT', path: `/v2/players/${id}`, body: { name: 'Replaced' } },
    { method: 'PUT', path: `/v2/players/${id}/metadata`, body: { a: '1' } },
    { method: 'PATCH', path: `/v2/players/${id}/metadata`, body: { b: '2' } },
    { method: 'DELETE', path: `/v2/players/${id}/metadata` },
    { method: 'DELETE', path: `/v2/players/${id}` }
  ]
}

for (const backend of databaseBackends()) {
  describe(`/v2/players roles and accounts on ${backend.name}`, { skip: backend.skip }, () => {
    let t: TestApp
    before(async () => { t = await buildTestApp(backend.name) })
    after(async () => { await t.close() })

    for (const role of USER_ROLES) {
      it(roleTitle('players', role), async () => {
        const victim = (await t.signed('POST', '/v2/players', { body: { name: 'Victim' } })).json()
        await assertRoleMatrix(t, 'players', role, await t.userWithRole(role), callsOn(victim.id), ['players'])
      })
    }

    it("answers 404 for another account's player on every route, and changes nothing", async () => {
      const other = await t.otherAccount()
      const theirs = (await t.signed('POST', '/v2/players', { as: other, body: { name: 'Theirs', is_default: true } })).json()
      await assertAbsent(t, callsOn(theirs.id).filter((call) => call.path !== '/v2/players'), ['players'], `Player ${theirs.id} does not exist.`)
      const list = (await t.signed('GET', '/v2/players?limit=500')).json()
      assert.ok(!list.items.some((p: { id: string }) => p.id === theirs.id))
      const mine = (await t.signed('POST', '/v2/players', { body: { name: 'Mine', is_default: true } })).json()
      assert.equal(mine.is_default, true)
      assert.equal((await t.signed('GET', `/v2/players/${theirs.id}`, { as: other })).json().is_default, true, "one account's default never clears another's")
    })
  })
}
