import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { USER_ROLES } from '../../src/auth/roles.ts'
import { databaseBackends } from '../support/backends.ts'
import { snapshot, type Caller } from '../support/app.ts'
import { creditHeaders, startHarness, storeKinds, type Harness } from './harness.ts'

const MINUTE = Date.UTC(2026, 10, 22, 10, 0, 0)
const GLOBAL_ALLOWANCE = 8

for (const backend of databaseBackends()) {
  for (const store of storeKinds()) {
    describe(`credits on ${backend.name} with ${store.name} counters`, { skip: backend.skip || store.skip }, () => {
      let h: Harness
      before(async () => { h = await startHarness(backend.name, store, { CREDITS_PER_MINUTE: String(GLOBAL_ALLOWANCE) }) })
      after(async () => { await h.close() })

      const balance = async (caller: Caller): Promise<{ remaining_credits: number, remaining_reset_time: number }> => {
        const res = await h.signed(h.api, 'GET', '/v2/remaining_credits_and_reset_time', { as: caller })
        assert.equal(res.statusCode, 200, res.body)
        return res.json()
      }

      it('charges one credit per request and says what is left and when it resets', async () => {
        h.clock.set(MINUTE + 15_000)
        const caller = await h.account()
        for (let left = GLOBAL_ALLOWANCE - 1; left >= GLOBAL_ALLOWANCE - 3; left--) {
          const res = await h.signed(h.api, 'GET', '/v2/users', { as: caller })
          assert.equal(res.statusCode, 200)
          assert.deepEqual(creditHeaders(res), { credits: left, reset: 45 })
        }
        assert.deepEqual(await balance(caller), { remaining_credits: GLOBAL_ALLOWANCE - 3, remaining_reset_time: 45 })
      })

      it('answers the balance at cost 0, with the same numbers in its headers, even when it is empty', async () => {
        h.clock.set(MINUTE + 30_000)
        const caller = await h.account(2)
        const first = await h.signed(h.api, 'GET', '/v2/remaining_credits_and_reset_time', { as: caller })
        assert.deepEqual(first.json(), { remaining_credits: 2, remaining_reset_time: 30 })
        assert.deepEqual(creditHeaders(first), { credits: 2, reset: 30 })
        await h.signed(h.api, 'GET', '/v2/users', { as: caller })
        await h.signed(h.api, 'GET', '/v2/users', { as: caller })
        for (let i = 0; i < 3; i++) assert.deepEqual(await balance(caller), { remaining_credits: 0, remaining_reset_time: 30 })
      })

      it('lets every role read the balance of its account', async () => {
        h.clock.set(MINUTE + 15_000)
        const owner = await h.account()
        for (const role of USER_ROLES) {
          const user = await h.api.ctx.services.users.createIn({ id: owner.accountId, code: owner.accountCode }, { name: role, role })
          const res = await h.signed(h.api, 'GET', '/v2/remaining_credits_and_reset_time', { as: { ...owner, apiKey: user.api_key, secret: user.secret, userId: user.id } })
          assert.equal(res.statusCode, 200, `${role}: ${res.body}`)
          assert.equal(res.json().remaining_credits, GLOBAL_ALLOWANCE, role)
        }
      })

      it('uses the account\'s own allowance over the global one', async () => {
        h.clock.set(MINUTE + 15_000)
        const generous = await h.account(50)
        const res = await h.signed(h.api, 'GET', '/v2/users', { as: generous })
        assert.deepEqual(creditHeaders(res), { credits: 49, reset: 45 })
      })

      it('answers 429 with Retry-After when credits run out, before the handler: nothing is written', async () => {
        h.clock.set(MINUTE + 15_000)
        const caller = await h.account(2)
        assert.equal((await h.signed(h.api, 'GET', '/v2/users', { as: caller })).statusCode, 200)
        assert.equal((await h.signed(h.api, 'GET', '/v2/users', { as: caller })).statusCode, 200)
        const beforeRows = await snapshot(h.api.ctx, ['users'])
        const refused = await h.signed(h.api, 'PATCH', `/v2/users/${caller.userId}`, { as: caller, body: { name: 'Renamed' } })
        assert.equal(refused.statusCode, 429)
        assert.equal(refused.json().message, `Request limit exceeded for account ${caller.accountId}. Try again after 45 seconds.`)
        assert.equal(refused.json().code, 'credits_exhausted')
        assert.equal(refused.headers['retry-after'], '45')
        assert.deepEqual(creditHeaders(refused), { credits: 0, reset: 45 })
        assert.equal(await snapshot(h.api.ctx, ['users']), beforeRows)
      })

      it('answers the same 429 to a signed GET it verified before, whose charge is made at once', async () => {
        h.clock.set(MINUTE + 15_000)
        const caller = await h.account(2)
        const url = h.url('GET', '/v2/users', { as: caller })
        const get = async (): Promise<Awaited<ReturnType<typeof h.signed>>> => await h.api.app.inject({ method: 'GET', url })
        assert.deepEqual(creditHeaders(await get()), { credits: 1, reset: 45 })
        assert.deepEqual(creditHeaders(await get()), { credits: 0, reset: 45 })
        const refused = await get()
        assert.equal(refused.statusCode, 429)
        assert.equal(refused.json().message, `Request limit exceeded for account ${caller.accountId}. Try again after 45 seconds.`)
        assert.equal(refused.json().code, 'credits_exhausted')
        assert.equal(refused.headers['retry-after'], '45')
        assert.deepEqual(creditHeaders(refused), { credits: 0, reset: 45 })
      })

      it('starts a new window at the next wall-clock minute, counting down X-RateLimit-Reset by the clock', async () => {
        h.clock.set(MINUTE + 15_000)
        const caller = await h.account(1)
        assert.deepEqual(creditHeaders(await h.signed(h.api, 'GET', '/v2/users', { as: caller })), { credits: 0, reset: 45 })
        h.clock.set(MINUTE + 59_001)
        const late = await h.signed(h.api, 'GET', '/v2/users', { as: caller })
        assert.equal(late.statusCode, 429)
        assert.equal(late.headers['retry-after'], '1')
        assert.equal(late.json().message, `Request limit exceeded for account ${caller.accountId}. Try again after 1 seconds.`)
        h.clock.set(MINUTE + 60_000)
        const fresh = await h.signed(h.api, 'GET', '/v2/users', { as: caller })
        assert.equal(fresh.statusCode, 200)
        assert.deepEqual(creditHeaders(fresh), { credits: 0, reset: 60 })
        h.clock.set(MINUTE + 60_000 + 25_500)
        assert.deepEqual(await balance(caller), { remaining_credits: 0, remaining_reset_time: 35 })
      })

      it('charges a refused role (403) to the account, once', async () => {
        h.clock.set(MINUTE + 15_000)
        const owner = await h.account()
        const user = await h.api.ctx.services.users.createIn({ id: owner.accountId, code: owner.accountCode }, { name: 'reader', role: 'read_only' })
        const res = await h.signed(h.api, 'GET', '/v2/users', { as: { ...owner, apiKey: user.api_key, secret: user.secret, userId: user.id } })
        assert.equal(res.statusCode, 403)
        assert.deepEqual(creditHeaders(res), { credits: GLOBAL_ALLOWANCE - 1, reset: 45 })
        assert.equal((await balance(owner)).remaining_credits, GLOBAL_ALLOWANCE - 1)
      })

      it('charges a failed signature to the client address, never to the account whose key it names', async () => {
        h.clock.set(MINUTE + 15_000)
        const victim = await h.account(3)
        const address = '198.51.100.20'
        const forged = await h.signed(h.api, 'GET', '/v2/users', { as: { ...victim, secret: 'x'.repeat(40) }, remoteAddress: address })
        assert.equal(forged.statusCode, 401)
        assert.deepEqual(creditHeaders(forged), { credits: GLOBAL_ALLOWANCE - 1, reset: 45 })
        assert.equal((await balance(victim)).remaining_credits, 3)
      })

      it('does not let an unauthenticated flood drain the named account, and refuses the flood itself', async () => {
        h.clock.set(MINUTE + 15_000)
        const victim = await h.account(5)
        const address = '203.0.113.77'
        const statuses: number[] = []
        for (let i = 0; i < GLOBAL_ALLOWANCE * 3; i++) {
          // Alternate the ways to fail: a wrong secret, an expired URL, a missing signature.
          const res = i % 3 === 0
            ? await h.signed(h.api, 'GET', '/v2/users', { as: { ...victim, secret: 'y'.repeat(40) }, remoteAddress: address })
            : i % 3 === 1
              ? await h.signed(h.api, 'GET', '/v2/users', { as: victim, expires: Math.floor(h.clock.now() / 1000) - 1, remoteAddress: address })
              : await h.api.app.inject({ method: 'GET', url: `/v2/users?api_key=${victim.apiKey}&expires=9999999999`, remoteAddress: address })
          statuses.push(res.statusCode)
          assert.equal(creditHeaders(res).credits, Math.max(0, GLOBAL_ALLOWANCE - 1 - i))
          if (res.statusCode === 429) {
            assert.equal(res.json().message, `Request limit exceeded for client address ${address}. Try again after 45 seconds.`)
            assert.equal(res.headers['retry-after'], '45')
          }
        }
        assert.deepEqual(statuses.slice(0, GLOBAL_ALLOWANCE), [401, 401, 400, 401, 401, 400, 401, 401])
        assert.ok(statuses.slice(GLOBAL_ALLOWANCE).every((s) => s === 429))
        // The account is untouched, and its real key still works from the flooding address.
        assert.equal((await balance(victim)).remaining_credits, 5)
        const real = await h.signed(h.api, 'GET', '/v2/users', { as: victim, remoteAddress: address })
        assert.equal(real.statusCode, 200)
        assert.deepEqual(creditHeaders(real), { credits: 4, reset: 45 })
      })
    })
  }
}

describe('CREDITS_ENABLED=false', () => {
  it('charges nothing, sends no credit headers, and the balance route answers the allowance', async () => {
    const { buildTestApp } = await import('../support/app.ts')
    const t = await buildTestApp('sqlite', { CREDITS_ENABLED: 'false', CREDITS_PER_MINUTE: '2' })
    try {
      for (let i = 0; i < 5; i++) {
        const res = await t.signed('GET', '/v2/users')
        assert.equal(res.statusCode, 200)
        assert.equal(res.headers['x-ratelimit-credits'], undefined)
      }
      const balance = await t.signed('GET', '/v2/remaining_credits_and_reset_time')
      assert.equal(balance.json().remaining_credits, 2)
    } finally {
      await t.close()
    }
  })
})
