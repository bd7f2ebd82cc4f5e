import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { metricValue } from '../../src/ops/metrics/index.ts'
import type { Caller } from '../support/app.ts'
import { deployments, DOCUMENTED_DELAY_MS, startPair, startProxy, within, type Pair, type Proxy } from './pair.ts'

for (const deployment of deployments()) {
  describe(`fresh reads across two processes on ${deployment.name}`, { skip: deployment.skip }, () => {
    let p: Pair
    before(async () => { p = await startPair(deployment) })
    after(async () => { await p.close() })

    const create = async (path: string, body: object, as?: Caller): Promise<Record<string, any>> => {
      const res = await p.call(p.a.api, 'POST', path, { body, as })
      assert.equal(res.statusCode, 200, res.body)
      return res.json()
    }
    const get = async (on: FastifyInstance, path: string, as?: Caller) => await p.call(on, 'GET', path, { as })
    /**
     * Until the cached variant holds the answer. A process does not store an answer whose request
     * overlapped a purge it names (the writes that just created it, heard on the bus meanwhile).
     */
    const cached = async (on: FastifyInstance, path: string, as?: Caller): Promise<void> => {
      await within(DOCUMENTED_DELAY_MS, async () => (await get(on, path, as)).headers['x-cache'] === 'HIT', `${path} cached`)
    }

    it('shows a write acknowledged on A in B\'s item, list and feed within the documented delay, and keeps unchanged items HITs', async (t) => {
      const changed = await create('/v2/players', { name: 'Before' })
      const unchanged = await create('/v2/players', { name: 'Untouched' })
      const asset = await create('/v2/assets', { asset_type: 'remote_asset', name: 'Old title', stream_urls: { source_file: 'https://cdn.example.com/a.mp4' } })
      const feed = await create('/v2/syndications', { name: 'All', type: 'mrss', include_all_content: true })
      const item = `/v2/players/${changed.id as string}`
      const other = `/v2/players/${unchanged.id as string}`
      for (const path of [item, '/v2/players', other]) await cached(p.b.cdn, path)
      assert.equal((await get(p.b.api, item)).json().name, 'Before')
      const feedOf = async (): Promise<string> => (await p.b.cdn.inject({ method: 'GET', url: feed.feed_url as string })).body
      assert.match(await feedOf(), /Old title/)

      const patched = await p.call(p.a.api, 'PATCH', item, { body: { name: 'After' } })
      assert.equal(patched.statusCode, 200)
      const itemMs = await within(DOCUMENTED_DELAY_MS, async () => (await get(p.b.cdn, item)).json().name === 'After', 'the item on B\'s cached variant')
      const listed = (await get(p.b.cdn, '/v2/players')).json().items.map((player: { name: string }) => player.name)
      assert.deepEqual(listed.sort(), ['After', 'Untouched'])
      assert.equal((await get(p.b.api, item)).json().name, 'After')
      assert.equal((await get(p.b.cdn, other)).headers['x-cache'], 'HIT')

      assert.equal((await p.call(p.a.api, 'PATCH', `/v2/assets/${asset.embed_code as string}`, { body: { name: 'New title' } })).statusCode, 200)
      const feedMs = await within(DOCUMENTED_DELAY_MS, async () => /New title/.test(await feedOf()), 'the feed on B')
      t.diagnostic(`propagation A→B: item ${itemMs.toFixed(1)} ms, feed ${feedMs.toFixed(1)} ms`)
    })

    it('refuses a rotated secret, a deleted user and a downgraded role on both processes, main service and cached URL', async (t) => {
      const player = await create('/v2/players', { name: 'Shown' })
      const path = `/v2/players/${player.id as string}`
      const userOf = async (role: string): Promise<Caller> => {
        const user = await create('/v2/users', { name: `${role} user`, role })
        return { ...p.admin, apiKey: user.api_key, secret: user.secret, userId: user.id }
      }
      const rotated = await userOf('manager')
      const deleted = await userOf('manager')
      const downgraded = await userOf('administrator')
      const everywhere = [p.a.api, p.a.cdn, p.b.api, p.b.cdn]
      for (const user of [rotated, deleted, downgraded]) {
        for (const app of everywhere) assert.equal((await get(app, path, user)).statusCode, 200)
        for (const app of [p.a.cdn, p.b.cdn]) await cached(app, path, user)
      }

      assert.equal((await p.call(p.a.api, 'POST', `/v2/users/${rotated.userId}/secret`)).statusCode, 200)
      assert.equal((await p.call(p.a.api, 'DELETE', `/v2/users/${deleted.userId}`)).statusCode, 200)
      assert.equal((await p.call(p.a.api, 'PATCH', `/v2/users/${downgraded.userId}`, { body: { role: 'analytics_only' } })).statusCode, 200)

      const statuses = async (user: Caller): Promise<number[]> => await Promise.all(everywhere.map(async (app) => (await get(app, path, user)).statusCode))
      const slowest = Math.max(
        await within(DOCUMENTED_DELAY_MS, async () => (await statuses(rotated)).every((s) => s === 401), 'the rotated secret refused everywhere'),
        await within(DOCUMENTED_DELAY_MS, async () => (await statuses(deleted)).every((s) => s === 401), 'the deleted user refused everywhere'),
        await within(DOCUMENTED_DELAY_MS, async () => (await statuses(downgraded)).every((s) => s === 403), 'the downgraded role refused everywhere')
      )
      t.diagnostic(`credentials refused on every process within ${slowest.toFixed(1)} ms`)
      // Another signer's answer to the same path is cached again and served.
      await cached(p.b.cdn, path)
    })

    it('reports its bus on /ready and /metrics, and counts the read cache', async () => {
      const ready = await p.b.api.inject({ method: 'GET', url: '/ready' })
      assert.equal(ready.json().checks.invalidation_bus, 'ok')
      const metrics = await p.b.ctx.metrics.text()
      assert.equal(metricValue(metrics, 'reelhouse_invalidation_bus_up', { kind: deployment.database === 'postgres' ? 'postgres' : 'redis' }), 1)
      assert.ok((metricValue(metrics, 'reelhouse_invalidations_received_total') ?? 0) > 0)
      assert.ok((metricValue(metrics, 'reelhouse_read_cache_hits_total') ?? 0) > 0)
    })
  })
}

for (const deployment of deployments()) {
  describe(`a bus outage on ${deployment.name}`, { skip: deployment.skip }, () => {
    let p: Pair
    let proxy: Proxy
    before(async () => {
      const target = deployment.database === 'postgres' ? new URL(process.env.TEST_DATABASE_URL as string) : new URL(process.env.TEST_REDIS_URL as string)
      proxy = await startProxy({ host: target.hostname, port: Number(target.port) })
      target.port = String(proxy.port)
      // Only B's bus goes through the proxy: its database and Redis connections stay up.
      p = await startPair(deployment, { INVALIDATION_BUS_URL: target.toString() })
    })
    after(async () => {
      await p.close()
      await proxy.kill().catch(() => {})
    })

    it('serves no stale answer once a write is acknowledged while B\'s bus is cut, and serves from cache again once it is back', async () => {
      const get = async (on: FastifyInstance, path: string) => await p.call(on, 'GET', path)
      const player = (await p.call(p.a.api, 'POST', '/v2/players', { body: { name: 'Before' } })).json()
      const item = `/v2/players/${player.id as string}`
      await within(DOCUMENTED_DELAY_MS, async () => (await get(p.b.cdn, item)).headers['x-cache'] === 'HIT', 'cached on B')
      assert.equal((await get(p.b.api, item)).json().name, 'Before')

      await proxy.kill()
      const patched = await p.call(p.a.api, 'PATCH', item, { body: { name: 'After' } })
      assert.equal(patched.statusCode, 200)
      // No polling: the first answers after the acknowledgement are already fresh.
      const cdn = await get(p.b.cdn, item)
      assert.equal(cdn.json().name, 'After')
      assert.equal(cdn.headers['x-cache'], 'MISS')
      assert.equal((await get(p.b.api, item)).json().name, 'After')
      const ready = await p.b.api.inject({ method: 'GET', url: '/ready' })
      assert.equal(ready.statusCode, 200)
      assert.match(ready.json().checks.invalidation_bus, /^degraded: invalidation bus \((redis|postgres)\) down since /)
      assert.equal(metricValue(await p.b.ctx.metrics.text(), 'reelhouse_invalidation_bus_up', { kind: deployment.database === 'postgres' ? 'postgres' : 'redis' }), 0)
      assert.equal((await get(p.b.cdn, item)).headers['x-cache'], 'MISS', 'nothing is served from the cache while the bus is down')

      proxy = await startProxy({ host: '127.0.0.1', port: Number(new URL(deployment.database === 'postgres' ? process.env.TEST_DATABASE_URL as string : process.env.TEST_REDIS_URL as string).port) }, proxy.port)
      await within(10_000, async () => p.b.ctx.freshness.bus.state === 'up' && p.b.ctx.responseCache.serving, 'B\'s bus back')
      assert.equal((await p.b.api.inject({ method: 'GET', url: '/ready' })).json().checks.invalidation_bus, 'ok')
      await within(DOCUMENTED_DELAY_MS, async () => (await get(p.b.cdn, item)).headers['x-cache'] === 'HIT', 'cached on B again')
      assert.equal((await get(p.b.cdn, item)).json().name, 'After')
    })
  })
}

describe('embedded SQLite without Redis: another process writing the file', () => {
  let p: Pair
  before(async () => { p = await startPair({ name: 'SQLite alone', database: 'sqlite', redis: false, skip: false }) })
  after(async () => { await p.close() })

  it('empties B\'s caches when A commits to the file, within the poll interval', async () => {
    const get = async (on: FastifyInstance, path: string) => await p.call(on, 'GET', path)
    const player = (await p.call(p.a.api, 'POST', '/v2/players', { body: { name: 'Before' } })).json()
    const item = `/v2/players/${player.id as string}`
    await within(DOCUMENTED_DELAY_MS, async () => (await get(p.b.cdn, item)).headers['x-cache'] === 'HIT', 'cached on B')
    assert.equal((await get(p.b.api, item)).json().name, 'Before')
    assert.equal(p.b.ctx.freshness.bus.kind, 'embedded')
    assert.equal((await p.call(p.a.api, 'PATCH', item, { body: { name: 'After' } })).statusCode, 200)
    await within(DOCUMENTED_DELAY_MS, async () => (await get(p.b.cdn, item)).json().name === 'After', 'the change on B\'s cached variant')
    assert.equal((await get(p.b.api, item)).json().name, 'After')
  })
})
