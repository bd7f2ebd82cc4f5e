import assert from 'node:assert/strict'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { locateMediaTools } from '../../../src/media/processing/index.ts'
import { assetPrefix } from '../../../src/media/store/index.ts'
import { startMediaWorker } from '../../../src/media/worker/index.ts'
import { createAssetsRepository } from '../../../src/resources/assets/assets-repository.ts'
import { buildTestApp, type TestApp } from '../../support/app.ts'
import { databaseBackends } from '../../support/backends.ts'

async function keysUnder (t: TestApp, prefix: string): Promise<string[]> {
  const keys: string[] = []
  for await (const object of t.ctx.services.mediaStore.list(prefix)) keys.push(object.key)
  return keys
}

async function videoWithMedia (t: TestApp, name: string): Promise<{ id: string, prefix: string }> {
  const created = await t.signed('POST', '/v2/assets', { body: { asset_type: 'video', name, file_name: 'clip.mp4', file_size: 10 } })
  const id = created.json().embed_code as string
  const prefix = assetPrefix(t.admin.accountId, id)
  await t.ctx.services.mediaStore.put(`${prefix}media/v1/master.m3u8`, Buffer.from('#EXTM3U\n'))
  await t.ctx.services.mediaStore.put(`${prefix}originals/u1`, Buffer.alloc(10, 1))
  return { id, prefix }
}

async function removedAt (t: TestApp, id: string): Promise<string | null> {
  const row = await t.ctx.db.selectFrom('deleted_assets').select('media_removed_at').where('id', '=', id).executeTakeFirstOrThrow()
  return row.media_removed_at
}

for (const backend of databaseBackends()) {
  describe(`removing a deleted asset's media on ${backend.name}`, { skip: backend.skip }, () => {
    it('removes it when the asset is deleted, and records that it did', async () => {
      const t = await buildTestApp(backend.name)
      try {
        const { id, prefix } = await videoWithMedia(t, 'Deleted through the API')
        assert.equal((await t.signed('DELETE', `/v2/assets/${id}`)).statusCode, 200)
        assert.deepEqual(await keysUnder(t, prefix), [])
        assert.notEqual(await removedAt(t, id), null)
      } finally { await t.close() }
    })

    it('leaves the media of an asset whose deleting process died to the media worker, which removes it', async () => {
      const t = await buildTestApp(backend.name)
      const workDir = mkdtempSync(join(tmpdir(), 'reelhouse-sweep-'))
      try {
        const { id, prefix } = await videoWithMedia(t, 'Deleted by a process that then died')
        // What a deletion commits; the process dies before it removes the files.
        const assets = createAssetsRepository(t.ctx.db)
        const row = await assets.findByRef(t.admin.accountId, id, undefined)
        assert.ok(row !== undefined)
        await t.ctx.db.transaction().execute(async (trx) => { await assets.delete(t.admin.accountId, row, '2026-11-20T10:00:00.000Z', trx) })
        assert.equal(await removedAt(t, id), null)
        assert.equal((await keysUnder(t, prefix)).length, 2)

        const worker = await startMediaWorker({
          database: t.ctx.database, store: t.ctx.services.mediaStore, tools: await locateMediaTools({ env: process.env }), assets: t.ctx.services.assetMedia, workDir
        }, { pollMs: 20 })
        try {
          const deadline = Date.now() + 20_000
          while (await removedAt(t, id) === null) {
            assert.ok(Date.now() < deadline, 'the worker removed the media')
            await new Promise((resolve) => setTimeout(resolve, 50))
          }
          assert.deepEqual(await keysUnder(t, prefix), [])
          assert.equal(worker.metrics.removedDeleted, 1)
        } finally { await worker.stop() }
      } finally { await t.close() }
    })
  })
}
