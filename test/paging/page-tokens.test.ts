import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { ApiError } from '../../src/errors/api-error.ts'
import { PageTokens } from '../../src/paging/index.ts'

const KEY = Buffer.alloc(32, 7)

function refusal (message: string): (error: unknown) => boolean {
  return (error) => error instanceof ApiError && error.code === 'page_token_invalid' && error.status === 400 && error.message === message
}

describe('page tokens', () => {
  const tokens = new PageTokens(KEY)

  it('give back the position they were made with, for the query they were made for', () => {
    assert.deepEqual(tokens.decode(tokens.encode(['2026-11-22', 'abc', null, 7], 'q1'), 'q1'), ['2026-11-22', 'abc', null, 7])
  })

  it('refuse a token for another query, a forged one and one signed with another key, with one wording each', () => {
    const token = tokens.encode([1], 'q1')
    assert.throws(() => tokens.decode(token, 'q2'), refusal('Parameter page_token belongs to a different query.'))
    const [payload, mac] = token.split('.') as [string, string]
    const forged = `${Buffer.from(JSON.stringify([[1000], 'q1'])).toString('base64url')}.${mac}`
    assert.notEqual(forged, `${payload}.${mac}`)
    for (const bad of [forged, 'garbage', `${token}.extra`, new PageTokens(Buffer.alloc(32, 8)).encode([1], 'q1')]) {
      assert.throws(() => tokens.decode(bad, 'q1'), refusal('Parameter page_token is not a valid page token.'))
    }
  })

  it('of one kind never pass for another kind\'s, even for the same query', () => {
    const reports = tokens.forKind('analytics report')
    assert.deepEqual(reports.decode(reports.encode([40], 'q1'), 'q1'), [40])
    assert.deepEqual(tokens.forKind('analytics report').decode(reports.encode([40], 'q1'), 'q1'), [40], 'the derivation is stable')
    assert.throws(() => tokens.decode(reports.encode([40], 'q1'), 'q1'), refusal('Parameter page_token is not a valid page token.'))
    assert.throws(() => reports.decode(tokens.encode([40], 'q1'), 'q1'), refusal('Parameter page_token is not a valid page token.'))
    assert.throws(() => tokens.forKind('other').decode(reports.encode([40], 'q1'), 'q1'), refusal('Parameter page_token is not a valid page token.'))
  })

  it('need a key of at least 16 bytes', () => {
    assert.throws(() => new PageTokens(Buffer.alloc(15)), /at least 16 bytes/)
    assert.doesNotThrow(() => new PageTokens('sixteen-bytes-ok'))
  })
})
