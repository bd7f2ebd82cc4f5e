import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { MediaJobRef } from '../../../src/media/asset-state/index.ts'
import { buildApp } from '../../../src/app/build-app.ts'
import { buildTestApp, injectSigned, type TestApp } from '../../support/app.ts'
import { databaseBackends } from '../../support/backends.ts'

/** A fixed `expires` years ahead: the cached variant keys its answers on the URL. */
const FAR = Math.floor(Date.UTC(2031, 0, 1) / 1000)

async function outboxOf (t: TestApp): Promise<string[]> {
  const rows = await t.ctx.db.selectFrom('outbox').select(['type', 'id']).where('account_id', '=', t.admin.accountId).execute()
  return rows.map((row) => `${row.type} ${row.id}`)
}

async function updatedAt (t: TestApp, id: string): Promise<string> {
  return (await t.ctx.db.selectFrom('assets').select('updated_at').where('id', '=', id).executeTakeFirstOrThrow()).updated_at
}

// A progress tick is one write on the media version's own row (docs/media.md, "State"): no account lock, no
// outbox entry, no new updated_at; the cached answers that show the progress are purged all the same.
for (const backend of databaseBackends()) {
  describe(`a media progress tick (${backend.name})`, { skip: backend.skip }, () => {
    it('changes neither updated_at nor the outbox, and purges the cached answer that shows the progress', async () => {
      const t = await buildTestApp(backend.name, { CREDITS_ENABLED: 'false' })
      // The cached variant over the same context: the API writes, the cached endpoint answers GETs.
      const cdn = await buildApp(t.ctx, { variant: 'cdn', logger: false })
      try {
        const created = await t.signed('POST', '/v2/assets', { body: { asset_type: 'video', name: 'Clip', file_name: 'clip.mp4', file_size: 10 } })
        assert.equal(created.statusCode, 200, created.body)
        const id = created.json().embed_code as string
        const job: MediaJobRef = { accountId: t.admin.accountId, assetId: id, jobId: 'job-1', kind: 'ingest', originalKey: 'originals/u1' }
        const media = t.ctx.services.assetMedia
        assert.ok(await media.begin(job, 'v1') !== null)

        const get = async (): Promise<{ cache: unknown, progress: unknown }> => {
          const answer = await injectSigned(cdn, t.admin, 'GET', `/v2/assets/${id}`, { expires: FAR })
          assert.equal(answer.statusCode, 200, answer.body)
          return { cache: answer.headers['x-cache'], progress: answer.json().processing_progress }
        }
        assert.deepEqual(await get(), { cache: 'MISS', progress: 0 })
        assert.deepEqual(await get(), { cache: 'HIT', progress: 0 })
        await t.ctx.db.deleteFrom('outbox').execute()
        const before = await updatedAt(t, id)
        t.clock.advance(5_000)

        assert.equal(await media.saveProgress(job, 'v1', [], 40), true)
        assert.deepEqual(await outboxOf(t), [], 'no outbox entry: the search document does not show progress')
        assert.equal(await updatedAt(t, id), before, 'updated_at stays')
        assert.deepEqual(await get(), { cache: 'MISS', progress: 40 }, 'the cached answer was purged')
        const streams = await t.signed('GET', `/v2/assets/${id}/streams`)
        assert.deepEqual(streams.json(), { items: [], processing: null }, 'no media job was queued for it')

        // A state change still moves updated_at and re-indexes the asset.
        assert.ok(await media.publish(job, 'v1', { durationMs: 1000, hasPreview: false }) !== null)
        assert.deepEqual(await outboxOf(t), [`asset ${id}`])
        assert.notEqual(await updatedAt(t, id), before)
        assert.deepEqual(await get(), { cache: 'MISS', progress: 40 })
      } finally {
        await cdn.close()
        await t.close()
      }
    })

    it('writes nothing for a version a newer attempt discarded', async () => {
      const t = await buildTestApp(backend.name, { CREDITS_ENABLED: 'false' })
      try {
        const created = await t.signed('POST', '/v2/assets', { body: { asset_type: 'video', name: 'Clip', file_name: 'clip.mp4', file_size: 10 } })
        const id = created.json().embed_code as string
        const job: MediaJobRef = { accountId: t.admin.accountId, assetId: id, jobId: 'job-1', kind: 'ingest', originalKey: 'originals/u1' }
        const media = t.ctx.services.assetMedia
        await media.begin(job, 'v1')
        await media.begin({ ...job, jobId: 'job-2' }, 'v2')
        assert.equal(await media.saveProgress(job, 'v1', [], 60), false)
        assert.equal(await media.saveProgress({ ...job, jobId: 'job-2' }, 'v2', [], 20), true)
        assert.equal((await t.signed('GET', `/v2/assets/${id}`)).json().processing_progress, 20)
      } finally { await t.close() }
    })
  })
}
