import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { USER_ROLES } from '../../src/auth/roles.ts'
import { databaseBackends } from '../support/backends.ts'
import type { LightMyRequestResponse } from 'fastify'
import { buildTestApp, snapshot, type TestApp } from '../support/app.ts'

for (const backend of databaseBackends()) {
  describe(`GET /v2/account on ${backend.name}`, { skip: backend.skip }, () => {
    let t: TestApp
    before(async () => { t = await buildTestApp(backend.name, { CREDITS_PER_MINUTE: '1000' }) })
    after(async () => { await t.close() })

    it('answers the caller\'s own account and the server\'s default allowance, to every role', async () => {
      for (const role of USER_ROLES) {
        const res = await t.signed('GET', '/v2/account', { as: await t.userWithRole(role) })
        assert.equal(res.statusCode, 200, `${role}: ${res.body}`)
        assert.deepEqual(res.json(), {
          id: t.admin.accountId,
          code: t.admin.accountCode,
          name: 'Test account',
          credits_per_minute: 1000,
          credits_per_minute_source: 'server_default',
          created_at: '2026-11-22T10:00:00Z'
        })
      }
    })

    it('shows the account\'s own allowance once the operator sets it, and that allowance is what is charged against', async () => {
      await t.ctx.services.accounts.setCreditsPerMinute(t.admin.accountId, 3)
      const res = await t.signed('GET', '/v2/account')
      assert.deepEqual([res.json().credits_per_minute, res.json().credits_per_minute_source], [3, 'account'])
      // Allowances are read at most once a minute per process: the next minute charges against 3.
      t.clock.advance(61_000)
      const statuses: number[] = []
      for (let i = 0; i < 5; i++) statuses.push((await t.signed('GET', '/v2/labels')).statusCode)
      assert.deepEqual(statuses.slice(0, 3), [200, 200, 200])
      assert.equal(statuses[4], 429)
      await t.ctx.services.accounts.setCreditsPerMinute(t.admin.accountId, null)
      t.clock.advance(61_000)
      assert.equal((await t.signed('GET', '/v2/account')).json().credits_per_minute_source, 'server_default')
    })

    it('answers another account its own, never this one', async () => {
      const other = await t.otherAccount()
      const res = await t.signed('GET', '/v2/account', { as: other })
      assert.equal(res.json().id, other.accountId)
      assert.notEqual(res.json().id, t.admin.accountId)
    })

    it('refuses to set an allowance on an account that does not exist', async () => {
      await assert.rejects(t.ctx.services.accounts.setCreditsPerMinute('f'.repeat(32), 10), { code: 'account_not_found', message: `Account ${'f'.repeat(32)} does not exist.` })
    })

    describe('bad input', () => {
      // The route takes no parameters and no body, and ignores the extra parameters clients of this
      // API family send, as every route does; what it refuses is an unsigned or wrongly signed request.
      const rows: Array<{ name: string, send: () => Promise<LightMyRequestResponse>, status: number, message: string | (() => string) }> = [
        { name: 'no signature', send: async () => await t.app.inject({ method: 'GET', url: '/v2/account' }), status: 400, message: 'These parameters are missing: api_key, signature, expires.' },
        { name: 'a wrong secret', send: async () => await t.signed('GET', '/v2/account', { as: { ...t.admin, secret: 'x'.repeat(40) } }), status: 401, message: 'Invalid signature.' },
        { name: 'an expired request', send: async () => await t.signed('GET', '/v2/account', { expires: Math.floor(t.clock.now() / 1000) - 60 }), status: 401, message: 'Request expired.' },
        { name: 'an account id in the path (there is no /v2/account/:id)', send: async () => await t.signed('GET', `/v2/account/${t.admin.accountId}`), status: 404, message: () => `No route GET /v2/account/${t.admin.accountId}.` }
      ]
      for (const row of rows) {
        it(`answers ${row.status} to ${row.name}, changing nothing`, async () => {
          const before = await snapshot(t.ctx, ['accounts'])
          const res = await row.send()
          assert.equal(res.statusCode, row.status, res.body)
          assert.equal(res.json().message, typeof row.message === 'function' ? row.message() : row.message)
          assert.equal(await snapshot(t.ctx, ['accounts']), before)
        })
      }
    })
  })
}
