import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { USER_ROLES, type UserRole } from '../../src/auth/roles.ts'
import { databaseBackends } from '../support/backends.ts'
import { buildTestApp, snapshot, type TestApp } from '../support/app.ts'

/** product.md §2: administrator and manager all; read_only reads; upload_only and analytics_only nothing. */
const MAY: Record<UserRole, { read: boolean, write: boolean }> = {
  administrator: { read: true, write: true },
  manager: { read: true, write: true },
  upload_only: { read: false, write: false },
  analytics_only: { read: false, write: false },
  read_only: { read: true, write: false }
}

/** Every /v2/players route on one player, deletes last. */
function callsOn (id: string): Array<[string, string, object?]> {
  return [
    ['GET', '/v2/players'],
    ['GET', `/v2/players/${id}`],
    ['GET', `/v2/players/${id}/metadata`],
    ['POST', '/v2/players', { name: 'New' }],
    ['PATCH', `/v2/players/${id}`, { name: 'Renamed' }],
    ['PUT', `/v2/players/${id}`, { name: 'Replaced' }],
    ['PUT', `/v2/players/${id}/metadata`, { a: '1' }],
    ['PATCH', `/v2/players/${id}/metadata`, { b: '2' }],
    ['DELETE', `/v2/players/${id}/metadata`],
    ['DELETE', `/v2/players/${id}`]
  ]
}

for (const backend of databaseBackends()) {
  describe(`/v2/players roles and accounts on ${backend.name}`, { skip: backend.skip }, () => {
    let t: TestApp
    before(async () => { t = await buildTestApp(backend.name) })
    after(async () => { await t.close() })

    for (const role of USER_ROLES) {
      it(`${MAY[role].write ? 'allows' : MAY[role].read ? 'allows only reads to' : 'refuses'} ${role} on every /v2/players route`, async () => {
        const caller = await t.userWithRole(role)
        const victim = (await t.signed('POST', '/v2/players', { body: { name: 'Victim' } })).json()
        const beforeRows = await snapshot(t.ctx, ['players'])
        for (const [method, path, body] of callsOn(victim.id)) {
          const action = method === 'GET' ? 'read' : 'write'
          const res = await t.signed(method, path, { as: caller, body })
          if (MAY[role][action]) {
            assert.equal(res.statusCode, 200, `${method} ${path}: ${res.body}`)
          } else {
            assert.equal(res.statusCode, 403, `${method} ${path}`)
            assert.equal(res.json().message, `Role ${role} may not ${action} players.`)
          }
        }
        if (!MAY[role].write) assert.equal(await snapshot(t.ctx, ['players']), beforeRows)
      })
    }

    it("answers 404 for another account's player on every route, and changes nothing", async () => {
      const other = await t.otherAccount()
      const theirs = (await t.signed('POST', '/v2/players', { as: other, body: { name: 'Theirs', is_default: true } })).json()
      const beforeRows = await snapshot(t.ctx, ['players'])
      for (const [method, path, body] of callsOn(theirs.id).filter(([, path]) => path !== '/v2/players')) {
        const res = await t.signed(method, path, { body })
        assert.equal(res.statusCode, 404, `${method} ${path}`)
        assert.equal(res.json().message, `Player ${theirs.id} does not exist.`)
      }
      assert.equal(await snapshot(t.ctx, ['players']), beforeRows)
      const list = (await t.signed('GET', '/v2/players?limit=500')).json()
      assert.ok(!list.items.some((p: { id: string }) => p.id === theirs.id))
      const mine = (await t.signed('POST', '/v2/players', { body: { name: 'Mine', is_default: true } })).json()
      assert.equal(mine.is_default, true)
      assert.equal((await t.signed('GET', `/v2/players/${theirs.id}`, { as: other })).json().is_default, true, "one account's default never clears another's")
    })
  })
}
