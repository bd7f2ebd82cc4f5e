import assert from 'node:assert/strict'
import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { createHitLane, GuardedResponseCache, MemoryResponseCache } from '../../src/cdn/index.ts'
import { AccountAllowances, createCreditsGate, MemoryCreditStore } from '../../src/credits/index.ts'
import { requestIdOf } from '../../src/http/request-id.ts'
import { ManualClock } from '../../src/lib/clock.ts'

// The hit lane answers an in-process hit at once (no promise, no turn of the event loop) once the
// account's allowance has been read, and by a promise before; both must send the same bytes.
const START = Date.UTC(2026, 10, 22, 10, 0, 15)
const HIT_URL = `/v2/users/u1?api_key=k.1&expires=${Math.floor(Date.UTC(2031, 0, 1) / 1000)}&signature=s`
const BODY = '{"id":"u1","name":"Ann"}'

describe('the cached variant\'s hit lane', () => {
  const clock = new ManualClock(START)
  const cache = new GuardedResponseCache(new MemoryResponseCache({ ttlSeconds: 300, maxBytes: 1 << 20, clock }))
  const credits = createCreditsGate({ store: new MemoryCreditStore(clock), allowances: new AccountAllowances(async () => null, 100, clock), globalAllowance: 100, clock })
  const lane = createHitLane({ cache, clock, clientMaxAge: 0, balanceHeaders: credits.balanceHeaders, balanceNow: credits.balanceNow, requestId: requestIdOf })
  const returned: string[] = []
  let server: Server
  let base: string

  before(async () => {
    await cache.set(HIT_URL, { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: Buffer.from(BODY), accountId: 'a1' }, { tags: [] })
    clock.advance(3_000)
    server = createServer((request, response) => {
      const answered = lane(request, response)
      returned.push(answered instanceof Promise ? 'promise' : String(answered))
      if (answered === false) response.end('not a hit')
    })
    await new Promise<void>((resolve) => { server.listen(0, '127.0.0.1', resolve) })
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  after(async () => { await new Promise((resolve) => server.close(resolve)) })

  /** The status, the raw headers in order (those of the connection and Date left out) and the body of one GET. */
  async function get (url: string): Promise<string> {
    return await new Promise((resolve, reject) => {
      httpRequest(base + url, { headers: { 'x-request-id': 'same-id' } }, (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => { body += chunk })
        res.on('end', () => {
          const head: string[] = []
          for (let i = 0; i < res.rawHeaders.length; i += 2) {
            const name = res.rawHeaders[i] as string
            if (!['date', 'connection', 'keep-alive'].includes(name.toLowerCase())) head.push(`${name}: ${res.rawHeaders[i + 1] as string}`)
          }
          resolve(`${String(res.statusCode)}\n${head.join('\n')}\n\n${body}`)
        })
      }).on('error', reject).end()
    })
  }

  it('answers by a promise before the allowance is read, then at once, the same bytes', async () => {
    const first = await get(HIT_URL)
    const second = await get(HIT_URL)
    assert.deepEqual(returned, ['promise', 'true'])
    assert.equal(second, first)
    assert.equal(first, [
      '200', 'x-request-id: same-id', 'content-type: application/json; charset=utf-8', `content-length: ${BODY.length}`,
      'cache-control: public, max-age=0', 'age: 3', 'x-cache: HIT', 'x-ratelimit-credits: 100', 'x-ratelimit-reset: 42', '', BODY
    ].join('\n'))
    assert.match(await get('/v2/users/u2?expires=1'), /\n\nnot a hit$/)
    assert.deepEqual(returned, ['promise', 'true', 'false'])
  })
})
