import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { Webhook } from 'standardwebhooks'
import { verifyWebhook } from '../../packages/client/src/index.ts'
import { databaseBackends } from '../support/backends.ts'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { deliveryFor, eventually } from './support/delivery.ts'
import { Receiver } from './support/receiver.ts'

const HOUR = 60 * 60 * 1000
const ENV = { WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOKS_ALLOW_HTTP: 'true' }

for (const backend of databaseBackends()) {
  describe(`webhook delivery on ${backend.name}`, { skip: backend.skip, timeout: 20_000 }, () => {
    let t: TestApp
    let receiver: Receiver
    let webhook: { id: string, secret: string }
    before(async () => {
      t = await buildTestApp(backend.name, ENV)
      // Receivers check timestamps against their own clock: the service's starts at the real time.
      t.clock.set(Date.now())
      receiver = await Receiver.start([])
      const res = await t.signed('POST', '/v2/webhooks', { body: { url: receiver.url, description: 'test receiver' } })
      assert.equal(res.statusCode, 200, res.body)
      webhook = res.json()
      receiver.secrets = [webhook.secret]
    })
    after(async () => { await receiver.close(); await t.close() })

    const deliveries = async (): Promise<any[]> => (await t.signed('GET', `/v2/webhooks/${webhook.id}/deliveries?limit=500`)).json().items

    it('answers the secret once, keeps it sealed, and never shows it again', async () => {
      assert.match(webhook.secret, /^whsec_[A-Za-z0-9+/]{43}=$/)
      const row = await t.ctx.database.db.selectFrom('webhooks').selectAll().where('id', '=', webhook.id).executeTakeFirstOrThrow()
      assert.ok(!row.secret.includes(webhook.secret.slice(6)), 'stored sealed')
      assert.equal(t.ctx.secrets.decrypt(row.secret), webhook.secret)
      const shown = await t.signed('GET', `/v2/webhooks/${webhook.id}`)
      assert.ok(!shown.body.includes('secret'))
      const list = await t.signed('GET', '/v2/webhooks')
      assert.ok(!list.body.includes(webhook.secret))
    })

    it('delivers asset.created, asset.updated and asset.deleted with the asset as it was then, each verified by standardwebhooks', async () => {
      const worker = deliveryFor(t)
      try {
        const created = (await t.signed('POST', '/v2/assets', { body: { asset_type: 'channel', name: 'first' } })).json()
        const updated = (await t.signed('PATCH', `/v2/assets/${created.embed_code}`, { body: { name: 'second' } })).json()
        assert.equal((await t.signed('DELETE', `/v2/assets/${created.embed_code}`)).statusCode, 200)
        await receiver.until(() => receiver.received.length >= 3)
        const payloads = receiver.received.map((d) => JSON.parse(d.body))
        const byType = new Map(payloads.map((p) => [p.type, p]))
        assert.deepEqual([...byType.keys()].sort(), ['asset.created', 'asset.deleted', 'asset.updated'])
        assert.deepEqual(byType.get('asset.created').data, created)
        assert.deepEqual(byType.get('asset.updated').data, updated)
        assert.equal(byType.get('asset.deleted').data.embed_code, created.embed_code)
        assert.equal(byType.get('asset.deleted').data.name, 'second')
        for (const p of payloads) {
          assert.match(p.id, /^evt_[0-9a-f]{32}$/)
          assert.equal(p.account_id, t.admin.accountId)
        }
        assert.deepEqual(receiver.rejected, [])
        // The TypeScript client's verifier agrees with the reference one.
        const first = receiver.received[0]
        assert.equal((await verifyWebhook(first.body, first.headers as Record<string, string>, webhook.secret)).id, first.id)
      } finally { await worker.stop() }
    })

    it('receiver down then up: failed attempts listed with their status codes, all delivered after; a retry an hour later still verifies', async () => {
      receiver.received.length = 0
      // The events happen an hour ago, while the receiver answers 503.
      const realNow = Date.now()
      t.clock.set(realNow - HOUR)
      let down = true
      const seenWhileDown: Array<{ body: string, headers: Record<string, string> }> = []
      receiver.answer = (d) => {
        if (down) { seenWhileDown.push({ body: d.body, headers: d.headers as Record<string, string> }); return 503 }
        return 200
      }
      receiver.secrets = []
      const worker = deliveryFor(t, { schedule: [1000, 1000, 1000, HOUR / 2] })
      try {
        const names = ['a', 'b', 'c']
        for (const name of names) await t.signed('POST', '/v2/assets', { body: { asset_type: 'channel', name } })
        // Three attempts each, one a second on the service's clock.
        for (let round = 0; round < 3; round++) {
          await eventually(async () => (await deliveries()).filter((d) => d.state === 'pending' && d.attempt_count === round + 1).length === 3)
          t.clock.advance(1500)
          worker.wake()
        }
        await eventually(async () => (await deliveries()).filter((d) => d.state === 'pending' && d.attempt_count === 4).length === 3)
        const failed = (await deliveries()).filter((d) => d.attempt_count === 4)
        for (const d of failed) {
          assert.deepEqual(d.attempts.map((a: { status: number }) => a.status), [503, 503, 503, 503])
          assert.equal(d.last_status, 503)
          assert.equal(d.last_response, null, 'no answer body kept for a non-public target')
        }
        // The first attempts' signatures, an hour old now, no longer verify: each attempt must be signed afresh.
        const stale = seenWhileDown[0]
        assert.throws(() => new Webhook(webhook.secret).verify(stale.body, stale.headers), /too old/i)
        // The receiver is back; an hour later the service retries (the clock moved to the receiver's time:
        // the scheduled retries, half an hour ±20 % after the last attempt, are due, and one is asked for).
        down = false
        receiver.secrets = [webhook.secret]
        t.clock.set(realNow)
        const retried = await t.signed('POST', `/v2/webhooks/${webhook.id}/deliveries/${failed[0].id}/retry`)
        assert.equal(retried.statusCode, 200, retried.body)
        // Due now: the worker may already have taken it (the scheduled retries are due too).
        assert.ok(['pending', 'delivering'].includes(retried.json().state), retried.body)
        worker.wake()
        await receiver.until(() => receiver.received.length >= 3)
        assert.deepEqual(receiver.rejected, [])
        assert.equal(receiver.ids().size, 3)
        for (const d of receiver.received) assert.ok(seenWhileDown.some((s) => s.headers['webhook-id'] === d.id), 'the same webhook-id as the failed attempts')
        await eventually(async () => (await deliveries()).filter((d) => failed.some((f) => f.id === d.id)).every((d) => d.state === 'succeeded'))
        const done = (await deliveries()).find((d) => d.id === failed[0].id)
        assert.deepEqual(done.attempts.map((a: { status: number }) => a.status), [503, 503, 503, 503, 200])
      } finally {
        await worker.stop()
        receiver.answer = () => 204
      }
    })

    it('rotation: during the overlap a receiver holding either secret verifies; after it only the new one signs', async () => {
      receiver.received.length = 0
      t.clock.set(Date.now())
      const rotated = await t.signed('POST', `/v2/webhooks/${webhook.id}/secret`)
      assert.equal(rotated.statusCode, 200, rotated.body)
      const { secret } = rotated.json()
      assert.notEqual(secret, webhook.secret)
      receiver.secrets = [webhook.secret, secret]
      const worker = deliveryFor(t)
      try {
        const sent = (await t.signed('POST', `/v2/webhooks/${webhook.id}/test`)).json()
        await receiver.until(() => receiver.ids().has(sent.event_id))
        assert.deepEqual(receiver.rejected, [])
        const delivered = receiver.received.find((d) => d.id === sent.event_id)
        assert.equal(String(delivered?.headers['webhook-signature']).split(' ').length, 2)
        assert.equal(JSON.parse(delivered?.body ?? '').type, 'webhook.test')
        // A day and a bit later the old secret no longer signs (checked with the client's verifier at that time).
        t.clock.advance(25 * HOUR)
        const later = (await t.signed('POST', `/v2/webhooks/${webhook.id}/test`)).json()
        receiver.secrets = []
        worker.wake()
        await receiver.until(() => receiver.ids().has(later.event_id))
        const last = receiver.received.find((d) => d.id === later.event_id)
        const headers = last?.headers as Record<string, string>
        assert.equal(headers['webhook-signature'].split(' ').length, 1)
        await verifyWebhook(last?.body ?? '', headers, secret, { now: t.clock.now() })
        await assert.rejects(verifyWebhook(last?.body ?? '', headers, webhook.secret, { now: t.clock.now() }), /No signature matches/)
        await assert.rejects(verifyWebhook(last?.body ?? '', headers, secret, { now: t.clock.now() + 301_000 }), /more than 300 seconds old/)
      } finally { await worker.stop() }
    })

    it('410 Gone disables the endpoint with the reason', async () => {
      t.clock.set(Date.now())
      receiver.secrets = []
      receiver.answer = () => 410
      const worker = deliveryFor(t)
      try {
        const sent = (await t.signed('POST', `/v2/webhooks/${webhook.id}/test`)).json()
        await eventually(async () => (await deliveries()).some((d) => d.event_id === sent.event_id && d.state === 'failed'))
        const shown = (await t.signed('GET', `/v2/webhooks/${webhook.id}`)).json()
        assert.equal(shown.enabled, false)
        assert.equal(shown.disabled_reason, 'The endpoint answered 410 Gone.')
        const again = (await t.signed('PATCH', `/v2/webhooks/${webhook.id}`, { body: { enabled: true } })).json()
        assert.equal(again.enabled, true)
        assert.equal(again.disabled_reason, null)
      } finally {
        await worker.stop()
        receiver.answer = () => 204
      }
    })
  })
}
