import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { computeSignature, quote, signedPath, where } from 'reelhouse/client'
import { parseWhere } from '../../src/query/index.ts'
import { computeSignature as serverSignature, parseQueryPairs } from '../../src/signing/index.ts'

const SECRET = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd'

describe('the client signs exactly as the server checks', () => {
  const cases: Array<{ method: string, path: string, query: string, body?: string }> = [
    { method: 'GET', path: '/v2/labels', query: 'api_key=k.1&expires=1893456000&limit=7' },
    { method: 'get', path: '/v2/labels/by_full_path/%2FSports%2FHockey', query: 'expires=1&api_key=k.1' },
    { method: 'POST', path: '/v2/labels', query: 'api_key=k.1&expires=1', body: '{"name":"Café ☕ \\u2028"}' },
    { method: 'PATCH', path: '/v2/assets/site%2F58', query: 'api_key=k.1&expires=1&where=name+%3D+%27a%2Bb%27', body: '{"description":"a\\nb"}' },
    { method: 'DELETE', path: '/v2/players/x', query: 'api_key=k.1&expires=1', body: '{"ignored":true}' },
    { method: 'GET', path: '/v2/assets', query: 'api_key=k.1&expires=1&include=metadata%2Clabels&orderby=name%20descending&z=%F0%9F%8E%AC&a=' }
  ]
  for (const example of cases) {
    it(`${example.method} ${example.path}?${example.query}`, async () => {
      const pairs = parseQueryPairs(example.query)
      const input = { secret: SECRET, method: example.method, path: example.path, pairs, body: example.body }
      assert.equal(await computeSignature(input), serverSignature(input))
    })
  }

  it('puts the signature last and encodes + / = in it', async () => {
    const path = await signedPath({ apiKey: 'k.1', secret: SECRET, method: 'GET', path: '/v2/labels?limit=5', query: { where: "name = 'a+b'" }, expires: 1893456000 })
    const [, query = ''] = path.split('?')
    assert.deepEqual(query.split('&').map((pair) => pair.split('=')[0]), ['limit', 'where', 'api_key', 'expires', 'signature'])
    assert.doesNotMatch(query.split('signature=')[1] ?? '', /[+/=]/)
  })
})

describe('where() quotes values so the server reads back exactly what was given', () => {
  const values = ["Rock 'n' Roll", 'back\\slash', 'ends with \\', "\\'", "''", 'AND 1=1', 'ümlaut ✓', '']
  for (const value of values) {
    it(JSON.stringify(value), () => {
      const ast = parseWhere(where('name', '=', value).toString())
      assert.equal(ast.clauses.length, 1)
      const clause = ast.clauses[0]
      assert.ok(clause?.type === 'compare')
      assert.equal(clause.value.text, value)
    })
  }

  it('writes numbers bare, dates as ISO 8601, lists for IN, and quotes an odd metadata name', () => {
    const built = where('duration', '>', 600).and('created_at', '>=', new Date('2026-11-01T00:00:00Z'))
      .and('status', 'IN', ['live', 'paused']).and('labels', 'INCLUDES', 'Sports').and('metadata.cut(final)', '=', 'x')
    assert.equal(built.toString(), "duration > 600 AND created_at >= '2026-11-01T00:00:00.000Z' AND status IN ('live','paused') AND labels INCLUDES 'Sports' AND metadata.'cut(final)' = 'x'")
    const ast = parseWhere(built.toString())
    assert.deepEqual(ast.clauses.map((clause) => clause.field.name), ['duration', 'created_at', 'status', 'labels', 'metadata.cut(final)'])
    assert.throws(() => quote(Number.NaN), RangeError)
  })
})
