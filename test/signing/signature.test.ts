import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { canonicalParameters, computeSignature, parseQueryPairs, signatureHasher, signatureMatches, signedPath } from '../../src/signing/index.ts'

// Vectors derived by hand from the signing rules (docs/api.md, "Signing"): the concatenated string is written out literally and
// its digest was computed outside our code (`printf '%s' STRING | openssl dgst -sha256 -binary | base64 | cut -c1-43`).
describe('signature computation', () => {
  const path = '/v2/players/HbxJKM0V1RRmiFQzBKHMTPLa9mH6BbKN'

  it('signs secret + METHOD + path + sorted params for a GET', () => {
    // 'secretGET/v2/players/HbxJKM0V1RRmiFQzBKHMTPLa9mH6BbKNapi_key=7ab06expires=1299991855'
    const signature = computeSignature({ secret: 'secret', method: 'get', path, pairs: [['expires', '1299991855'], ['api_key', '7ab06']] })
    assert.equal(signature, 'X2P8LIUfuU5+vjrgremgq4ZOWMYBSOXZydfYSFHxquI')
  })

  it('appends the raw body for a PATCH', () => {
    const signature = computeSignature({ secret: 'secret', method: 'PATCH', path, pairs: [['api_key', '7ab06'], ['expires', '1299991855']], body: '{"name":"Test Name"}' })
    assert.equal(signature, 'tYOuIFIdgQ1RBPL16gjO49jqNLgaszeS07qeS4QVKTU')
  })

  it('hashes a body as the raw bytes received, in one piece or streamed in chunks', () => {
    // The same string as above with the bytes FF FE 7B 22 6E 22 3A 31 7D appended (not UTF-8).
    const body = Buffer.from([0xff, 0xfe, ...Buffer.from('{"n":1}')])
    const pairs: Array<[string, string]> = [['api_key', '7ab06'], ['expires', '1299991855']]
    const whole = computeSignature({ secret: 'secret', method: 'PATCH', path, pairs, body })
    assert.equal(whole, '2PzUoTrCVs/y5lHHcF2ErMaYGzQEsWXEz/rITvSf2u4')
    const hasher = signatureHasher({ secret: 'secret', method: 'PATCH', path, pairs })
    hasher.update(body.subarray(0, 1))
    hasher.update(body.subarray(1))
    assert.equal(hasher.digest(), whole)
  })

  it('signs decoded values: %20 and + both become a space, in any order', () => {
    // 'secretGET/v2/labelsapi_key=7ab06expires=1299991855limit=7where=name = \'a b\''
    const pairs = parseQueryPairs("where=name+%3D+'a%20b'&limit=7&expires=1299991855&api_key=7ab06")
    assert.equal(canonicalParameters(pairs), "api_key=7ab06expires=1299991855limit=7where=name = 'a b'")
    assert.equal(computeSignature({ secret: 'secret', method: 'GET', path: '/v2/labels', pairs }), 'L/LfA/gzM1cvwfoQEQUXqiQCZ3ORXpdrpbEq4n96O3E')
  })

  it('ignores the body on GET, HEAD and DELETE', () => {
    const pairs: Array<[string, string]> = [['api_key', 'k'], ['expires', '1']]
    for (const method of ['GET', 'HEAD', 'DELETE']) {
      assert.equal(computeSignature({ secret: 's', method, path, pairs, body: 'stray' }), computeSignature({ secret: 's', method, path, pairs }))
    }
    assert.notEqual(computeSignature({ secret: 's', method: 'POST', path, pairs, body: 'x' }), computeSignature({ secret: 's', method: 'POST', path, pairs }))
  })

  it('leaves the signature parameter out of the signed string', () => {
    assert.equal(canonicalParameters([['signature', 'zzz'], ['b', '2'], ['a', '1']]), 'a=1b=2')
  })

  it('accepts a signature whose + arrived as a space, and trailing =', () => {
    const expected = 'X2P8LIUfuU5+vjrgremgq4ZOWMYBSOXZydfYSFHxquI'
    assert.equal(signatureMatches(expected, expected), true)
    assert.equal(signatureMatches(expected, expected.replace('+', ' ')), true)
    assert.equal(signatureMatches(expected, expected + '='), true)
    assert.equal(signatureMatches(expected, expected.slice(0, 42)), false)
    assert.equal(signatureMatches(expected, expected.replace('X', 'Y')), false)
    assert.equal(signatureMatches(expected, ''), false)
  })

  it('builds a URL whose signature is URL-encoded and last', () => {
    const url = signedPath({ apiKey: '7ab06', secret: 'secret', method: 'GET', path, expires: 1299991855 })
    assert.equal(url, `${path}?api_key=7ab06&expires=1299991855&signature=X2P8LIUfuU5%2Bvjrgremgq4ZOWMYBSOXZydfYSFHxquI`)
  })
})
