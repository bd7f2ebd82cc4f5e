import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { signedPath } from '../../src/signing/index.ts'
import { buildTestApp, snapshot, type TestApp } from '../support/app.ts'

// The signature attack table: each row takes a request the caller really signed, changes it the way an
// attacker on the path could, and states the answer. Nothing a refused row sends is written.

interface Attack {
  name: string
  method: string
  /** The URL as sent, built from what was signed. */
  url: (t: TestApp) => string
  body?: string
  status: number
  code?: string
}

const EXPIRES_IN = 600

function signed (t: TestApp, method: string, path: string, options: { params?: Record<string, string>, body?: string, expires?: number } = {}): string {
  return signedPath({ apiKey: t.admin.apiKey, secret: t.admin.secret, method, path, expires: options.expires ?? Math.floor(t.clock.now() / 1000) + EXPIRES_IN, ...options })
}

const ATTACKS: Attack[] = [
  { name: 'the request as signed (control)', method: 'GET', url: (t) => signed(t, 'GET', '/v2/labels', { params: { limit: '5' } }), status: 200 },
  { name: 'a parameter added after signing', method: 'GET', url: (t) => `${signed(t, 'GET', '/v2/labels')}&limit=5`, status: 401, code: 'signature_invalid' },
  { name: 'a parameter removed', method: 'GET', url: (t) => signed(t, 'GET', '/v2/labels', { params: { limit: '5' } }).replace('limit=5&', ''), status: 401, code: 'signature_invalid' },
  { name: 'a value changed', method: 'GET', url: (t) => signed(t, 'GET', '/v2/labels', { params: { limit: '5' } }).replace('limit=5', 'limit=6'), status: 401, code: 'signature_invalid' },
  { name: 'a GET signature used for DELETE', method: 'DELETE', url: (t) => signed(t, 'GET', '/v2/labels/ffffffffffffffffffffffffffffffff'), status: 401, code: 'signature_invalid' },
  { name: 'another path', method: 'GET', url: (t) => signed(t, 'GET', '/v2/labels').replace('/v2/labels', '/v2/users'), status: 401, code: 'signature_invalid' },
  { name: 'the path re-encoded', method: 'GET', url: (t) => signed(t, 'GET', '/v2/labels').replace('/v2/labels', '/v2/%6Cabels'), status: 401, code: 'signature_invalid' },
  { name: 'another body', method: 'POST', url: (t) => signed(t, 'POST', '/v2/labels', { body: '{"name":"Signed"}' }), body: '{"name":"Forged"}', status: 401, code: 'signature_invalid' },
  { name: 'the body dropped', method: 'POST', url: (t) => signed(t, 'POST', '/v2/labels', { body: '{"name":"Signed"}' }), status: 401, code: 'signature_invalid' },
  { name: 'expired', method: 'GET', url: (t) => signed(t, 'GET', '/v2/labels', { expires: Math.floor(t.clock.now() / 1000) - 1 }), status: 401, code: 'request_expired' },
  { name: 'expires changed', method: 'GET', url: (t) => signed(t, 'GET', '/v2/labels').replace(/expires=(\d+)/, (_, e: string) => `expires=${Number(e) + 1}`), status: 401, code: 'signature_invalid' },
  // Truncated before encoding: cut after encoding, a `%2B` would become a malformed `%2` (a 400 of its own).
  { name: 'the signature truncated', method: 'GET', url: (t) => signed(t, 'GET', '/v2/labels').replace(/signature=([^&]*)/, (_, sig: string) => `signature=${encodeURIComponent(decodeURIComponent(sig).slice(0, -3))}`), status: 401, code: 'signature_invalid' },
  { name: 'a parameter repeated', method: 'GET', url: (t) => `${signed(t, 'GET', '/v2/labels', { params: { limit: '5' } })}&limit=5`, status: 400, code: 'parameter_duplicated' },
  { name: 'the signature without its api_key', method: 'GET', url: (t) => signed(t, 'GET', '/v2/labels').replace(/api_key=[^&]*&/, ''), status: 400, code: 'parameters_missing' },
  { name: 'the `v` of /v2 percent-encoded, unsigned', method: 'GET', url: () => '/%762/labels', status: 400, code: 'parameters_missing' },
  {
    // Signed `is_root=true&limit=5` hashes as `is_root=truelimit=5`: a name holding `=` made it `is_root=truelimit` → `5`.
    name: 'two parameters folded into one name holding "="',
    method: 'GET',
    url: (t) => signed(t, 'GET', '/v2/labels', { params: { is_root: 'true', limit: '5' } }).replace('is_root=true&limit=5', 'is_root%3Dtruelimit=5'),
    status: 400,
    code: 'parameter_name_invalid'
  },
  {
    // The body `{"name":"a=b"}` hashes after `expires=…`, where a query key `{"name":"a` valued `b"}` would sort.
    name: 'the body moved into a query key',
    method: 'POST',
    url: (t) => `${signed(t, 'POST', '/v2/labels', { body: '{"name":"a=b"}' })}&${encodeURIComponent('{"name":"a')}=${encodeURIComponent('b"}')}`,
    status: 400,
    code: 'parameter_name_invalid'
  },
  { name: 'a parameter name with a space', method: 'GET', url: (t) => signed(t, 'GET', '/v2/labels', { params: { 'is root': 'true' } }), status: 400, code: 'parameter_name_invalid' },
  {
    // The residual room (docs/api.md, "Signing"): a value may hold `=`, so `is_root=truelimit%3D5` still fits the
    // signature of `is_root=true&limit=5`; the value then fails validation like any other.
    name: 'two parameters folded into one value holding "=" (the documented residue)',
    method: 'GET',
    url: (t) => signed(t, 'GET', '/v2/labels', { params: { is_root: 'true', limit: '5' } }).replace('is_root=true&limit=5', 'is_root=truelimit%3D5'),
    status: 400,
    code: 'validation_failed'
  }
]

describe('the signature attack table', () => {
  let t: TestApp
  before(async () => { t = await buildTestApp('sqlite') })
  after(async () => { await t.close() })

  for (const attack of ATTACKS) {
    it(`answers ${attack.status}${attack.code === undefined ? '' : ` ${attack.code}`} to ${attack.name}, writing nothing`, async () => {
      const before = await snapshot(t.ctx, ['labels'])
      const res = await t.app.inject({ method: attack.method as 'GET', url: attack.url(t), payload: attack.body })
      assert.equal(res.statusCode, attack.status, res.body)
      if (attack.code !== undefined) assert.equal(res.json().code, attack.code, res.body)
      assert.deepEqual(await snapshot(t.ctx, ['labels']), before)
    })
  }

  it('accepts parameter names with letters, digits and _ . - [ ] (checked, then signed as usual)', async () => {
    const res = await t.signed('GET', '/v2/labels', { params: { 'a.b-c_d[0]': 'x' } })
    assert.notEqual(res.json().code, 'parameter_name_invalid', res.body)
  })
})

describe('MAX_EXPIRES_SECONDS', () => {
  let t: TestApp
  before(async () => { t = await buildTestApp('sqlite', { MAX_EXPIRES_SECONDS: '3600' }) })
  after(async () => { await t.close() })

  it('refuses a signature that expires further ahead than the bound, and serves one within it', async () => {
    const now = Math.floor(t.clock.now() / 1000)
    const far = await t.signed('GET', '/v2/labels', { expires: now + 3601 })
    assert.equal(far.statusCode, 401, far.body)
    assert.equal(far.json().code, 'expires_too_far')
    assert.equal(far.json().message, 'Request expires too far ahead: at most 3600 seconds from now.')
    assert.equal((await t.signed('GET', '/v2/labels', { expires: now + 3600 })).statusCode, 200)
  })

  it('is off by default: a URL valid for years is served', async () => {
    const open = await buildTestApp('sqlite')
    try {
      const res = await open.signed('GET', '/v2/labels', { expires: Math.floor(open.clock.now() / 1000) + 5 * 365 * 86_400 })
      assert.equal(res.statusCode, 200, res.body)
    } finally {
      await open.close()
    }
  })
})
