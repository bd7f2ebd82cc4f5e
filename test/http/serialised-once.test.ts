import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { chargeDerived, ReadCache } from '../../src/db/read-cache.ts'
import { buildTestApp, type TestApp } from '../support/app.ts'

// The JSON of an answer made from a cached row is written once and sent again while the row is
// unchanged; the copy counts in the read cache's byte budget, and a write makes the next answer fresh.
describe('an answer\'s JSON written once per cached row', () => {
  let t: TestApp
  before(async () => { t = await buildTestApp('sqlite') })
  after(async () => { await t.close() })

  it('sends the same bytes again, counts them in the read cache, and sends the new state after a write', async () => {
    const created = await t.signed('POST', '/v2/players', { body: { name: 'Once' } })
    assert.equal(created.statusCode, 200, created.body)
    const id = created.json().id as string
    const first = await t.signed('GET', `/v2/players/${id}`)
    const second = await t.signed('GET', `/v2/players/${id}`)
    assert.equal(second.body, first.body)
    assert.equal((await t.signed('GET', `/v2/players/${id}`)).body, first.body)

    assert.equal((await t.signed('PATCH', `/v2/players/${id}`, { body: { name: 'Twice' } })).statusCode, 200)
    const after = await t.signed('GET', `/v2/players/${id}`)
    assert.equal(after.json().name, 'Twice')
    assert.deepEqual({ ...(after.json() as object), name: 'Once', updated_at: undefined }, { ...(first.json() as object), updated_at: undefined })
  })

  it('counts a copy with the entry of the row it was made from, and keeps none for a row no longer held', () => {
    const cache = new ReadCache(1_000_000)
    const row = { id: 'p1', name: 'Once' }
    cache.set('players\u0000a1\u0000p1', cache.epoch, { accountId: 'a1', table: 'players', id: 'p1', value: row })
    const held = cache.bytes
    assert.equal(chargeDerived(row, 500), true)
    assert.equal(cache.bytes, held + 500)
    cache.forget({ accountId: 'a1', tables: { players: ['p1'] } })
    assert.equal(cache.bytes, 0)
    assert.equal(chargeDerived(row, 500), false)
    assert.equal(chargeDerived({ id: 'never stored' }, 500), false)
  })
})
