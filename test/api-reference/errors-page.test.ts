import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { ERROR_HELP, ERRORS, type ErrorCode } from '../../src/errors/catalogue.ts'
import { buildTestApp, type TestApp } from '../support/app.ts'

// Every problem document's `type` is `<PUBLIC_API_URL>/docs/errors#<code>`, absolute, so that it also
// answers from the cached variant's and the indexing service's errors: the page answers, with one entry per code
// of the catalogue, anchored by the code, giving its status, title, meaning and fix.

/** Catalogue text as HTML: escaped, with `code` spans. */
function asHtml (text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/`([^`]+)`/g, '<code>$1</code>')
}

/** The entry anchored at `code`, as the page writes it. */
function entryOf (html: string, code: string): string | undefined {
  const start = html.indexOf(`<section id="${code}">`)
  return start === -1 ? undefined : html.slice(start, html.indexOf('</section>', start))
}

describe('the error reference, /docs/errors', () => {
  let t: TestApp
  let html: string
  before(async () => {
    t = await buildTestApp('sqlite')
    const res = await t.app.inject('/docs/errors')
    assert.equal(res.statusCode, 200)
    html = res.body
  })
  after(async () => { await t.close() })

  it('is an HTML page without script, under a policy that allows nothing else', async () => {
    const res = await t.app.inject('/docs/errors')
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8')
    assert.match(String(res.headers['content-security-policy']), /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; /)
    assert.ok(!html.includes('<script'))
  })

  it('has one entry per code of the catalogue, with its status, title, meaning and fix', () => {
    const codes = Object.keys(ERRORS) as ErrorCode[]
    assert.ok(codes.length > 40)
    for (const code of codes) {
      const entry = entryOf(html, code)
      assert.ok(entry !== undefined, `no entry for ${code}`)
      assert.ok(entry.includes(`${ERRORS[code].status} `), `${code}: status`)
      assert.ok(entry.includes(ERRORS[code].title), `${code}: title`)
      for (const text of [ERROR_HELP[code].meaning, ERROR_HELP[code].fix]) {
        assert.ok(text.length > 20, `${code}: ${text}`)
        assert.ok(entry.includes(asHtml(text)), `${code}: ${asHtml(text)} is not in ${entry}`)
      }
    }
    assert.equal(html.match(/<section id="/g)?.length, codes.length, 'one entry per code, no more')
  })

  it('resolves the type of the problems the service answers', async () => {
    const answers = [
      await t.app.inject('/v2/labels'),
      await t.signed('GET', '/v2/labels/ffffffffffffffffffffffffffffffff'),
      await t.signed('POST', '/v2/labels', { body: { colour: 'red' } }),
      await t.app.inject({ method: 'GET', url: '/v2/labels?api_key=x.y&expires=1&signature=z' }),
      await t.app.inject('/nothing/here')
    ]
    for (const res of answers) {
      const type = res.json().type as string
      const [page, anchor] = type.split('#') as [string, string]
      assert.equal(page, `${t.config.publicApiUrl}/docs/errors`)
      assert.equal((await t.app.inject(new URL(page).pathname)).statusCode, 200)
      assert.ok(entryOf(html, anchor) !== undefined, `no entry for ${anchor}`)
    }
  })
})
