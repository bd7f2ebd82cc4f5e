import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { mediaSkip, makeScratchDir, removeScratchDir } from '../../support/media-fixtures.ts'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../../src/app/build-app.ts'
import { createContext, type AppContext } from '../../../src/app/context.ts'
import { loadConfig } from '../../../src/config/index.ts'
import { finished, startStack, type Stack } from '../e2e/support.ts'
import { dropBucket, uniqueBucketUrl } from '../../support/rgw.ts'
import { storeCases } from '../uploads/support.ts'
import { noisyMp4, sha256, startTus } from './support.ts'

/**
 * A direct upload over tus, cut at about half and resumed by a new client holding only `upload_url`,
 * on the other api of one deployment (two apps over one data directory): the original's bytes are the
 * file's, and the asset goes live; on the file store, and on S3 (Ceph RGW) when TEST_S3_URL is set.
 * BENCH_TUS_MB makes the file larger (50 for the size); the default keeps the suite quick.
 */
const SIZE = Number(process.env.BENCH_TUS_MB ?? 8) * 1024 * 1024

for (const store of storeCases()) {
  describe(`a tus direct upload resumed from another client on another api (${store.name} store)`, { skip: mediaSkip !== false ? mediaSkip : store.skip }, () => {
    let first: Stack
    let second: { ctx: AppContext, app: FastifyInstance, api: string }
    let dir: string
    let bucket: string | undefined
    before(async () => {
      bucket = store.name === 's3' ? uniqueBucketUrl() : undefined
      first = await startStack(['api', 'worker'], bucket === undefined ? {} : { MEDIA_STORE_URL: bucket })
      // The second api: its own context (database connection, media store) over the same data directory.
      const ctx = await createContext(loadConfig(first.env))
      const app = await buildApp(ctx, { variant: 'api', logger: false })
      await app.listen({ host: '127.0.0.1', port: 0 })
      second = { ctx, app, api: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` }
      dir = await makeScratchDir()
    })
    after(async () => {
      await second?.app.close()
      await second?.ctx.close()
      await first?.close()
      await removeScratchDir(dir)
      if (bucket !== undefined) await dropBucket(bucket)
    })

    it('keeps the bytes that arrived, continues from the offset elsewhere, and the asset goes live', async () => {
      const bytes = await noisyMp4(join(dir, 'clip.mp4'), SIZE)
      const created = await first.call('POST', '/v2/direct_uploads', { new_asset_settings: { name: 'Over tus', metadata: { origin: 'test' } } })
      assert.equal(created.status, 200, JSON.stringify(created.json))
      assert.deepEqual([created.json.status, created.json.upload_url, created.json.asset_id], ['waiting', null, null])

      const chunkSize = 1024 * 1024
      let cutAt = 0
      const run = startTus(first.api, bytes, {
        endpoint: created.json.url,
        chunkSize,
        onHalf: (upload) => { void upload.abort() }
      })
      // The first client is cut off at about half: its promise never settles, so look at the direct upload.
      let state: any
      for (;;) {
        state = (await first.call('GET', `/v2/direct_uploads/${created.json.id as string}`)).json
        if (state.upload_offset >= bytes.length / 2) break
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      cutAt = state.upload_offset as number
      assert.ok(cutAt < bytes.length, 'the first client stopped before the end')
      void run.done.catch(() => {})
      assert.match(state.upload_url, /^https:\/\/media\.reelhouse\.test\/v2\/tus\//)

      const resumed = startTus(second.api, bytes, { uploadUrl: state.upload_url, chunkSize })
      await resumed.done
      const last = (await first.call('GET', `/v2/direct_uploads/${created.json.id as string}`)).json
      assert.equal(last.status, 'asset_created', JSON.stringify(last))
      assert.equal(last.upload_offset, bytes.length)

      const asset = await finished(first, last.asset_id as string)
      assert.equal(asset.status, 'live', JSON.stringify(asset))
      assert.equal(asset.file_size, bytes.length)
      const info = await first.call('GET', `/v2/assets/${last.asset_id as string}/source_file_info`)
      const original = await fetch(first.api + new URL(info.json.source_file_url as string).pathname, { headers: { 'x-forwarded-proto': 'https' } })
      const stored = Buffer.from(await original.arrayBuffer())
      assert.equal(sha256(stored), sha256(bytes))
      const metadata = await first.call('GET', `/v2/assets/${last.asset_id as string}/metadata`)
      assert.deepEqual(metadata.json, { origin: 'test' })
    })
  })
}
