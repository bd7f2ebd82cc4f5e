import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { Ajv2020 } from 'ajv/dist/2020.js'
import formats from 'ajv-formats'
import { servedDocument } from '../../scripts/openapi-lint.ts'
import { EVENT_TYPES, eventBody } from '../../src/webhooks/index.ts'
import { buildTestApp, type TestApp } from '../support/app.ts'

// Each event type's payload in the OpenAPI document (its `webhooks`), checked against real events: the
// bodies the service records and sends for real writes must fit the schema of their type.
describe('the event payloads in the OpenAPI document', () => {
  let document: Record<string, any>
  let t: TestApp
  before(async () => {
    document = JSON.parse(await servedDocument())
    t = await buildTestApp('sqlite')
  })
  after(async () => { await t.close() })

  it('has a payload schema for every event type the service sends', () => {
    const documented = Object.keys(document.webhooks ?? {}).sort()
    assert.deepEqual(documented, [...EVENT_TYPES].sort())
    for (const type of documented) {
      const post = document.webhooks[type].post
      assert.deepEqual(post.parameters.map((p: { name: string }) => p.name), ['webhook-id', 'webhook-timestamp', 'webhook-signature'])
      assert.ok(post.responses['410'] !== undefined)
    }
  })

  it('describes the bodies real writes send: each fits its type\'s schema, and a wrong one does not', async () => {
    const hook = (await t.signed('POST', '/v2/webhooks', { body: { url: 'https://example.com/hooks' } })).json()
    const asset = (await t.signed('POST', '/v2/assets', { body: { asset_type: 'channel', name: 'documented' } })).json()
    await t.signed('PATCH', `/v2/assets/${asset.embed_code}`, { body: { name: 'renamed', description: 'with a description' } })
    await t.signed('DELETE', `/v2/assets/${asset.embed_code}`)
    await t.signed('POST', `/v2/webhooks/${hook.id}/test`)
    const rows = await t.ctx.database.db.selectFrom('webhook_events').selectAll().where('account_id', '=', t.admin.accountId).execute()
    assert.deepEqual(rows.map((row) => row.type).sort(), ['asset.created', 'asset.deleted', 'asset.updated', 'webhook.test'])

    const ajv = new Ajv2020({ strict: false, allErrors: true })
    formats.default(ajv)
    ajv.addSchema({ ...document, $id: 'openapi' })
    const schemaOf = (type: string) => ajv.compile({ $ref: `openapi#/webhooks/${type}/post/requestBody/content/application~1json/schema` })
    for (const row of rows) {
      const body = JSON.parse(eventBody(row, t.admin.accountId)) as Record<string, unknown>
      const validate = schemaOf(row.type)
      assert.ok(validate(body), `${row.type}: ${JSON.stringify(validate.errors)}`)
      assert.ok(!schemaOf(row.type)({ ...body, type: 'asset.other' }), 'the type is fixed per schema')
    }
    const deleted = rows.find((row) => row.type === 'asset.deleted')
    assert.ok(deleted !== undefined)
    assert.ok(!schemaOf('asset.created')(JSON.parse(eventBody(deleted, t.admin.accountId))), 'a deleted asset is not an asset')
  })
})
