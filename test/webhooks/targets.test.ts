import assert from 'node:assert/strict'
import { connect, isIP, type Socket } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { buildTestApp, type TestApp } from '../support/app.ts'
import type { Connector, Resolver } from '../../src/webhooks/index.ts'
import { deliveryFor, eventually } from './support/delivery.ts'
import { Receiver } from './support/receiver.ts'

/** Every target a webhook may not reach with private targets not allowed, and why. */
const FORBIDDEN: Array<{ url: (port: number) => string, reason: string }> = [
  { url: (p) => `http://127.0.0.1:${p}/hooks`, reason: 'the target is a loopback address' },
  { url: (p) => `http://[::1]:${p}/hooks`, reason: 'the target is a loopback address' },
  { url: (p) => `http://0.0.0.0:${p}/hooks`, reason: 'the target is an unspecified (0.0.0.0/8) address' },
  { url: () => 'http://10.0.0.1/hooks', reason: 'the target is a private address' },
  { url: () => 'http://100.64.0.1/hooks', reason: 'the target is a carrier-grade NAT (100.64.0.0/10) address' },
  { url: () => 'http://169.254.169.254/latest/meta-data/', reason: 'the target is a link-local address' },
  { url: (p) => `http://[::ffff:127.0.0.1]:${p}/hooks`, reason: 'the target is an IPv4-mapped address' },
  { url: () => 'http://[64:ff9b::a00:1]/hooks', reason: 'the target is a NAT64 address' },
  { url: (p) => `http://receiver.example:${p}/hooks`, reason: 'the name receiver.example resolves to a loopback address' }
]

/** Names the test resolves; anything else fails the test (no lookup leaves this machine). */
const resolver: Resolver = async (host) => {
  if (host === 'receiver.example') return [{ address: '127.0.0.1', family: 4 }]
  throw new Error(`unexpected lookup of ${host}`)
}

describe('webhook targets: no request to a forbidden address', { timeout: 30_000 }, () => {
  let t: TestApp
  let strict: TestApp
  let receiver: Receiver
  const connections: string[] = []
  /** Connects to loopback only; any other address fails the test before a packet is sent. */
  const connector: Connector = ({ address, port }): Socket => {
    connections.push(address)
    if (address !== '127.0.0.1' && address !== '::1') throw new Error(`a connection to a non-loopback address was attempted: ${address}`)
    return connect({ host: address, port })
  }
  before(async () => {
    // Endpoints are created where private targets are allowed; the worker below does not allow them.
    t = await buildTestApp('sqlite', { WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOKS_ALLOW_HTTP: 'true' })
    strict = await buildTestApp('sqlite', { WEBHOOKS_ALLOW_HTTP: 'true' })
    receiver = await Receiver.start([])
  })
  after(async () => { await receiver.close(); await strict.close(); await t.close() })

  const port = (): number => Number(new URL(receiver.url).port)

  it('refuses each forbidden target at delivery with the reason, never naming a resolved address, and connects nowhere', async () => {
    const worker = deliveryFor(t, { policy: { allowHttp: true, allowPrivate: false, resolve: resolver, connect: connector } })
    try {
      const sent: Array<{ id: string, reason: string }> = []
      for (const row of FORBIDDEN) {
        const hook = (await t.signed('POST', '/v2/webhooks', { body: { url: row.url(port()) } })).json()
        await t.signed('POST', `/v2/webhooks/${hook.id}/test`)
        sent.push({ id: hook.id, reason: row.reason })
      }
      for (const { id, reason } of sent) {
        let last: any
        await eventually(async () => {
          last = (await t.signed('GET', `/v2/webhooks/${id}/deliveries`)).json().items[0]
          return last?.attempt_count === 1 && last.state !== 'delivering'
        })
        assert.equal(last.last_error, `Not delivered: ${reason}.`)
        assert.equal(last.last_status, null)
        if (reason.includes('resolves')) assert.ok(!last.last_error.includes('127.0.0.1'))
      }
      assert.deepEqual(connections, [], 'no connection was attempted')
      assert.equal(receiver.received.length + receiver.rejected.length, 0)
    } finally { await worker.stop() }
  })

  it('refuses a forbidden literal address or http:// when the webhook is created, writing nothing', async () => {
    for (const row of FORBIDDEN.filter((r) => !r.reason.includes('resolves'))) {
      const res = await strict.signed('POST', '/v2/webhooks', { body: { url: row.url(port()) } })
      assert.equal(res.statusCode, 400, row.url(port()))
      assert.equal(res.json().code, 'webhook_target_refused')
      assert.equal(res.json().message, `Field url is refused: ${row.reason}.`)
    }
    const https = await buildTestApp('sqlite')
    try {
      const res = await https.signed('POST', '/v2/webhooks', { body: { url: 'http://example.com/hooks' } })
      assert.equal(res.json().message, 'Field url is refused: the target must be an https:// URL.')
    } finally { await https.close() }
    assert.equal((await strict.signed('GET', '/v2/webhooks')).json().items.length, 0)
  })

  it('does not follow a redirect from an allowed first hop', async () => {
    receiver.answer = () => 302
    const worker = deliveryFor(t, { policy: { allowHttp: true, allowPrivate: true, resolve: resolver, connect: connector } })
    try {
      connections.length = 0
      const hook = (await t.signed('POST', '/v2/webhooks', { body: { url: receiver.url } })).json()
      await t.signed('POST', `/v2/webhooks/${hook.id}/test`)
      let last: any
      await eventually(async () => {
        last = (await t.signed('GET', `/v2/webhooks/${hook.id}/deliveries`)).json().items[0]
        return last?.attempt_count === 1 && last.state !== 'delivering'
      })
      assert.equal(last.last_status, 302)
      assert.equal(last.state, 'pending', 'a redirect is a failed attempt, retried later')
      assert.deepEqual(connections, ['127.0.0.1'], 'one connection, to the first hop only')
      assert.ok(connections.every((a) => isIP(a) !== 0))
    } finally {
      await worker.stop()
      receiver.answer = () => 204
    }
  })
})
