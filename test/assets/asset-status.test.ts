import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { databaseBackends } from '../support/backends.ts'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { ASSET_TABLES, createAsset, remoteAsset, snapshotTables, videoAsset } from './support/assets.ts'

const refused = (from: string, to: string): string => `The asset is ${from}; its status cannot change to ${to} (clients may only switch between live and paused).`

// docs/resources.md, "Status": uploading → processing → live | paused, error when processing fails; clients switch live ↔ paused only.
for (const backend of databaseBackends()) {
  describe(`asset status transitions on ${backend.name}`, { skip: backend.skip }, () => {
    let t: TestApp
    before(async () => { t = await buildTestApp(backend.name) })
    after(async () => { await t.close() })

    const setStatus = async (embedCode: string, status: string): Promise<void> => {
      // What the upload worker (a later issue) does: the API offers clients no way to get there.
      await t.ctx.db.updateTable('assets').set({ status }).where('id', '=', embedCode).execute()
    }
    const patch = async (embedCode: string, status: string) => await t.signed('PATCH', `/v2/assets/${embedCode}`, { body: { status } })

    it('switches a live asset to paused and back', async () => {
      const asset = await remoteAsset(t)
      assert.equal((await patch(asset.embed_code, 'paused')).json().status, 'paused')
      assert.equal((await t.signed('GET', `/v2/assets/${asset.embed_code}`)).json().status, 'paused')
      assert.equal((await patch(asset.embed_code, 'live')).json().status, 'live')
    })

    it('creates live-at-once types paused when asked', async () => {
      for (const type of ['remote_asset', 'live_stream', 'channel']) {
        assert.equal((await createAsset(t, { asset_type: type, name: type, status: 'paused' })).status, 'paused')
      }
    })

    it('accepts the current status as a no-op, whatever it is', async () => {
      const video = await videoAsset(t)
      const res = await patch(video.embed_code, 'uploading')
      assert.equal(res.statusCode, 200, res.body)
      assert.equal(res.json().status, 'uploading')
    })

    const table: Array<[from: string, to: string]> = [
      ['uploading', 'live'], ['uploading', 'paused'], ['uploading', 'processing'],
      ['processing', 'live'], ['processing', 'paused'], ['processing', 'error'],
      ['error', 'live'], ['error', 'paused'], ['error', 'uploading'],
      ['live', 'processing'], ['live', 'uploading'], ['live', 'error'],
      ['paused', 'processing'], ['paused', 'error'], ['paused', 'uploading']
    ]
    for (const [from, to] of table) {
      it(`answers 409 naming the status to ${from} → ${to}, and writes nothing`, async () => {
        const asset = await videoAsset(t)
        await setStatus(asset.embed_code, from)
        const beforeRows = await snapshotTables(t.ctx, ASSET_TABLES)
        const res = await patch(asset.embed_code, to)
        assert.equal(res.statusCode, 409)
        assert.equal(res.json().message, refused(from, to))
        assert.equal(res.json().code, 'asset_status_conflict')
        assert.equal(await snapshotTables(t.ctx, ASSET_TABLES), beforeRows)
      })
    }

    it('applies the same rule to PUT and keeps the status when PUT does not name one', async () => {
      const video = await videoAsset(t)
      const kept = await t.signed('PUT', `/v2/assets/${video.embed_code}`, { body: { name: 'renamed' } })
      assert.equal(kept.json().status, 'uploading')
      const refusedPut = await t.signed('PUT', `/v2/assets/${video.embed_code}`, { body: { name: 'renamed', status: 'live' } })
      assert.equal(refusedPut.statusCode, 409)
      assert.equal(refusedPut.json().message, refused('uploading', 'live'))
      await setStatus(video.embed_code, 'live')
      assert.equal((await t.signed('PUT', `/v2/assets/${video.embed_code}`, { body: { name: 'renamed', status: 'paused' } })).json().status, 'paused')
    })

    it('keeps post_processing_status, the status an upload will end in, apart from status', async () => {
      const video = await videoAsset(t, { post_processing_status: 'paused' })
      assert.equal(video.status, 'uploading')
      assert.equal(video.post_processing_status, 'paused')
      assert.equal((await t.signed('PATCH', `/v2/assets/${video.embed_code}`, { body: { post_processing_status: 'live' } })).json().post_processing_status, 'live')
    })
  })
}
