import assert from 'node:assert/strict'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { databaseBackends } from '../support/backends.ts'
import { redisSkip } from '../credits/redis-test-connection.ts'
import { creditHeaders, startHarness, type Harness, type Instance, type StoreKind } from './harness.ts'

const ALLOWANCE = 20

async function listen (instance: Instance): Promise<string> {
  await instance.app.listen({ host: '127.0.0.1', port: 0 })
  return `http://127.0.0.1:${(instance.app.server.address() as AddressInfo).port}`
}

/**
 * Fires 3 × ALLOWANCE signed requests at once, spread over the given processes, over real sockets,
 * and checks that exactly ALLOWANCE were served and that every response's headers agree with one
 * counter: the served ones saw each remaining value from ALLOWANCE - 1 down to 0 exactly once.
 */
function concurrentChargeTest (name: string, backend: 'sqlite' | 'postgres', store: StoreKind, processes: number, skip: string | false): void {
  describe(name, { skip }, () => {
    let h: Harness
    let bases: string[]
    before(async () => {
      h = await startHarness(backend, store)
      const instances = [h.api]
      for (let i = 1; i < processes; i++) instances.push(await h.instance('api'))
      bases = await Promise.all(instances.map(listen))
    })
    after(async () => { await h.close() })

    it(`serves exactly ${ALLOWANCE} of ${3 * ALLOWANCE} concurrent requests and refuses ${2 * ALLOWANCE} with 429, headers agreeing with the counter`, async () => {
      const caller = await h.account(ALLOWANCE)
      const responses = await Promise.all(Array.from({ length: 3 * ALLOWANCE }, async (_, i) =>
        await fetch(bases[i % bases.length] + h.url('GET', `/v2/users?n=${i}`, { as: caller }))))
      const served = responses.filter((r) => r.status === 200)
      const refused = responses.filter((r) => r.status === 429)
      assert.equal(served.length, ALLOWANCE)
      assert.equal(refused.length, 2 * ALLOWANCE)
      assert.deepEqual(served.map((r) => creditHeaders(r).credits).sort((a, b) => a - b), Array.from({ length: ALLOWANCE }, (_, i) => i))
      for (const r of refused) {
        assert.deepEqual(creditHeaders(r), { credits: 0, reset: 45 })
        assert.equal(r.headers.get('retry-after'), '45')
        assert.equal((await r.json() as { message: string }).message, `Request limit exceeded for account ${caller.accountId}. Try again after 45 seconds.`)
      }
      assert.ok(responses.every((r) => creditHeaders(r).reset === 45))
      // Every process reads the same empty balance.
      for (const base of bases) {
        const balance = await fetch(base + h.url('GET', '/v2/remaining_credits_and_reset_time', { as: caller }))
        assert.deepEqual(await balance.json(), { remaining_credits: 0, remaining_reset_time: 45 })
      }
    })
  })
}

for (const backend of databaseBackends()) {
  concurrentChargeTest(`two processes sharing the Redis counters on ${backend.name}`, backend.name, { name: 'redis', skip: redisSkip }, 2, backend.skip || redisSkip)
  concurrentChargeTest(`one process with in-process counters on ${backend.name}`, backend.name, { name: 'in-process', skip: false }, 1, backend.skip)
}
