import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { LightMyRequestResponse } from 'fastify'
import { databaseBackends } from '../support/backends.ts'
import type { Caller } from '../support/app.ts'
import { creditHeaders, startHarness, storeKinds, type Harness, type Instance } from './harness.ts'

const MINUTE = Date.UTC(2026, 10, 22, 10, 0, 0)
const GLOBAL = 20
const OWN = 10

/** Whose budget a response shows: the caller's account, or the client address' (unsigned or unauthenticated). */
type Budget = 'account' | 'client'

interface Row {
  name: string
  status: number
  budget: Budget
  /** Credits the request itself used from that budget. */
  cost: number
  /** Not a row of the cached variant, which refuses methods other than GET/HEAD with 405 and serves JSONP. */
  apiOnly?: true
  send: (h: Harness, on: Instance, caller: Caller, address: string) => Promise<LightMyRequestResponse>
}

const rows: Row[] = [
  { name: 'a 200', status: 200, budget: 'account', cost: 1, send: async (h, on, as, remoteAddress) => await h.signed(on, 'GET', '/v2/users', { as, remoteAddress }) },
  { name: 'a 400 from schema validation', status: 400, budget: 'account', cost: 1, apiOnly: true, send: async (h, on, as, remoteAddress) => await h.signed(on, 'POST', '/v2/users', { as, remoteAddress, body: { name: 12, role: 'manager' } }) },
  { name: 'a 400 from a body that is not JSON', status: 400, budget: 'account', cost: 1, apiOnly: true, send: async (h, on, as, remoteAddress) => await h.signed(on, 'POST', '/v2/users', { as, remoteAddress, body: '{"name":' }) },
  { name: 'a 400 for a bad limit', status: 400, budget: 'account', cost: 1, send: async (h, on, as, remoteAddress) => await h.signed(on, 'GET', '/v2/users?limit=0', { as, remoteAddress }) },
  { name: 'a 400 for missing signing parameters', status: 400, budget: 'client', cost: 1, send: async (_h, on, _as, remoteAddress) => await on.app.inject({ method: 'GET', url: '/v2/users', remoteAddress }) },
  { name: 'a 400 for a duplicated parameter', status: 400, budget: 'client', cost: 1, send: async (h, on, as, remoteAddress) => await on.app.inject({ method: 'GET', url: h.url('GET', '/v2/users', { as }) + '&limit=1&limit=2', remoteAddress }) },
  { name: 'a 400 for callback on the main service', status: 400, budget: 'client', cost: 1, apiOnly: true, send: async (h, on, as, remoteAddress) => await h.signed(on, 'GET', '/v2/users', { as, remoteAddress, params: { callback: 'cb' } }) },
  { name: 'a 400 for a malformed URL', status: 400, budget: 'client', cost: 0, send: async (_h, on, _as, remoteAddress) => await on.app.inject({ method: 'GET', url: '/v2/%E0%A4%A', remoteAddress }) },
  { name: 'a 401 for a wrong signature', status: 401, budget: 'client', cost: 1, send: async (h, on, as, remoteAddress) => await h.signed(on, 'GET', '/v2/users', { as: { ...as, secret: 'z'.repeat(40) }, remoteAddress }) },
  { name: 'a 401 for an expired request', status: 401, budget: 'client', cost: 1, send: async (h, on, as, remoteAddress) => await h.signed(on, 'GET', '/v2/users', { as, remoteAddress, expires: Math.floor(h.clock.now() / 1000) - 60 }) },
  { name: 'a 403 for a role', status: 403, budget: 'account', cost: 1, send: async (h, on, as, remoteAddress) => await h.signed(on, 'GET', '/v2/users', { as: await readOnlyUser(h, as), remoteAddress }) },
  { name: 'a 404 of a resource', status: 404, budget: 'account', cost: 1, send: async (h, on, as, remoteAddress) => await h.signed(on, 'GET', '/v2/users/ffffffffffffffffffffffffffffffff', { as, remoteAddress }) },
  { name: 'a signed 404 of an unknown route', status: 404, budget: 'account', cost: 1, send: async (h, on, as, remoteAddress) => await h.signed(on, 'GET', '/v2/no_such_thing', { as, remoteAddress }) },
  { name: 'an unsigned 404 of an unknown route', status: 404, budget: 'client', cost: 0, send: async (_h, on, _as, remoteAddress) => await on.app.inject({ method: 'GET', url: '/no/such/thing', remoteAddress }) },
  { name: 'a 413 for a body too large', status: 413, budget: 'client', cost: 0, apiOnly: true, send: async (h, on, as, remoteAddress) => await h.signed(on, 'POST', '/v2/users', { as, remoteAddress, body: 'x'.repeat(h.config.bodyLimit + 1) }) },
  { name: 'an unsigned /health', status: 200, budget: 'client', cost: 0, send: async (_h, on, _as, remoteAddress) => await on.app.inject({ method: 'GET', url: '/health', remoteAddress }) }
]

async function readOnlyUser (h: Harness, owner: Caller): Promise<Caller> {
  const user = await h.api.ctx.services.users.createIn({ id: owner.accountId, code: owner.accountCode }, { name: 'reader', role: 'read_only' })
  return { ...owner, apiKey: user.api_key, secret: user.secret, userId: user.id }
}

for (const backend of databaseBackends()) {
  for (const store of storeKinds()) {
    describe(`credit headers on every response, ${backend.name} with ${store.name} counters`, { skip: backend.skip || store.skip }, () => {
      let h: Harness
      let cdn: Instance
      before(async () => {
        h = await startHarness(backend.name, store, { CREDITS_PER_MINUTE: String(GLOBAL) })
        cdn = await h.instance('cdn')
      })
      after(async () => { await h.close() })

      let n = 0
      for (const variant of ['api', 'cdn'] as const) {
        for (const row of rows) {
          if (variant === 'cdn' && row.apiOnly === true) continue
          it(`${variant}: ${row.name} carries X-RateLimit-Credits and X-RateLimit-Reset of the ${row.budget} budget`, async () => {
            h.clock.set(MINUTE + 15_000)
            const on = variant === 'api' ? h.api : cdn
            const caller = await h.account(OWN)
            const address = `192.0.2.${++n}`
            const res = await row.send(h, on, caller, address)
            assert.equal(res.statusCode, row.status, res.body)
            const allowance = row.budget === 'account' ? OWN : GLOBAL
            assert.deepEqual(creditHeaders(res), { credits: allowance - row.cost, reset: 45 })
            assert.ok(typeof res.headers['x-request-id'] === 'string')
          })
        }
      }

      it('api: a 429 carries them too, at 0', async () => {
        h.clock.set(MINUTE + 15_000)
        const caller = await h.account(1)
        await h.signed(h.api, 'GET', '/v2/users', { as: caller })
        const res = await h.signed(h.api, 'GET', '/v2/users', { as: caller })
        assert.equal(res.statusCode, 429)
        assert.deepEqual(creditHeaders(res), { credits: 0, reset: 45 })
      })

      it('cdn: a 405 carries them, with Allow', async () => {
        h.clock.set(MINUTE + 15_000)
        const res = await cdn.app.inject({ method: 'POST', url: h.url('POST', '/v2/users', { body: '{}' }), payload: '{}', remoteAddress: '192.0.2.200' })
        assert.equal(res.statusCode, 405)
        assert.equal(res.headers.allow, 'GET, HEAD')
        assert.deepEqual(creditHeaders(res), { credits: GLOBAL, reset: 45 })
      })
    })
  }
}

describe('credit headers while Redis is unreachable', () => {
  const unreachable = { REDIS_URL: 'redis://127.0.0.1:1', CREDITS_PER_MINUTE: String(GLOBAL) }

  it('refuse mode: a 503 with Retry-After, still with the headers (the allowance as the estimate), and nothing written', async () => {
    const h = await startHarness('sqlite', { name: 'in-process', skip: false }, { ...unreachable, REDIS_FAILURE_MODE: 'refuse' })
    try {
      const res = await h.signed(h.api, 'PATCH', `/v2/users/${h.admin.userId}`, { body: { name: 'Renamed' } })
      assert.equal(res.statusCode, 503)
      assert.equal(res.json().message, 'Credits cannot be checked right now. Try again shortly.')
      assert.equal(res.headers['retry-after'], '5')
      assert.deepEqual(creditHeaders(res), { credits: GLOBAL, reset: 45 })
      const user = await h.signed(h.api, 'GET', `/v2/users/${h.admin.userId}`)
      assert.equal(user.statusCode, 503)
      assert.equal((await h.api.ctx.users.find(h.admin.accountId, h.admin.userId))?.name, 'Administrator')
    } finally {
      await h.close()
    }
  })

  it('serve mode (the default): answers uncounted, with the estimate in the headers', async () => {
    const h = await startHarness('sqlite', { name: 'in-process', skip: false }, unreachable)
    try {
      const res = await h.signed(h.api, 'GET', '/v2/users')
      assert.equal(res.statusCode, 200)
      assert.deepEqual(creditHeaders(res), { credits: GLOBAL - 1, reset: 45 })
      const health = await h.api.app.inject({ method: 'GET', url: '/health' })
      assert.deepEqual(creditHeaders(health), { credits: GLOBAL, reset: 45 })
    } finally {
      await h.close()
    }
  })
})
