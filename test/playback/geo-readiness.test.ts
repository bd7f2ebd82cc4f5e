import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { buildTestApp, type TestApp } from '../support/app.ts'

/** With no GeoIP database a country rule refuses every request; /ready says why as soon as one exists. */
describe('/ready and geographic restrictions without a GeoIP database', () => {
  let t: TestApp
  before(async () => { t = await buildTestApp('sqlite') })
  after(async () => { await t?.close() })

  async function geoip (): Promise<string> {
    const res = await t.app.inject({ url: '/ready' })
    return (res.json() as { checks: Record<string, string> }).checks.geoip as string
  }

  it('is silent until a rule restricts countries, then names the missing database', async () => {
    assert.equal(await geoip(), 'ok')
    const rule = await t.signed('POST', '/v2/publishing_rules', { body: { name: 'Only GB', geographic_restrictions: { type: 'allow', countries: ['GB'] } } })
    assert.equal(rule.statusCode, 200, rule.body)
    assert.match(await geoip(), /^no GeoIP database \(GEOIP_DB\): publishing rules with geographic restrictions refuse every media request$/)
    assert.equal((await t.signed('PATCH', `/v2/publishing_rules/${rule.json().id as string}`, { body: { geographic_restrictions: { type: 'deny', countries: [] } } })).statusCode, 200)
    assert.equal(await geoip(), 'ok')
  })
})
