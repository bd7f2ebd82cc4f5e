import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { loadConfig } from '../../src/config/index.ts'
import { metricValue } from '../../src/ops/metrics/index.ts'
import { serve } from '../../src/server/serve.ts'
import { TEST_MASTER_KEY } from '../support/app.ts'

async function withServer (roles: Parameters<typeof serve>[1], extra: Record<string, string>, fn: (server: Awaited<ReturnType<typeof serve>>) => Promise<void>): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-metrics-'))
  const config = loadConfig({ REELHOUSE_DATA_DIR: dataDir, REELHOUSE_MASTER_KEY: TEST_MASTER_KEY, HOST: '127.0.0.1', API_PORT: '0', CDN_PORT: '0', INDEXER_PORT: '0', TRUST_PROXY: 'true', LOG_LEVEL: 'silent', ...extra })
  const server = await serve(config, roles, () => {})
  try { await fn(server) } finally {
    await server.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

const portOf = (server: Awaited<ReturnType<typeof serve>>, name: 'metrics' | 'indexer'): number => (server.apps[name]?.server.address() as AddressInfo).port

describe('GET /metrics of each process (METRICS_PORT)', () => {
  it('a worker-only process reports its own memory and its index counters on METRICS_PORT, bound to loopback', async () => {
    await withServer(['worker'], { METRICS_PORT: '0' }, async (server) => {
      const address = server.apps.metrics?.server.address() as AddressInfo
      assert.equal(address.address, '127.0.0.1')
      const res = await fetch(`http://127.0.0.1:${portOf(server, 'metrics')}/metrics`)
      assert.equal(res.status, 200)
      assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/)
      const text = await res.text()
      assert.ok((metricValue(text, 'process_resident_memory_bytes') ?? 0) > 1_000_000, text)
      assert.equal(metricValue(text, 'reelhouse_index_entries_processed_total'), 0)
    })
  })

  it('a module registered on the context shows on both METRICS_PORT and the indexer port', async () => {
    await withServer(['indexer'], { METRICS_PORT: '0' }, async (server) => {
      let refusals = 0
      server.ctx.metrics.register('probe', () => [{ name: 'reelhouse_test_refusals_total', help: 'test', kind: 'counter', samples: [{ labels: {}, value: refusals }] }])
      refusals = 3
      for (const port of [portOf(server, 'metrics'), portOf(server, 'indexer')]) {
        const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()
        assert.equal(metricValue(text, 'reelhouse_test_refusals_total'), 3, `port ${port}`)
        assert.ok(metricValue(text, 'nodejs_heap_used_bytes') !== undefined)
      }
    })
  })

  it('the api process reports the embedded analytics store\'s memory, the read cache\'s and the response cache\'s bytes, the prepared statements; a worker-only one has no analytics store', async () => {
    await withServer(['api'], { METRICS_PORT: '0' }, async (server) => {
      const text = await (await fetch(`http://127.0.0.1:${portOf(server, 'metrics')}/metrics`)).text()
      // An empty store holds nothing yet; the gauge is there from the start.
      assert.equal(metricValue(text, 'reelhouse_analytics_store_memory_bytes'), 0, text)
      assert.ok(metricValue(text, 'reelhouse_read_cache_bytes') !== undefined)
      // The in-process response cache (no Redis here) reports what it holds, empty at start.
      assert.equal(metricValue(text, 'reelhouse_response_cache_bytes'), 0, text)
      assert.equal(metricValue(text, 'reelhouse_response_cache_entries'), 0, text)
      // The embedded database has prepared its start-up statements (migrations, the bus), within its bound.
      const statements = metricValue(text, 'reelhouse_sqlite_prepared_statements')
      assert.ok(statements !== undefined && statements > 0 && statements <= 1000, text)
    })
    await withServer(['worker'], { METRICS_PORT: '0' }, async (server) => {
      const text = await (await fetch(`http://127.0.0.1:${portOf(server, 'metrics')}/metrics`)).text()
      assert.equal(metricValue(text, 'reelhouse_analytics_store_memory_bytes'), undefined)
    })
  })

  it('without METRICS_PORT no metrics listener is opened', async () => {
    await withServer(['worker'], {}, async (server) => {
      assert.equal(server.apps.metrics, undefined)
    })
  })

  it('a bad METRICS_PORT stops the start with the variable named', () => {
    assert.throws(() => loadConfig({ METRICS_PORT: 'ninety' }), /METRICS_PORT/)
  })
})
