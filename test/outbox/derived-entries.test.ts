import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { withAccountLock } from '../../src/db/account-lock.ts'
import type { ChangeRecord, Invalidation } from '../../src/db/index.ts'
import { crudRepository } from '../../src/resources/kit/crud-repository.ts'
import { createVia, remoteAsset } from '../assets/support/assets.ts'
import { indexNow } from '../indexer/support/index-now.ts'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { databaseBackends } from '../support/backends.ts'

// A write records the rows it changes; the account-lock transaction derives the outbox entries from them
// (docs/architecture.md, "A write, all the way to the search index"). No service names an entry.
for (const backend of databaseBackends()) {
  describe(`outbox entries derived from what a write changes (${backend.name})`, { skip: backend.skip }, () => {
    let t: TestApp
    beforeEach(async () => { t = await buildTestApp(backend.name, { CREDITS_ENABLED: 'false' }) })
    afterEach(async () => { await t.close() })

    /** The entries queued since the last call, as `type id`, sorted; the outbox is emptied. */
    const queued = async (): Promise<string[]> => {
      const rows = await t.ctx.db.selectFrom('outbox').select(['type', 'id']).where('account_id', '=', t.admin.accountId).execute()
      await t.ctx.db.deleteFrom('outbox').execute()
      return rows.map((row) => `${row.type} ${row.id}`).sort()
    }
    const ok = async (method: string, path: string, body?: object, params?: Record<string, string>): Promise<void> => {
      const answer = await t.signed(method, path, { body, params })
      assert.ok(answer.statusCode < 300, `${method} ${path}: ${answer.statusCode} ${answer.body}`)
    }

    it('queues the documents every resource write touches, and nothing for a write that touches none', async () => {
      const asset = await remoteAsset(t, { name: 'Harbour' })
      const id = asset.embed_code
      assert.deepEqual(await queued(), [`asset ${id}`], 'POST an asset')
      const news = await createVia(t, '/v2/labels', { name: 'News' })
      const sports = await createVia(t, '/v2/labels', { name: 'Sports', parent_id: news.id })
      assert.deepEqual(await queued(), [`label ${news.id}`, `label ${sports.id}`].sort(), 'POST two labels')
      const first = await createVia(t, '/v2/players', { name: 'First', is_default: true })
      const feed = await createVia(t, '/v2/syndications', { name: 'Feed', type: 'roku' })
      assert.deepEqual(await queued(), [`player ${first.id}`, `syndication ${feed.id}`].sort(), 'POST a player and a syndication')
      const rule = await createVia(t, '/v2/publishing_rules', { name: 'Rule' })
      assert.deepEqual(await queued(), [], 'publishing rules have no search document')

      const cases: Array<[string, () => Promise<void>, string[]]> = [
        ['PATCH an asset', async () => { await ok('PATCH', `/v2/assets/${id}`, { name: 'Harbour at dawn' }) }, [`asset ${id}`]],
        ['PUT an asset\'s metadata', async () => { await ok('PUT', `/v2/assets/${id}/metadata`, { camera: 'x100' }) }, [`asset ${id}`]],
        ['label an asset', async () => { await ok('PUT', `/v2/assets/${id}/labels/${sports.id}`) }, [`asset ${id}`]],
        ['give an asset a publishing rule', async () => { await ok('PUT', `/v2/assets/${id}/publishing_rule/${rule.id}`) }, [`asset ${id}`]],
        ['rename a label: it, the labels under it and their assets', async () => { await ok('PATCH', `/v2/labels/${news.id}`, { name: 'Headlines' }) },
          [`asset ${id}`, `label ${news.id}`, `label ${sports.id}`].sort()],
        ['write a label with its own name: the label alone', async () => { await ok('PATCH', `/v2/labels/${news.id}`, { name: 'Headlines' }) }, [`label ${news.id}`]],
        ['PATCH a syndication', async () => { await ok('PATCH', `/v2/syndications/${feed.id}`, { name: 'TV feed' }) }, [`syndication ${feed.id}`]],
        ['PATCH a publishing rule', async () => { await ok('PATCH', `/v2/publishing_rules/${rule.id}`, { name: 'Rule 2' }) }, []],
        ['delete a label tree: the labels and the assets that lose one', async () => { await ok('DELETE', `/v2/labels/${news.id}`, undefined, { recursive: 'true' }) },
          [`asset ${id}`, `label ${news.id}`, `label ${sports.id}`].sort()],
        ['delete a player', async () => { await ok('DELETE', `/v2/players/${first.id}`) }, [`player ${first.id}`]],
        ['delete a syndication', async () => { await ok('DELETE', `/v2/syndications/${feed.id}`) }, [`syndication ${feed.id}`]],
        ['delete an asset: its document and its transcripts', async () => { await ok('DELETE', `/v2/assets/${id}`) }, [`asset ${id}`, `transcript ${id}`]]
      ]
      for (const [name, write, expected] of cases) {
        await write()
        assert.deepEqual(await queued(), expected, name)
        if (name === 'PATCH a syndication') {
          const second = await createVia(t, '/v2/players', { name: 'Second', is_default: true })
          assert.deepEqual(await queued(), [`player ${first.id}`, `player ${second.id}`].sort(), 'a new default player: it and the one that loses the flag')
        }
      }
    })

    it('reaches the index from a kit write that names no entry', async () => {
      const players = crudRepository(t.ctx.db, 'players')
      const now = new Date(t.clock.now()).toISOString()
      const columns = await playerColumns(t)
      await withAccountLock(t.ctx.database, t.admin.accountId, async (trx) => {
        await players.insert(t.admin.accountId, { ...columns, id: 'p-kit', name: 'Through the kit', is_default: 0, metadata: '{}', created_at: now, updated_at: now }, trx)
      })
      assert.deepEqual(await queued(), ['player p-kit'])
      // Requeue (queued() emptied the outbox) and index: the document is there.
      await withAccountLock(t.ctx.database, t.admin.accountId, async (trx) => {
        await players.update(t.admin.accountId, 'p-kit', { name: 'Still through the kit' }, trx)
      })
      assert.equal(await indexNow(t.ctx), 1)
      assert.equal((await t.ctx.search.get(t.admin.accountId, 'player', 'p-kit'))?.fields.name, 'Still through the kit')
    })

    it('hands the transaction\'s effects exact change records, with an asset\'s status before and after', async () => {
      const seen: ChangeRecord[] = []
      const derive = t.ctx.database.effects
      t.ctx.database.effects = async (trx, accountId, records) => { seen.push(...records); await derive?.(trx, accountId, records) }
      const asset = await remoteAsset(t, { name: 'Lake' })
      await ok('PATCH', `/v2/assets/${asset.embed_code}`, { status: 'paused' })
      await ok('DELETE', `/v2/assets/${asset.embed_code}`)
      const ofAsset = seen.filter((record) => record.table === 'assets')
      assert.deepEqual(ofAsset.map(({ operation, status }) => ({ operation, status })), [
        { operation: 'insert', status: { before: null, after: 'live' } },
        { operation: 'update', status: { before: 'live', after: 'paused' } },
        { operation: 'delete', status: { before: 'paused', after: null } }
      ])
      assert.ok(ofAsset[1]?.columns?.includes('status'))
    })

    it('gives the outbox every id of a large write while the bus message names the whole table', async () => {
      const heard: Invalidation[] = []
      const writes = t.ctx.database.writes
      assert.ok(writes !== undefined)
      t.ctx.database.writes = { inTransaction: writes.inTransaction, committed: async (change) => { heard.push(change); await writes.committed(change) } }
      const labels = crudRepository(t.ctx.db, 'labels')
      const now = new Date(t.clock.now()).toISOString()
      const ids = Array.from({ length: 100 }, (_, i) => `l-${String(i).padStart(3, '0')}`)
      await withAccountLock(t.ctx.database, t.admin.accountId, async (trx) => {
        for (const id of ids) await labels.insert(t.admin.accountId, { id, name: id, parent_id: null, full_name: `/${id}`, created_at: now, updated_at: now }, trx)
      })
      assert.deepEqual(await queued(), ids.map((id) => `label ${id}`))
      assert.deepEqual(heard.at(-1)?.tables.labels, ['*'])
    })
  })
}

/** The columns a players row needs besides the ones the test names (the table's defaults as the service writes them). */
async function playerColumns (t: TestApp) {
  const created = await createVia(t, '/v2/players', { name: 'Template' })
  const row = await t.ctx.db.selectFrom('players').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow()
  await t.ctx.db.deleteFrom('outbox').execute()
  await t.ctx.db.deleteFrom('players').where('id', '=', created.id).execute()
  const { id: _id, account_id: _account, name: _name, is_default: _default, metadata: _metadata, created_at: _created, updated_at: _updated, ...rest } = row
  return rest
}
