import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import SQLite from 'better-sqlite3'
import type { FastifyInstance } from 'fastify'
import { buildIndexerApp, IndexMetrics, queueReindex } from '../../src/indexer/index.ts'
import { searchDatabasePath } from '../../src/search/index.ts'
import { INDEX_QUEUE } from '../../src/outbox/index.ts'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { insertAsset, insertAssets, insertLabel, outboxRows } from './support/seed.ts'
import { indexNow } from './support/index-now.ts'

const QUEUE_URL = `/api/queues/%2F/${INDEX_QUEUE}`

describe('the indexing service', () => {
  let t: TestApp
  let indexer: FastifyInstance
  const open = async (env: Record<string, string> = {}): Promise<void> => {
    t = await buildTestApp('sqlite', env)
    indexer = await buildIndexerApp({ ...t.ctx, store: t.ctx.search, metrics: new IndexMetrics() }, { config: t.config, logger: false })
  }
  const post = async (payload: unknown, headers: Record<string, string> = {}) =>
    await indexer.inject({ method: 'POST', url: '/api/reindex', payload: JSON.stringify(payload), headers: { 'content-type': 'application/json', ...headers } })
  afterEach(async () => {
    await indexer.close()
    await t.close()
  })

  describe('open on loopback (the default)', () => {
    beforeEach(async () => { await open() })

    it('queues every resource of every account for {} and one account\'s for {"accountId"}, answering 202 {queued}', async () => {
      const other = await t.otherAccount()
      await insertAssets(t.ctx.db, t.admin.accountId, 3)
      await insertLabel(t.ctx.db, t.admin.accountId, 'News', undefined, false)
      await insertAssets(t.ctx.db, other.accountId, 2)
      const all = await post({})
      assert.equal(all.statusCode, 202)
      assert.deepEqual(all.json(), { queued: 6 })
      await indexNow(t.ctx)
      const one = await post({ accountId: other.accountId })
      assert.deepEqual([one.statusCode, one.json()], [202, { queued: 2 }])
      assert.deepEqual(new Set((await outboxRows(t.ctx.db)).map((row) => row.account_id)), new Set([other.accountId]))
    })

    it('reads ids page by page (keyset), so no account is held in memory', async () => {
      await insertAssets(t.ctx.db, t.admin.accountId, 10)
      assert.equal(await queueReindex({ db: t.ctx.db, dialect: 'sqlite' }, t.admin.accountId, 3), 10)
      assert.equal((await outboxRows(t.ctx.db)).length, 10)
    })

    it('answers 404 for an unknown account and 400 for a body that is not the documented object', async () => {
      const unknown = await post({ accountId: 'no-such-account' })
      assert.equal(unknown.statusCode, 404)
      assert.deepEqual([unknown.json().code, unknown.json().message], ['account_not_found', 'Account no-such-account does not exist.'])
      const extra = await post({ account: 'x' })
      assert.deepEqual([extra.statusCode, extra.json().message], [400, 'Unknown fields: account. Did you mean accountId?'])
      const wrong = await post({ accountId: 7 })
      assert.deepEqual([wrong.statusCode, wrong.json().message], [400, 'Field accountId must be a string.'])
    })

    it('says what is wrong with a body sent without a JSON Content-Type, or empty under one', async () => {
      const untyped = await indexer.inject({ method: 'POST', url: '/api/reindex', payload: '{}' })
      assert.deepEqual([untyped.statusCode, untyped.json().code, untyped.json().message],
        [400, 'body_malformed', 'Request body must be JSON sent with Content-Type: application/json; this request had no Content-Type.'])
      const form = await indexer.inject({ method: 'POST', url: '/api/reindex', payload: '{}', headers: { 'content-type': 'application/x-www-form-urlencoded' } })
      assert.equal(form.json().message, 'Request body must be JSON sent with Content-Type: application/json; this request had Content-Type application/x-www-form-urlencoded.')
      const empty = await indexer.inject({ method: 'POST', url: '/api/reindex', payload: '', headers: { 'content-type': 'application/json' } })
      assert.deepEqual([empty.statusCode, empty.json().message], [400, 'Request body is empty though its Content-Type is application/json: send {} for no fields.'])
      assert.equal((await post({})).statusCode, 202)
    })

    it('links every error to its entry in the main service\'s error reference, absolute', async () => {
      const res = await indexer.inject({ method: 'POST', url: '/api/reindex', payload: '{}' })
      assert.equal(res.json().type, `${t.config.publicApiUrl}/docs/errors#body_malformed`)
    })

    it('answers the pending count like RabbitMQ\'s management API, and 404 like it for another queue', async () => {
      await insertAsset(t.ctx.db, t.admin.accountId)
      await insertAsset(t.ctx.db, t.admin.accountId)
      const res = await indexer.inject({ method: 'GET', url: QUEUE_URL })
      assert.equal(res.statusCode, 200)
      const body = res.json()
      assert.deepEqual({ name: body.name, vhost: body.vhost, messages: body.messages, ready: body.messages_ready, unacked: body.messages_unacknowledged }, { name: INDEX_QUEUE, vhost: '/', messages: 2, ready: 2, unacked: 0 })
      await indexNow(t.ctx)
      assert.equal((await indexer.inject({ method: 'GET', url: QUEUE_URL })).json().messages, 0)
      const other = await indexer.inject({ method: 'GET', url: '/api/queues/%2F/some.other.queue' })
      assert.deepEqual([other.statusCode, other.json()], [404, { error: 'Object Not Found', reason: 'Not Found' }])
    })

    it('serves Prometheus text with queue depth, documents indexed, index writes, lag and failures', async () => {
      await insertAsset(t.ctx.db, t.admin.accountId)
      const res = await indexer.inject({ method: 'GET', url: '/metrics' })
      assert.match(res.headers['content-type'] as string, /^text\/plain; version=0\.0\.4/)
      for (const line of ['reelhouse_index_queue_depth 1', 'reelhouse_index_writes_total 0', 'reelhouse_index_documents_indexed_total{type="asset"} 0',
        'reelhouse_index_failures_total{type="asset"} 0', 'reelhouse_index_parked 0', '# TYPE reelhouse_index_lag_seconds gauge', '# TYPE reelhouse_index_oldest_entry_age_seconds gauge']) {
        assert.ok(res.body.split('\n').some((l) => l.startsWith(line)), `missing ${line}`)
      }
    })

    it('says "reindex required" in /ready (its own and the API\'s) when an index has another mapping version', async () => {
      await insertAsset(t.ctx.db, t.admin.accountId)
      await indexNow(t.ctx)
      assert.equal((await indexer.inject({ method: 'GET', url: '/ready' })).statusCode, 200)
      const file = new SQLite(searchDatabasePath(t.config))
      file.prepare('UPDATE search_index_versions SET mapping_version = 0').run()
      file.close()
      // A fresh service: the readiness answer is cached for 30 s.
      const fresh = await buildIndexerApp({ ...t.ctx, store: t.ctx.search, metrics: new IndexMetrics() }, { config: t.config, logger: false })
      const ready = await fresh.inject({ method: 'GET', url: '/ready' })
      await fresh.close()
      // Still serving, but degraded: an outdated mapping does not take the service out of rotation.
      assert.equal(ready.statusCode, 200)
      assert.equal(ready.json().status, 'degraded')
      assert.match(ready.json().checks.search, new RegExp(`^reindex required: flex-account-${t.admin.accountId} \\(mapping 0\\)`))
      const apiReady = await t.app.inject({ method: 'GET', url: '/ready' })
      assert.match(apiReady.json().checks.search, /^reindex required: /)
    })
  })

  describe('with INDEXER_USER and INDEXER_PASSWORD', () => {
    beforeEach(async () => { await open({ INDEXER_USER: 'ops', INDEXER_PASSWORD: 's3cret' }) })
    const basic = (pair: string): Record<string, string> => ({ authorization: `Basic ${Buffer.from(pair).toString('base64')}` })

    it('requires basic auth on every route but /health', async () => {
      for (const request of [() => post({}), () => indexer.inject({ method: 'GET', url: QUEUE_URL }), () => indexer.inject({ method: 'GET', url: '/metrics' })]) {
        const res = await request()
        assert.equal(res.statusCode, 401)
        assert.equal(res.headers['www-authenticate'], 'Basic realm="reelhouse-indexer", charset="UTF-8"')
        assert.equal(res.json().code, 'indexer_unauthorized')
      }
      assert.equal((await post({}, basic('ops:wrong'))).statusCode, 401)
      assert.equal((await post({}, basic('ops:s3cret'))).statusCode, 202)
      assert.equal((await indexer.inject({ method: 'GET', url: QUEUE_URL, headers: basic('ops:s3cret') })).statusCode, 200)
      assert.equal((await indexer.inject({ method: 'GET', url: '/health' })).statusCode, 200)
    })
  })

  describe('with AMQP_URL naming a virtual host', () => {
    beforeEach(async () => { await open({ AMQP_URL: 'amqp://127.0.0.1:1/media' }) })

    it('answers for the index queue of that virtual host, not of /', async () => {
      const inVhost = await indexer.inject({ method: 'GET', url: `/api/queues/media/${INDEX_QUEUE}` })
      assert.equal(inVhost.statusCode, 404)
      assert.match(inVhost.json().reason, /RABBITMQ_MANAGEMENT_URL/)
      const inRoot = await indexer.inject({ method: 'GET', url: QUEUE_URL })
      assert.deepEqual([inRoot.statusCode, inRoot.json()], [404, { error: 'Object Not Found', reason: 'Not Found' }])
    })
  })

  describe('with AMQP_URL', () => {
    beforeEach(async () => { await open({ AMQP_URL: 'amqp://127.0.0.1:1' }) })

    it('sends the pending count to RabbitMQ\'s management API and shows what the relay has not published', async () => {
      await insertAsset(t.ctx.db, t.admin.accountId)
      const res = await indexer.inject({ method: 'GET', url: QUEUE_URL })
      assert.equal(res.statusCode, 404)
      assert.match(res.json().reason, /RABBITMQ_MANAGEMENT_URL/)
      const outbox = (await indexer.inject({ method: 'GET', url: '/api/outbox' })).json()
      assert.deepEqual({ queue: outbox.queue, entries: outbox.entries, unpublished: outbox.unpublished }, { queue: 'rabbitmq', entries: 1, unpublished: 1 })
    })
  })
})
