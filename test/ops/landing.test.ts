import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { landingPage } from '../../src/ops/landing-routes.ts'
import { buildTestApp, type TestApp } from '../support/app.ts'

describe('GET / on the main service', () => {
  let t: TestApp
  before(async () => { t = await buildTestApp('sqlite') })
  after(async () => { await t.close() })

  it('answers an HTML page, unsigned, with no script and a policy that allows only its own style', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' })
    assert.equal(res.statusCode, 200)
    assert.match(String(res.headers['content-type']), /^text\/html; charset=utf-8/)
    assert.doesNotMatch(res.body, /<script|\son[a-z]+=|javascript:/i)
    const csp = String(res.headers['content-security-policy'])
    assert.match(csp, /^default-src 'none';/)
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/)
    const style = /<style>(.*?)<\/style>/s.exec(res.body)?.[1]
    assert.ok(style !== undefined, 'the page has its one style element')
    assert.ok(csp.includes(`style-src 'sha256-${createHash('sha256').update(style).digest('base64')}'`), csp)
    assert.equal(res.headers['x-content-type-options'], 'nosniff')
  })

  it('links the API reference, the OpenAPI document, the error reference and the console, which answer', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' })
    const links = [...res.body.matchAll(/href="([^"]+)"/g)].map((m) => m[1] as string)
    assert.ok(links.includes('/docs'))
    assert.ok(links.includes('/openapi.json'))
    assert.ok(links.includes('/docs/errors'))
    assert.ok(links.includes('/console'))
    for (const link of links) {
      const answer = await t.app.inject({ method: 'GET', url: link })
      assert.ok(answer.statusCode < 400, `${link} answers ${answer.statusCode}`)
    }
  })

  it('links the console when the page is built with one', () => {
    assert.match(landingPage({ console: true }).html, /href="\/console"/)
    assert.doesNotMatch(landingPage().html, /console/i)
  })
})

describe('GET / on the cached variant', () => {
  it('stays a 404: that listener has no API reference to point to', async () => {
    const t = await buildTestApp('sqlite', {}, 'cdn')
    try {
      const res = await t.app.inject({ method: 'GET', url: '/' })
      assert.equal(res.statusCode, 404)
      assert.equal(res.json().code, 'route_not_found')
    } finally {
      await t.close()
    }
  })
})
