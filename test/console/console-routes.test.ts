import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { buildTestApp, type TestApp } from '../support/app.ts'

describe('/console on the api listener', () => {
  let t: TestApp
  before(async () => { t = await buildTestApp('sqlite', { PUBLIC_API_URL: 'https://media.example:9443' }) })
  after(async () => { await t?.close() })

  it('serves the page unsigned under a policy with no inline code and no other host but PUBLIC_API_URL', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/console' })
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8')
    const policy = String(res.headers['content-security-policy'])
    assert.match(policy, /^default-src 'none'; script-src 'self'; style-src 'self';/)
    assert.match(policy, /media-src 'self' https:\/\/media\.example:9443 blob: data:;/)
    assert.match(policy, /connect-src 'self' https:\/\/media\.example:9443;/)
    assert.doesNotMatch(policy, /unsafe|\*/)
    assert.equal(res.headers['x-content-type-options'], 'nosniff')
    assert.doesNotMatch(res.body, /<script(?![^>]*\ssrc=)[^>]*>/, 'every script is a file')
    assert.doesNotMatch(res.body, /\sstyle=|<style/, 'every style is in the stylesheet')
    assert.match(res.body, /<script type="module" src="\/console\/app\.js"><\/script>/)
  })

  it('serves the script and the stylesheet built from TypeScript, answering 304 to their ETag', async () => {
    const script = await t.app.inject({ method: 'GET', url: '/console/app.js' })
    assert.equal(script.statusCode, 200)
    assert.equal(script.headers['content-type'], 'text/javascript; charset=utf-8')
    assert.ok(script.body.length > 100_000, 'the client, uPlot and hls.js are bundled in')
    assert.doesNotMatch(script.body, /^\s*import\s/m, 'one file, no imports to fetch')
    const etag = String(script.headers.etag)
    const again = await t.app.inject({ method: 'GET', url: '/console/app.js', headers: { 'if-none-match': etag } })
    assert.equal(again.statusCode, 304)
    assert.equal(again.body, '')
    const style = await t.app.inject({ method: 'GET', url: '/console/app.css' })
    assert.equal(style.statusCode, 200)
    assert.equal(style.headers['content-type'], 'text/css; charset=utf-8')
    assert.match(style.body, /\.uplot/, 'uPlot\'s stylesheet is in')
    assert.match(style.body, /\.asset-card/)
  })

  it('is linked from the landing page', async () => {
    const landing = await t.app.inject({ method: 'GET', url: '/' })
    assert.match(landing.body, /<a href="\/console">Console<\/a>/)
  })

  it('is not served by the cached variant', async () => {
    const cdn = await buildTestApp('sqlite', {}, 'cdn')
    try {
      const res = await cdn.app.inject({ method: 'GET', url: '/console' })
      assert.equal(res.statusCode, 404)
    } finally {
      await cdn.close()
    }
  })
})
