import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { createVia, remoteAsset } from '../assets/support/assets.ts'

// Text a caller chose is never looked up in, or written to, a plain object: names a plain object
// already answers to (`constructor`, `__proto__`, `toString`) are ordinary unknown names.
const NAMES = ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty']

describe('names a plain object already answers to', () => {
  let t: TestApp
  before(async () => { t = await buildTestApp('sqlite') })
  after(async () => { await t.close() })

  for (const name of NAMES) {
    it(`answers a body field ${name} with a 400 naming it, in our format`, async () => {
      const res = await t.signed('POST', '/v2/labels', { body: `{"name":"A","${name}":{}}` })
      assert.equal(res.statusCode, 400, res.body)
      assert.equal(res.json().message, `Unknown fields: ${name}.`)
      assert.deepEqual(Object.keys(res.json().errors), [name])
      assert.equal(res.json().code, 'validation_failed')
    })

    it(`refuses the sort direction ${name} with a 400`, async () => {
      const res = await t.signed('GET', '/v2/assets', { params: { orderby: `name ${name}` } })
      assert.equal(res.statusCode, 400, res.body)
      assert.match(res.json().message, new RegExp(`^Unknown sort direction '${name}'`))
    })

    it(`refuses the classic report dimension and order_by ${name} with a 400`, async () => {
      const path = await t.signed('GET', `/v2/analytics/reports/account/performance/${name}/2026-11-01`)
      assert.equal(path.statusCode, 400, path.body)
      assert.equal(path.json().errors.path.length, 1)
      const order = await t.signed('GET', '/v2/analytics/reports/account/performance/total/2026-11-01', { params: { order_by: name } })
      assert.equal(order.statusCode, 400, order.body)
      assert.match(order.json().message, /^order_by must be one of/)
    })
  }

  it('renders a feed whose media URL ends in .constructor, with no media type', async () => {
    await remoteAsset(t, { name: 'Odd', stream_urls: { source_file: 'https://cdn.example.com/a.constructor' } })
    const feed = await createVia(t, '/v2/syndications', { name: 'All', type: 'mrss', include_all_content: true }) as { feed_url?: string }
    const res = await t.app.inject({ method: 'GET', url: feed.feed_url as string })
    assert.equal(res.statusCode, 200, res.body)
    assert.match(res.body, /a\.constructor/)
  })
})
