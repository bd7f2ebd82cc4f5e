import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { Readable } from 'node:stream'
import { after, before, describe, it } from 'node:test'
import type { LightMyRequestResponse } from 'fastify'
import { computeSignature, parseQueryPairs, signedPath } from '../../src/signing/index.ts'
import { buildTestApp, type Caller, type TestApp } from '../support/app.ts'
import { databaseBackends } from '../support/backends.ts'

// A refused signature keeps the message clients match on ("Invalid signature.") and says in `detail`
// and `string_to_sign` what the server hashed, minus the secret, as AWS does for SignatureDoesNotMatch.

const sha256 = (bytes: string | Buffer): string => createHash('sha256').update(bytes).digest('hex')

/** An answer as a person would read it, headers included, without the values that change on every request. */
function visible (res: LightMyRequestResponse): string {
  const { date: _date, 'x-request-id': _id, ...headers } = res.headers
  return JSON.stringify(headers) + JSON.stringify({ ...res.json(), request_id: '' })
}

/**
 * Fails when the answer shows 4 or more consecutive characters of the secret, headers included. A run of
 * characters the client sent itself, or that the same answer shows for another user's secret (the fixed
 * wording: "sorted" holds "rted"), cannot be a leak and is not counted.
 */
function assertNoPartOf (secret: string, answer: string, sent: string, reference: string): void {
  for (let length = 4; length <= secret.length; length++) {
    for (let i = 0; i + length <= secret.length; i++) {
      const part = secret.slice(i, i + length)
      if (sent.includes(part) || reference.includes(part)) continue
      assert.ok(!answer.includes(part), `the answer holds ${part}, part of the secret: ${answer}`)
    }
  }
}

for (const backend of databaseBackends()) {
  describe(`the detail of a refused signature, on ${backend.name}`, { skip: backend.skip }, () => {
    let t: TestApp
    let expires: number
    before(async () => {
      t = await buildTestApp(backend.name)
      expires = Math.floor(t.clock.now() / 1000) + 600
    })
    after(async () => { await t.close() })

    /** A URL signed with `secret` (right or wrong) for the admin's key. */
    const url = (method: string, path: string, options: { secret?: string, body?: string, params?: Record<string, string>, as?: Caller } = {}): string => {
      const caller = options.as ?? t.admin
      return signedPath({ apiKey: caller.apiKey, secret: options.secret ?? caller.secret, method, path, params: options.params, body: options.body, expires })
    }

    it('shows the method, the path as received, the sorted parameters and an empty body for a GET', async () => {
      const res = await t.app.inject({ method: 'GET', url: url('GET', '/v2/labels', { secret: 'not the secret', params: { limit: '5', is_root: 'true' } }) })
      assert.equal(res.statusCode, 401)
      const body = res.json()
      assert.equal(body.message, 'Invalid signature.')
      assert.equal(body.code, 'signature_invalid')
      assert.deepEqual(body.string_to_sign, {
        method: 'GET',
        path: '/v2/labels',
        parameters: `api_key=${t.admin.apiKey}expires=${expires}is_root=truelimit=5`,
        body_length: 0,
        body_sha256: sha256('')
      })
      assert.match(body.detail, /^The signature does not match\. The server hashed SHA-256 of: <secret> \+ "GET" \+ "\/v2\/labels" \+ "api_key=/)
      assert.ok(body.detail.includes('is_root=truelimit=5" + no body'), body.detail)
    })

    it('gives a signer everything to rebuild the signature the server expected, path encoding and body included', async () => {
      const payload = JSON.stringify({ name: 'Sports ⚽' })
      const path = '/v2/labels/by_full_path/%2FNews'
      const signed = url('POST', path, { secret: 'wrong', body: payload })
      const res = await t.app.inject({ method: 'POST', url: signed, payload })
      assert.equal(res.statusCode, 401)
      const shown = res.json().string_to_sign
      assert.equal(shown.path, path, 'the path as sent, still percent-encoded')
      assert.equal(shown.body_length, Buffer.byteLength(payload))
      assert.equal(shown.body_sha256, sha256(payload))
      // What the detail shows, with the real secret put back, is exactly what the server hashes.
      const [, query] = signed.split('?') as [string, string]
      const expected = computeSignature({ secret: t.admin.secret, method: 'POST', path, pairs: parseQueryPairs(query), body: payload })
      const rebuilt = createHash('sha256').update(t.admin.secret + shown.method + shown.path + shown.parameters + payload).digest('base64').slice(0, 43).replace(/=+$/, '')
      assert.equal(rebuilt, expected)
    })

    it('shows the parameters as received when one changed after signing', async () => {
      const signed = url('GET', '/v2/labels', { params: { limit: '5' } }).replace('limit=5', 'limit=6')
      const res = await t.app.inject({ method: 'GET', url: signed })
      assert.equal(res.statusCode, 401)
      assert.ok(res.json().string_to_sign.parameters.endsWith('limit=6'), res.body)
    })

    it('says when the api_key names no user', async () => {
      const res = await t.app.inject({ method: 'GET', url: url('GET', '/v2/labels', { as: { ...t.admin, apiKey: `${t.admin.accountCode}.nobody` } }) })
      assert.equal(res.statusCode, 401)
      assert.equal(res.json().message, 'Invalid signature.')
      assert.match(res.json().detail, /api_key names no user/)
      assert.equal(res.json().string_to_sign, undefined)
    })

    it('never shows 4 or more characters of the secret, for 60 random secrets and each way of getting it wrong', async () => {
      const user = await t.userWithRole('manager')
      const other = await t.userWithRole('manager')
      // Signed with another secret, with a parameter changed after signing, and with the secret's halves swapped.
      const attempts = (as: Caller) => [
        { method: 'GET', url: url('GET', '/v2/labels', { as, secret: as.secret.toUpperCase() }) },
        { method: 'GET', url: url('GET', '/v2/labels', { as, params: { limit: '5' } }).replace('limit=5', 'limit=7') },
        { method: 'POST', url: url('POST', '/v2/labels', { as, secret: as.secret.slice(20) + as.secret.slice(0, 20), body: '{"name":"x"}' }), payload: '{"name":"x"}' }
      ]
      const send = async (attempt: { method: string, url: string, payload?: string }) =>
        await t.app.inject({ method: attempt.method as 'GET', url: attempt.url, payload: attempt.payload })
      const reference = await Promise.all(attempts(other).map(async (attempt) => visible(await send(attempt))))
      let previous: string[] | undefined
      for (let round = 0; round < 60; round++) {
        const rotated = await t.signed('POST', `/v2/users/${user.userId}/secret`)
        assert.equal(rotated.statusCode, 200, rotated.body)
        const secret = rotated.json().secret as string
        const bodies: string[] = []
        for (const [i, attempt] of attempts({ ...user, secret }).entries()) {
          const res = await send(attempt)
          assert.equal(res.statusCode, 401, res.body)
          assert.ok(typeof res.json().detail === 'string' && res.json().detail.length > 100)
          assertNoPartOf(secret, visible(res), attempt.url + (attempt.payload ?? ''), reference[i] as string)
          bodies.push(JSON.stringify({ ...res.json(), request_id: '' }))
        }
        // The same request answers the same detail whatever the secret: it is built without it.
        if (previous !== undefined) assert.deepEqual(bodies, previous)
        previous = bodies
      }
    })

    it('shows the length of a streamed body that did not match, without a hash of it', async () => {
      const lines = '{"session_id":"s","asset_id":"a","name":"display","time":"2026-11-22T09:30:00Z"}\n'.repeat(50)
      const signed = url('POST', '/v2/analytics/events/import', { body: 'something else' })
      const res = await t.app.inject({ method: 'POST', url: signed, payload: Readable.from([Buffer.from(lines)]), headers: { 'content-type': 'application/x-ndjson' } })
      assert.equal(res.statusCode, 401, res.body)
      assert.equal(res.json().message, 'Invalid signature.')
      assert.equal(res.json().string_to_sign.body_length, Buffer.byteLength(lines))
      assert.equal(res.json().string_to_sign.body_sha256, null)
      assert.match(res.json().detail, new RegExp(`the body \\(${Buffer.byteLength(lines)} bytes\\)`))
    })
  })
}
