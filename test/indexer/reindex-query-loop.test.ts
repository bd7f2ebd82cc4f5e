import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { TEST_MASTER_KEY } from '../support/app.ts'
import { reindexDuringQueryLoop } from './support/query-loop.ts'

// `reelhouse reindex` while searches run back to back: every answer is the complete one, before,
// during and after (docs/search-and-indexing.md, "Rebuilding without an outage"). The search store is
// the embedded default (FTS5); the queue is the embedded one, then RabbitMQ. 2,000 assets keep it
// inside the test budget on a shared machine; bench/reindex-query-loop.ts runs the 20,000 of the
// docs (TEST_REINDEX_LOOP_ASSETS sets the count here too).
const ASSETS = Number(process.env.TEST_REINDEX_LOOP_ASSETS ?? 2_000)
const AMQP_URL = process.env.TEST_AMQP_URL
const MANAGEMENT_URL = process.env.TEST_RABBITMQ_MANAGEMENT_URL

async function withDataDir<T> (run: (dataDir: string) => Promise<T>): Promise<T> {
  const dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-reindex-loop-'))
  try {
    return await run(dataDir)
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

describe('a reindex during a query loop', () => {
  it(`answers every search completely while ${ASSETS} assets are rebuilt, embedded queue`, async (t) => {
    const result = await withDataDir(async (dataDir) => await reindexDuringQueryLoop({ REELHOUSE_DATA_DIR: dataDir, REELHOUSE_MASTER_KEY: TEST_MASTER_KEY }, ASSETS))
    t.diagnostic(JSON.stringify(result))
    assert.ok(result.searchesDuringBuild > 0, 'searches ran while the new index was being built')
  })

  it(`answers every search completely while ${ASSETS} assets are rebuilt, RabbitMQ queue`, {
    skip: AMQP_URL === undefined || MANAGEMENT_URL === undefined ? 'TEST_AMQP_URL and TEST_RABBITMQ_MANAGEMENT_URL are not set' : false
  }, async (t) => {
    // A virtual host of its own: the queue's name is fixed, and other tests may use the broker's `/`.
    const vhost = `reelhouse-loop-${randomBytes(4).toString('hex')}`
    const management = new URL(MANAGEMENT_URL as string)
    const auth = `Basic ${Buffer.from(`${decodeURIComponent(management.username)}:${decodeURIComponent(management.password)}`).toString('base64')}`
    const api = async (method: string, path: string, body?: unknown): Promise<void> => {
      const answer = await fetch(new URL(path, management.origin), { method, headers: { authorization: auth, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
      assert.ok(answer.ok, `${method} ${path}: ${answer.status}`)
    }
    const amqp = new URL(AMQP_URL as string)
    await api('PUT', `/api/vhosts/${vhost}`)
    try {
      await api('PUT', `/api/permissions/${vhost}/${amqp.username}`, { configure: '.*', write: '.*', read: '.*' })
      amqp.pathname = `/${vhost}`
      const result = await withDataDir(async (dataDir) => await reindexDuringQueryLoop({
        REELHOUSE_DATA_DIR: dataDir, REELHOUSE_MASTER_KEY: TEST_MASTER_KEY, AMQP_URL: amqp.toString(), RABBITMQ_MANAGEMENT_URL: MANAGEMENT_URL as string
      }, ASSETS))
      t.diagnostic(JSON.stringify(result))
      assert.ok(result.searchesDuringBuild > 0, 'searches ran while the new index was being built')
    } finally {
      await api('DELETE', `/api/vhosts/${vhost}`)
    }
  })
})
