import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { buildTestApp, type TestApp } from '../support/app.ts'

// A wrong method on an existing path is a 405 naming the methods it takes in `Allow` (docs/api.md,
// "Responses and errors"), in our error format; a path nothing serves stays a 404.
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const

describe('a wrong method on an existing path', () => {
  let t: TestApp
  before(async () => { t = await buildTestApp('sqlite') })
  after(async () => { await t.close() })

  it('answers 405 with Allow on a signed list', async () => {
    const res = await t.signed('DELETE', '/v2/labels')
    assert.equal(res.statusCode, 405, res.body)
    assert.equal(res.headers.allow, 'GET, HEAD, POST')
    assert.equal(res.json().code, 'method_not_allowed')
    assert.equal(res.json().message, 'DELETE is not allowed on /v2/labels; it takes GET, HEAD, POST.')
    assert.equal(typeof res.json().request_id, 'string')
  })

  it('answers 405 on a path with an id, and on a public route', async () => {
    const children = await t.signed('POST', '/v2/labels/ffffffffffffffffffffffffffffffff/children', { body: '{}' })
    assert.equal(children.statusCode, 405, children.body)
    assert.equal(children.headers.allow, 'GET, HEAD')
    const health = await t.app.inject({ method: 'PATCH', url: '/health' })
    assert.equal(health.statusCode, 405, health.body)
    assert.equal(health.headers.allow, 'GET, HEAD')
  })

  it('answers 405 before any signature check: an unsigned request gets it too, and nothing is charged', async () => {
    const before = (await t.signed('GET', '/v2/remaining_credits_and_reset_time')).json().remaining_credits
    const trace = await t.app.inject({ method: 'TRACE', url: '/v2/labels' })
    assert.equal(trace.statusCode, 405, trace.body)
    assert.equal(trace.headers.allow, 'GET, HEAD, POST')
    assert.equal(trace.json().message, 'TRACE is not allowed on /v2/labels; it takes GET, HEAD, POST.')
    const unsigned = await t.app.inject({ method: 'DELETE', url: '/v2/labels' })
    assert.equal(unsigned.statusCode, 405, unsigned.body)
    assert.equal((await t.signed('GET', '/v2/remaining_credits_and_reset_time')).json().remaining_credits, before)
  })

  it('answers 405 for a method a fixed path lacks, though a route with a parameter would take the same path', async () => {
    // `DELETE /v2/users/:user_id` would take `me` as an id; `/v2/users/me` takes GET and HEAD only.
    for (const res of [await t.signed('DELETE', '/v2/users/me'), await t.app.inject({ method: 'DELETE', url: '/v2/users/me' })]) {
      assert.equal(res.statusCode, 405, res.body)
      assert.equal(res.headers.allow, 'GET, HEAD')
      assert.equal(res.json().message, 'DELETE is not allowed on /v2/users/me; it takes GET, HEAD.')
    }
    const other = await t.userWithRole('read_only')
    assert.equal((await t.signed('DELETE', `/v2/users/${other.userId}`)).statusCode, 200)
    assert.equal((await t.signed('GET', '/v2/users/me')).statusCode, 200)
  })

  it('still answers 404 on a path nothing serves', async () => {
    const res = await t.signed('POST', '/v2/nothing', { body: '{}' })
    assert.equal(res.statusCode, 404, res.body)
    assert.equal(res.json().code, 'route_not_found')
  })

  it('answers 405 listing the route\'s methods for every route of the table and every method it lacks', async () => {
    const byUrl = new Map<string, Set<string>>()
    for (const route of t.app.routeTable) {
      const methods = byUrl.get(route.url) ?? new Set<string>()
      for (const method of [route.method].flat()) methods.add(method)
      byUrl.set(route.url, methods)
    }
    let checked = 0
    for (const [url, methods] of byUrl) {
      const path = url.replace(/:[a-z_]+/g, 'ffffffffffffffffffffffffffffffff').replace('*', 'A')
      for (const method of METHODS.filter((m) => !methods.has(m))) {
        const res = path.startsWith('/v2/')
          ? await t.signed(method, path, { body: method === 'GET' || method === 'DELETE' ? undefined : '{}' })
          : await t.app.inject({ method, url: path })
        // Another route may serve the method at this concrete path (`PATCH /v2/users/me` is `/v2/users/:user_id`).
        assert.notEqual(res.json().code, 'route_not_found', `${method} ${url}: ${res.body}`)
        if (res.statusCode !== 405) continue
        const allow = String(res.headers.allow).split(', ')
        for (const m of methods) assert.ok(allow.includes(m), `${method} ${url}: Allow ${allow.join(', ')} lacks ${m}`)
        assert.equal(res.json().code, 'method_not_allowed')
        checked++
      }
    }
    assert.ok(checked > 100, `only ${checked} wrong methods checked`)
  })
})
