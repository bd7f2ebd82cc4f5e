import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { metricValue } from '../../src/ops/metrics/index.ts'
import { signedPath } from '../../src/signing/index.ts'
import { TEST_MASTER_KEY } from '../support/app.ts'
import { startCli, type CliProcess } from '../support/cli.ts'
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts'

// Redis cut mid-load through a TCP proxy the test owns, in both failure modes, on a real `serve` process:
// `serve` answers uncounted, `refuse` answers 503 with Retry-After; either way the outage is logged once
// (and its end once), never a stack per request, and refusals are counted in the process's metrics.
const REDIS = process.env.TEST_REDIS_URL
const DURING_OUTAGE = 20

interface Admin { api_key: string, secret: string }

for (const mode of ['refuse', 'serve'] as const) {
  describe(`Redis cut mid-load with REDIS_FAILURE_MODE=${mode}`, { skip: REDIS === undefined ? 'TEST_REDIS_URL is not set' : false }, () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-redis-cut-'))
    let proxy: TcpProxy
    let server: CliProcess
    let base: string
    let metrics: string
    let admin: Admin
    before(async () => {
      proxy = await startTcpProxy(REDIS as string)
      server = startCli(['serve', '--role', 'api'], {
        REELHOUSE_DATA_DIR: dataDir, REELHOUSE_MASTER_KEY: TEST_MASTER_KEY, HOST: '127.0.0.1', API_PORT: '0', TRUST_PROXY: 'true',
        METRICS_PORT: '0', LOG_FORMAT: 'json', REDIS_URL: proxy.through(REDIS as string), REDIS_FAILURE_MODE: mode
      })
      await server.waitFor(/^Reelhouse is running/)
      base = (/http:\/\/127\.0\.0\.1:\d+/.exec(await server.waitFor(/^api: /)) as RegExpExecArray)[0]
      metrics = (/http:\/\/\S+\/metrics/.exec(await server.waitFor(/^metrics: /)) as RegExpExecArray)[0]
      admin = JSON.parse(readFileSync(join(dataDir, 'admin-credentials.json'), 'utf8')) as Admin
    })
    after(async () => {
      await server?.stop('SIGKILL')
      await proxy?.close()
      rmSync(dataDir, { recursive: true, force: true })
    })

    const get = async (): Promise<Response> => await fetch(base + signedPath({ apiKey: admin.api_key, secret: admin.secret, method: 'GET', path: '/v2/labels' }), { headers: { 'x-forwarded-proto': 'https' } })
    const logs = (): Array<Record<string, any>> => server.stdout.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, any>)

    it(`${mode === 'refuse' ? 'refuses with 503' : 'serves uncounted'} while Redis is away, logs the outage once and its end once, and counts refusals`, async () => {
      for (let i = 0; i < 5; i++) assert.equal((await get()).status, 200)
      proxy.cut()
      for (let i = 0; i < DURING_OUTAGE; i++) {
        const res = await get()
        if (mode === 'serve') {
          assert.equal(res.status, 200, await res.text())
          continue
        }
        assert.equal(res.status, 503)
        assert.equal(res.headers.get('retry-after'), '5')
        const body = await res.json() as Record<string, unknown>
        assert.equal(body.code, 'dependency_unavailable')
        assert.equal(body.request_id, res.headers.get('x-request-id'))
      }
      const refused = metricValue(await (await fetch(metrics)).text(), 'reelhouse_redis_refusals_total')
      assert.equal(refused, mode === 'refuse' ? DURING_OUTAGE : 0)

      proxy.restore()
      // ioredis reconnects with a growing backoff: ask until a request is counted again (bounded).
      for (let attempt = 0; attempt < 100 && !logs().some((entry) => /reachable again/.test(entry.msg)); attempt++) {
        await get()
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      assert.equal((await get()).status, 200)

      const entries = logs()
      assert.deepEqual(entries.filter((entry) => entry.level >= 50).map((entry) => entry.msg), [], 'no error line during the outage')
      assert.equal(entries.filter((entry) => /credits store \(Redis\) unreachable/.test(entry.msg)).length, 1)
      assert.equal(entries.filter((entry) => /credits store \(Redis\) reachable again/.test(entry.msg)).length, 1)
      assert.ok(!entries.some((entry) => typeof entry.err?.stack === 'string' && entry.level >= 50), 'no stack per refused request')
    })
  })
}
