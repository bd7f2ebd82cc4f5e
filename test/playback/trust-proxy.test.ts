import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import Fastify from 'fastify'
import { trustedProxies } from '../../src/http/trust-proxy.ts'

/** Which address a request is from, as Fastify reads it under each TRUST_PROXY setting. */
async function addressSeen (setting: Parameters<typeof trustedProxies>[0], forwardedFor: string, peer = '127.0.0.1'): Promise<string> {
  const app = Fastify({ trustProxy: trustedProxies(setting) })
  app.get('/', async (req) => req.ip)
  const res = await app.inject({ url: '/', headers: { 'x-forwarded-for': forwardedFor }, remoteAddress: peer })
  await app.close()
  return res.body
}

describe('TRUST_PROXY: whose X-Forwarded-For is read', () => {
  it('none trusted: the socket\'s address, whatever the header claims', async () => {
    assert.equal(await addressSeen(false, '81.2.69.10'), '127.0.0.1')
  })
  it('a hop count: only that many proxies from the socket', async () => {
    assert.equal(await addressSeen(1, '81.2.69.10'), '81.2.69.10')
    assert.equal(await addressSeen(1, '2.16.0.9, 81.2.69.10'), '81.2.69.10')
    assert.equal(await addressSeen(2, '2.16.0.9, 81.2.69.10'), '2.16.0.9')
  })
  it('a list of proxies: the header only from them', async () => {
    assert.equal(await addressSeen(['10.0.0.0/8'], '81.2.69.10', '10.1.2.3'), '81.2.69.10')
    assert.equal(await addressSeen(['10.0.0.0/8'], '81.2.69.10', '127.0.0.1'), '127.0.0.1')
    assert.equal(await addressSeen(['10.0.0.0/8', '127.0.0.1'], '2.16.0.9, 10.9.9.9', '127.0.0.1'), '2.16.0.9')
    assert.equal(await addressSeen(['2001:db8::/32'], '81.2.69.10', '2001:db8::5'), '81.2.69.10')
  })
})
