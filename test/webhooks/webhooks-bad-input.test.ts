import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { databaseBackends } from '../support/backends.ts'
import { type BadInputRow, itAnswersEachRow, pagingRows } from '../support/bad-input.ts'
import { buildTestApp, snapshot, type TestApp } from '../support/app.ts'

const UNKNOWN = 'ffffffffffffffffffffffffffffffff'
const TABLES = ['webhooks', 'webhook_events', 'webhook_deliveries', 'webhook_attempts']

for (const backend of databaseBackends()) {
  describe(`/v2/webhooks bad input on ${backend.name}`, { skip: backend.skip }, () => {
    let t: TestApp
    let hook: { id: string }
    before(async () => {
      t = await buildTestApp(backend.name)
      hook = (await t.signed('POST', '/v2/webhooks', { body: { url: 'https://example.com/hooks' } })).json()
      await t.signed('POST', '/v2/webhooks', { body: { url: 'https://example.org/hooks' } })
    })
    after(async () => { await t.close() })

    const create = (): string => '/v2/webhooks'
    const one = (): string => `/v2/webhooks/${hook.id}`
    const rows: BadInputRow[] = [
      { name: 'create without a url', method: 'POST', path: create, body: {}, status: 400, message: 'Field url is required.' },
      { name: 'create with an unknown field', method: 'POST', path: create, body: { url: 'https://example.com/', secret: 'mine' }, status: 400, message: 'Unknown fields: secret.' },
      { name: 'create with a url that is no URL', method: 'POST', path: create, body: { url: 'example.com/hooks' }, status: 400, message: 'Field url must be an absolute URL.' },
      { name: 'create with an http:// url', method: 'POST', path: create, body: { url: 'http://example.com/hooks' }, status: 400, message: 'Field url is refused: the target must be an https:// URL.' },
      { name: 'create with a loopback url', method: 'POST', path: create, body: { url: 'https://127.0.0.1/hooks' }, status: 400, message: 'Field url is refused: the target is a loopback address.' },
      { name: 'create with the metadata service', method: 'POST', path: create, body: { url: 'https://169.254.169.254/' }, status: 400, message: 'Field url is refused: the target is a link-local address.' },
      { name: 'create with credentials in the url', method: 'POST', path: create, body: { url: 'https://user:pw@example.com/' }, status: 400, message: 'Field url is refused: the target must not carry a user name or password.' },
      { name: 'create with an unknown event type', method: 'POST', path: create, body: { url: 'https://example.com/', events: ['asset.exploded'] }, status: 400, message: 'Field events.0 must be one of asset.created, asset.updated, asset.deleted, asset.upload.completed, asset.playable, asset.ready, asset.errored, asset.rendition.ready, asset.captions.ready.' },
      { name: 'create with events as a string', method: 'POST', path: create, body: { url: 'https://example.com/', events: 'asset.ready' }, status: 400, message: 'Field events must be an array.' },
      { name: 'create with an over-long description', method: 'POST', path: create, body: { url: 'https://example.com/', description: 'x'.repeat(1001) }, status: 400, message: 'Field description must be at most 1000 characters long.' },
      { name: 'update with enabled as a string', method: 'PATCH', path: one, body: { enabled: 'yes' }, status: 400, message: 'Field enabled must be a boolean.' },
      { name: 'update with a private url', method: 'PATCH', path: one, body: { url: 'https://10.0.0.1/' }, status: 400, message: 'Field url is refused: the target is a private address.' },
      { name: 'get an unknown webhook', method: 'GET', path: () => `/v2/webhooks/${UNKNOWN}`, status: 404, message: `Webhook ${UNKNOWN} does not exist.` },
      { name: 'update an unknown webhook', method: 'PATCH', path: () => `/v2/webhooks/${UNKNOWN}`, body: { description: 'x' }, status: 404, message: `Webhook ${UNKNOWN} does not exist.` },
      { name: 'delete an unknown webhook', method: 'DELETE', path: () => `/v2/webhooks/${UNKNOWN}`, status: 404, message: `Webhook ${UNKNOWN} does not exist.` },
      { name: 'rotate the secret of an unknown webhook', method: 'POST', path: () => `/v2/webhooks/${UNKNOWN}/secret`, status: 404, message: `Webhook ${UNKNOWN} does not exist.` },
      { name: 'test an unknown webhook', method: 'POST', path: () => `/v2/webhooks/${UNKNOWN}/test`, status: 404, message: `Webhook ${UNKNOWN} does not exist.` },
      { name: 'list the deliveries of an unknown webhook', method: 'GET', path: () => `/v2/webhooks/${UNKNOWN}/deliveries`, status: 404, message: `Webhook ${UNKNOWN} does not exist.` },
      { name: 'retry an unknown delivery', method: 'POST', path: () => `${one()}/deliveries/${UNKNOWN}/retry`, status: 404, message: () => `Delivery ${UNKNOWN} of webhook ${hook.id} does not exist.` },
      { name: 'replace a webhook (no PUT)', method: 'PUT', path: one, body: { url: 'https://example.com/' }, status: 405, message: () => `PUT is not allowed on /v2/webhooks/${hook.id}; it takes DELETE, GET, HEAD, PATCH.` },
      { name: 'stream after an id that is no event id', method: 'GET', path: () => '/v2/webhook_events?after=evt_nope', status: 400, message: 'Parameter after has an invalid format.' },
      { name: 'stream after an event the account does not have', method: 'GET', path: () => `/v2/webhook_events?after=evt_${'0'.repeat(32)}`, status: 404, message: `Event evt_${'0'.repeat(32)} does not exist.` },
      { name: 'post to the event stream', method: 'POST', path: () => '/v2/webhook_events', status: 405, message: 'POST is not allowed on /v2/webhook_events; it takes GET, HEAD.' },
      ...pagingRows('/v2/webhooks'),
      ...pagingRows(() => `${one()}/deliveries`)
    ]
    itAnswersEachRow(() => t, rows, TABLES)

    for (const path of ['/v2/webhooks', 'secret']) {
      it(`refuses an Idempotency-Key on ${path === 'secret' ? 'POST …/secret' : 'POST /v2/webhooks'}, writing nothing and keeping no answer`, async () => {
        const target = path === 'secret' ? `${one()}/secret` : path
        const beforeRows = await snapshot(t.ctx, [...TABLES, 'idempotency_keys'])
        const res = await t.signed('POST', target, { body: path === 'secret' ? undefined : { url: 'https://example.com/' }, headers: { 'idempotency-key': 'k1', 'content-type': 'application/json' } })
        assert.equal(res.statusCode, 400, res.body)
        assert.equal(res.json().code, 'idempotency_not_supported')
        assert.equal(await snapshot(t.ctx, [...TABLES, 'idempotency_keys']), beforeRows)
      })
    }

    it('lets only administrators in', async () => {
      const manager = await t.userWithRole('manager')
      const res = await t.signed('GET', '/v2/webhooks', { as: manager })
      assert.equal(res.statusCode, 403)
      assert.equal(res.json().message, 'Role manager may not read webhooks.')
    })
  })
}
