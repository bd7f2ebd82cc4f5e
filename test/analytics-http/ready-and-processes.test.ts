import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, it } from 'node:test'
import { analyticsPlacement } from '../../src/analytics/app-analytics.ts'
import { buildApp } from '../../src/app/build-app.ts'
import { createContext } from '../../src/app/context.ts'
import { loadConfig } from '../../src/config/index.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { signedPath } from '../../src/signing/index.ts'
import { TEST_MASTER_KEY } from '../support/app.ts'
import { openTestDatabase } from '../support/backends.ts'
import { analyticsCombos, batch, buildAnalyticsApp, DAY, displays, type AnalyticsTestApp } from './support/harness.ts'

const config = (env: Record<string, string> = {}) => loadConfig({ REELHOUSE_DATA_DIR: '/tmp/reelhouse-placement', ...env })
const PG = 'postgres://analytics.example:5432/events'

describe('which process serves analytics', () => {
  it('opens the store at start in the process of the api role, whatever the store', () => {
    assert.deepEqual(analyticsPlacement(config(), ['api', 'cdn', 'indexer', 'worker']), { serve: true, openAtStart: true })
    assert.deepEqual(analyticsPlacement(config({ ANALYTICS_URL: PG }), ['api']), { serve: true, openAtStart: true })
  })

  it('serves none in a separate cdn process with the embedded store (it admits one process)', () => {
    const placement = analyticsPlacement(config(), ['cdn'])
    assert.equal(placement.serve, false)
    assert.equal(analyticsPlacement(config({ ANALYTICS_URL: 'duckdb:events.duckdb' }), ['cdn']).serve, false)
  })

  it('serves analytics in a separate cdn process on PostgreSQL, with a spool of its own', () => {
    assert.deepEqual(analyticsPlacement(config({ ANALYTICS_URL: PG }), ['cdn']),
      { serve: true, spoolDir: '/tmp/reelhouse-placement/analytics-spool-cdn', openAtStart: true })
  })

  it('serves none in indexer and worker processes', () => {
    assert.equal(analyticsPlacement(config({ ANALYTICS_URL: PG }), ['indexer', 'worker']).serve, false)
  })
})

describe('a cdn process beside the api process, with the embedded store', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-cdn-only-'))
  afterEach(() => { rmSync(dataDir, { recursive: true, force: true }) })

  it('answers 503 on the analytics routes, and /ready does not wait for a store it never opens', async () => {
    const cfg = loadConfig({ REELHOUSE_DATA_DIR: dataDir, REELHOUSE_MASTER_KEY: TEST_MASTER_KEY, LOG_LEVEL: 'silent' })
    const database = await openTestDatabase('sqlite')
    const clock = new ManualClock()
    const ctx = await createContext(cfg, { database, clock, analytics: analyticsPlacement(cfg, ['cdn']) })
    const app = await buildApp(ctx, { variant: 'cdn', logger: false })
    try {
      const created = await ctx.services.accounts.create('A')
      const collect = await app.inject({ method: 'POST', url: '/v2/analytics/events', payload: JSON.stringify(batch(created.account.code, 'x', displays(1))) })
      assert.equal(collect.statusCode, 503)
      assert.match(collect.json().message, /^Analytics is served by the api process here/)
      const url = signedPath({ apiKey: created.administrator.api_key, secret: created.administrator.secret, method: 'GET', path: '/v2/analytics/reports', params: DAY, expires: Math.floor(clock.now() / 1000) + 600 })
      assert.equal((await app.inject({ method: 'GET', url })).statusCode, 503)
      const ready = await app.inject({ method: 'GET', url: '/ready' })
      assert.equal(ready.statusCode, 200)
      assert.equal(ready.json().checks.analytics, undefined)
    } finally {
      await app.close()
      await ctx.close()
      await database.close()
    }
  })
})

for (const combo of analyticsCombos()) {
  describe(`/ready, ${combo.name}`, { skip: combo.skip }, () => {
    let t: AnalyticsTestApp | undefined
    afterEach(async () => { await t?.close(); t = undefined })

    it("shows the analytics store's state", async () => {
      t = await buildAnalyticsApp(combo)
      const res = await t.app.inject({ method: 'GET', url: '/ready' })
      assert.equal(res.statusCode, 200)
      assert.equal(res.json().checks.analytics, 'ok')
    })
  })
}

describe('/ready and collection when the analytics store is unreachable', () => {
  let t: AnalyticsTestApp | undefined
  afterEach(async () => { await t?.close(); t = undefined })

  it('reports the store down (503) and answers collection with 503 and Retry-After, without internals', async () => {
    // Nothing listens on port 1: the connection is refused at once.
    t = await buildAnalyticsApp(analyticsCombos()[0], { ANALYTICS_URL: 'postgres://postgres@127.0.0.1:1/none' })
    const ready = await t.app.inject({ method: 'GET', url: '/ready' })
    assert.equal(ready.statusCode, 503)
    assert.match(ready.json().checks.analytics, /^down: .*ECONNREFUSED/)
    const res = await t.collect(batch(t.admin.accountCode, 'any', displays(1)))
    assert.equal(res.statusCode, 503)
    assert.equal(res.headers['retry-after'], '5')
    assert.equal(res.json().message, 'Analytics is unavailable right now. Try again shortly.')
  })
})
