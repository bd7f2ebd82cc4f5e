import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { SeenBefore } from '../../src/lib/seen-before.ts'

describe('SeenBefore', () => {
  it('answers false the first time a key is offered, true the second, then starts over', () => {
    const seen = new SeenBefore(1024)
    assert.equal(seen.offer('GET /v2/labels?expires=1'), false)
    assert.equal(seen.offer('GET /v2/labels?expires=2'), false)
    assert.equal(seen.offer('GET /v2/labels?expires=1'), true)
    assert.equal(seen.offer('GET /v2/labels?expires=1'), false)
    seen.clear()
    assert.equal(seen.offer('GET /v2/labels?expires=2'), false)
  })

  it('holds a fixed table whatever the keys: most of 100,000 keys offered once are never taken for seen', () => {
    const seen = new SeenBefore(4096)
    let early = 0
    for (let i = 0; i < 100_000; i++) if (seen.offer(`GET /v2/assets?expires=${i}&signature=${i * 7919}`)) early++
    // Only a 32-bit hash collision in the same slot admits a key early: about none.
    assert.ok(early <= 3, `${early} keys taken for seen`)
    // A key offered again soon after is still remembered.
    assert.equal(seen.offer('GET /v2/assets?expires=5'), false)
    for (let i = 0; i < 10; i++) seen.offer(`other ${i}`)
    assert.equal(seen.offer('GET /v2/assets?expires=5'), true)
  })
})
