import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { ManualClock } from '../../src/lib/clock.ts'
import { AccountAllowances } from '../../src/credits/index.ts'

describe('AccountAllowances.now (the allowance without waiting)', () => {
  it('has nothing until the read has answered, then the account\'s own allowance', async () => {
    let reads = 0
    const allowances = new AccountAllowances(async () => { reads += 1; return 42 }, 600, new ManualClock())
    assert.equal(allowances.now('a1'), undefined)
    const reading = allowances.of('a1')
    assert.equal(allowances.now('a1'), undefined)
    assert.equal(await reading, 42)
    assert.equal(allowances.now('a1'), 42)
    assert.equal(reads, 1)
  })

  it('gives the global allowance to an account without its own', async () => {
    const allowances = new AccountAllowances(async () => null, 600, new ManualClock())
    await allowances.of('a1')
    assert.equal(allowances.now('a1'), 600)
  })

  it('has nothing once the read is older than its age limit, so the next charge reads again', async () => {
    const clock = new ManualClock()
    let own = 42
    const allowances = new AccountAllowances(async () => own, 600, clock, 60_000)
    await allowances.of('a1')
    clock.advance(60_000)
    own = 7
    assert.equal(allowances.now('a1'), undefined)
    assert.equal(await allowances.of('a1'), 7)
    assert.equal(allowances.now('a1'), 7)
  })

  it('remembers nothing of a failed read', async () => {
    let fail = true
    const allowances = new AccountAllowances(async () => { if (fail) throw new Error('database away'); return 42 }, 600, new ManualClock())
    await assert.rejects(allowances.of('a1'), /database away/)
    assert.equal(allowances.now('a1'), undefined)
    fail = false
    assert.equal(await allowances.of('a1'), 42)
    assert.equal(allowances.now('a1'), 42)
  })
})
