import assert from 'node:assert/strict'
import { createHash, randomBytes } from 'node:crypto'
import { openAsBlob } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { after, before, describe, it } from 'node:test'
import { ReelhouseError, type Reelhouse, type UploadProgress } from 'reelhouse/client'
import { databaseBackends } from '../support/backends.ts'
import { freePort, startClientServer, type ClientServer } from './support/client-server.ts'

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex')

for (const backend of databaseBackends()) {
  describe(`the client's uploads against a real server on ${backend.name}`, { skip: backend.skip }, () => {
    let server: ClientServer
    let client: Reelhouse
    let dir: string
    before(async () => {
      const port = await freePort()
      server = await startClientServer(backend.name, { PUBLIC_API_URL: `http://127.0.0.1:${port}` }, { apiPort: port })
      client = server.client()
      dir = await mkdtemp(join(tmpdir(), 'reelhouse-client-upload-'))
    })
    after(async () => {
      await server?.close()
      if (dir !== undefined) await rm(dir, { recursive: true, force: true })
    })

    /** The original the server joined for the asset's ingest job. */
    async function original (id: string): Promise<Buffer> {
      const job = await server.ctx.db.selectFrom('media_jobs').selectAll().where('asset_id', '=', id).where('kind', '=', 'ingest').executeTakeFirstOrThrow()
      const object = await server.ctx.services.mediaStore.get(job.original_key)
      const parts: Buffer[] = []
      for await (const part of object.body) parts.push(part as Buffer)
      return Buffer.concat(parts)
    }

    it('uploads a file-backed Blob in parallel chunks, reporting progress, and completes it', async () => {
      const bytes = randomBytes(300_000)
      const file = join(dir, 'clip.mp4')
      await writeFile(file, bytes)
      const progress: UploadProgress[] = []
      const asset = await client.assets.upload(await openAsBlob(file), { name: 'Clip', fileName: 'clip.mp4', chunkSize: 64 * 1024, concurrency: 3, onProgress: (p) => progress.push(p) })
      assert.equal(asset.status, 'processing')
      assert.equal(asset.original_file_name, 'clip.mp4')
      assert.equal(asset.file_size, 300_000)
      assert.equal(sha256(await original(asset.embed_code)), sha256(bytes))
      assert.deepEqual(progress.at(-1), { sentBytes: 300_000, totalBytes: 300_000, chunksDone: 5, chunkCount: 5 })
      assert.deepEqual(progress.map((p) => p.chunksDone), [0, 1, 2, 3, 4, 5])
    })

    it('uploads a stream of known size', async () => {
      const bytes = randomBytes(100_001)
      const stream = Readable.from([bytes.subarray(0, 7), bytes.subarray(7, 50_000), bytes.subarray(50_000)])
      const asset = await client.assets.upload({ stream, size: bytes.length }, { name: 'Streamed', fileName: 's.mp4', chunkSize: 30_000 })
      assert.equal(sha256(await original(asset.embed_code)), sha256(bytes))
    })

    it('resumes an interrupted upload: only the chunks the server lacks are sent', async () => {
      const bytes = randomBytes(50_000)
      const blob = new Blob([bytes])
      let id: string | undefined
      const stop = new AbortController()
      // The first run is stopped once the asset exists and two chunks have arrived.
      await assert.rejects(client.assets.upload(blob, {
        name: 'Interrupted', fileName: 'i.mp4', chunkSize: 10_000, concurrency: 1, signal: stop.signal,
        onAsset: (asset) => { id = asset.embed_code },
        onProgress: (p) => { if (p.chunksDone === 2) stop.abort() }
      }))
      assert.ok(id !== undefined)
      const chunksBefore = await server.ctx.db.selectFrom('media_upload_chunks').innerJoin('media_uploads', 'media_uploads.id', 'media_upload_chunks.upload_id')
        .select('chunk_index').where('media_uploads.asset_id', '=', id).where('media_upload_chunks.state', '=', 'good').execute()
      const progress: UploadProgress[] = []
      const asset = await client.assets.upload(blob, { assetId: id, chunkSize: 10_000, onProgress: (p) => progress.push(p) })
      assert.equal(asset.status, 'processing')
      assert.equal(sha256(await original(id)), sha256(bytes))
      assert.ok(chunksBefore.length >= 2)
      assert.equal(progress[0]?.chunksDone, chunksBefore.length, 'the chunks already there count as done from the start')
    })

    it('waits until processed, and says why when processing failed', async () => {
      const asset = await client.assets.upload(new Blob([randomBytes(10)]), { name: 'W', fileName: 'w.mp4' })
      const polls: string[] = []
      const waiting = client.assets.waitUntilProcessed(asset.embed_code, { interval: 20, onPoll: (a) => { polls.push(a.status) } })
      // What a worker does once done; here by hand, since this test runs no worker.
      await server.ctx.db.updateTable('assets').set({ status: 'live' }).where('id', '=', asset.embed_code).execute()
      assert.equal((await waiting).status, 'live')
      assert.equal(polls.at(-1), 'live')

      const failing = await client.assets.upload(new Blob([randomBytes(10)]), { name: 'F', fileName: 'f.mp4' })
      await server.ctx.db.updateTable('assets').set({ status: 'error' }).where('id', '=', failing.embed_code).execute()
      await assert.rejects(client.assets.waitUntilProcessed(failing.embed_code, { interval: 20 }), (error: unknown) =>
        error instanceof ReelhouseError && error.message.startsWith(`Processing of asset ${failing.embed_code} failed`))
    })

    it('replaces the media of a live asset and reads the source file info', async () => {
      const asset = await client.assets.upload(new Blob([randomBytes(10)]), { name: 'R', fileName: 'r.mp4' })
      await server.ctx.db.updateTable('assets').set({ status: 'live' }).where('id', '=', asset.embed_code).execute()
      await client.assets.uploads.replaceMedia(asset.embed_code, new Blob([randomBytes(25_000)]), { fileName: 'r2.mp4', chunkSize: 10_000 })
      const jobs = await server.ctx.db.selectFrom('media_jobs').select('kind').where('asset_id', '=', asset.embed_code).execute()
      assert.deepEqual(jobs.map((job) => job.kind).sort(), ['ingest', 'replacement'])
      assert.equal((await client.assets.get(asset.embed_code)).status, 'live')
      assert.deepEqual(await client.assets.uploads.sourceFileInfo(asset.embed_code), { original_file_name: 'r.mp4', source_file_url: null, file_size: 10 })
    })
  })
}
