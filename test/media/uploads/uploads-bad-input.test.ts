import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TestApp } from '../../support/app.ts'
import { itAnswersEachRow, type BadInputRow } from '../../support/bad-input.ts'
import { databaseBackends } from '../../support/backends.ts'
import { snapshotTables } from '../../support/snapshot.ts'
import { chunkUrls, createUpload, putChunk, setUploadStatus, storeCases, uploadApp } from './support.ts'

const TABLES = ['assets', 'media_uploads', 'media_upload_chunks', 'media_jobs', 'outbox']
const INVALID = 'The chunk URL\'s signature does not match it: use the URLs of uploading_urls as given.'

/** A chunk URL changed by `edit`: path and query as an unsigned PUT sends them. */
function edited (url: string, edit: (u: URL) => void): string {
  const parsed = new URL(url)
  edit(parsed)
  return parsed.href
}

for (const backend of databaseBackends()) {
  describe(`upload bad input on ${backend.name}`, { skip: backend.skip }, () => {
    let t: TestApp
    let uploading: string
    let urls: string[]
    let remote: string
    let processing: string
    let closedUrl: string
    before(async () => {
      t = await uploadApp(backend.name, 'file')
      uploading = await createUpload(t, 2500, 1000)
      urls = await chunkUrls(t, uploading)
      remote = (await t.signed('POST', '/v2/assets', { body: { asset_type: 'remote_asset', name: 'R', stream_urls: { iphone: 'https://cdn.example.com/a.m3u8' } } })).json().embed_code
      processing = await createUpload(t, 5)
      closedUrl = (await chunkUrls(t, processing))[0] as string
      await putChunk(t, closedUrl, Buffer.alloc(5))
      await setUploadStatus(t, processing, { status: 'uploaded' })
    })
    after(async () => { await t?.close() })

    const chunkRows: Array<{ name: string, url: () => string, body: Buffer, status: number, message: string | (() => string), code: string }> = [
      { name: 'a chunk URL whose index was changed', url: () => (urls[1] as string).replace('chunk-000001', 'chunk-000002'), body: Buffer.alloc(1000), status: 403, code: 'chunk_url_invalid', message: INVALID },
      { name: 'a chunk index beyond the upload', url: () => (urls[2] as string).replace('chunk-000002', 'chunk-000009'), body: Buffer.alloc(500), status: 403, code: 'chunk_url_invalid', message: INVALID },
      { name: 'a chunk URL whose range was changed', url: () => edited(urls[0] as string, (u) => { u.searchParams.set('range', '0-1999') }), body: Buffer.alloc(2000), status: 403, code: 'chunk_url_invalid', message: INVALID },
      { name: 'a chunk URL whose expiry was pushed back', url: () => edited(urls[0] as string, (u) => { u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 3600)) }), body: Buffer.alloc(1000), status: 403, code: 'chunk_url_invalid', message: INVALID },
      { name: 'a chunk URL with a forged signature', url: () => edited(urls[0] as string, (u) => { u.searchParams.set('signature', '0'.repeat(64)) }), body: Buffer.alloc(1000), status: 403, code: 'chunk_url_invalid', message: INVALID },
      { name: 'a chunk URL of another asset', url: () => (urls[0] as string).replace(uploading, processing), body: Buffer.alloc(1000), status: 403, code: 'chunk_url_invalid', message: INVALID },
      { name: 'a chunk URL without its signature', url: () => edited(urls[0] as string, (u) => { u.searchParams.delete('signature') }), body: Buffer.alloc(1000), status: 403, code: 'chunk_url_invalid', message: 'This is not a chunk URL: use the URLs of uploading_urls as given.' },
      { name: 'a chunk PUT to an upload already complete', url: () => closedUrl, body: Buffer.alloc(5), status: 409, code: 'upload_closed', message: 'The upload of this chunk URL is complete; it takes no more chunks.' }
    ]
    for (const row of chunkRows) {
      it(`answers ${row.status} to ${row.name}, writing nothing`, async () => {
        const url = row.url()
        const beforeRows = await snapshotTables(t.ctx, TABLES)
        const res = await putChunk(t, url, row.body)
        assert.equal(res.statusCode, row.status, res.body)
        assert.equal(res.json().code, row.code)
        assert.equal(res.json().message, typeof row.message === 'function' ? row.message() : row.message)
        assert.equal(res.headers['access-control-allow-origin'], '*', 'a browser can read the refusal')
        assert.equal(await snapshotTables(t.ctx, TABLES), beforeRows)
      })
    }

    it('answers 403 to an expired chunk URL, writing nothing', async () => {
      const beforeRows = await snapshotTables(t.ctx, TABLES)
      t.clock.advance(25 * 3600_000)
      try {
        const res = await putChunk(t, urls[0] as string, Buffer.alloc(1000))
        assert.equal(res.statusCode, 403)
        assert.equal(res.json().code, 'chunk_url_expired')
        assert.equal(res.json().message, 'The chunk URL has expired: ask for uploading_urls again (chunks already received stay).')
      } finally {
        t.clock.advance(-25 * 3600_000)
      }
      assert.equal(await snapshotTables(t.ctx, TABLES), beforeRows)
    })

    it('answers 400 to a short chunk and records it as bad, storing nothing', async () => {
      const res = await putChunk(t, urls[1] as string, Buffer.alloc(999))
      assert.equal(res.statusCode, 400)
      assert.equal(res.json().message, 'Chunk chunk-000001 covers bytes 1000-1999 (1000 bytes) but its body had 999; it is recorded as bad: send it again.')
      assert.deepEqual(res.json().bad_chunks, ['chunk-000001'])
      const status = await setUploadStatus(t, uploading, { status: 'uploaded' })
      assert.deepEqual([status.statusCode, status.json().missing_chunks, status.json().bad_chunks], [400, ['chunk-000000', 'chunk-000002'], ['chunk-000001']])
    })

    it('answers 400 to an oversized chunk and closes the connection rather than read it', async () => {
      const res = await putChunk(t, urls[2] as string, Buffer.alloc(501))
      assert.equal(res.statusCode, 400)
      assert.equal(res.json().message, 'Chunk chunk-000002 covers bytes 2000-2499 (500 bytes) but its body had more; it is recorded as bad: send it again.')
      assert.equal(res.headers.connection, 'close')
    })

    it('answers 400 naming every missing chunk when none was sent', async () => {
      const id = await createUpload(t, 30, 10)
      const res = await setUploadStatus(t, id, { status: 'uploaded' })
      assert.equal(res.statusCode, 400)
      assert.equal(res.json().message, 'The upload is incomplete: 3 missing chunk(s); send them again.')
      assert.deepEqual([res.json().missing_chunks, res.json().bad_chunks], [['chunk-000000', 'chunk-000001', 'chunk-000002'], []])
    })

    const rows: BadInputRow[] = [
      { name: 'upload_status on a remote asset', method: 'PUT', path: () => `/v2/assets/${remote}/upload_status`, body: { status: 'uploaded' }, status: 409, message: () => `Asset ${remote} is a remote_asset; only video, audio and ad assets have uploaded media.` },
      { name: 'uploading_urls of a remote asset', method: 'GET', path: () => `/v2/assets/${remote}/uploading_urls`, status: 409, message: () => `Asset ${remote} is a remote_asset; only video, audio and ad assets have uploaded media.` },
      { name: 'uploading_urls of an asset already processing', method: 'GET', path: () => `/v2/assets/${processing}/uploading_urls`, status: 409, message: 'The asset is processing; it is not waiting for an upload (replace its media with /replacement).' },
      { name: 'replacement/uploading_urls without a replacement', method: 'GET', path: () => `/v2/assets/${processing}/replacement/uploading_urls`, status: 409, message: () => `Asset ${processing} has no replacement in progress: start one with POST /v2/assets/${processing}/replacement.` },
      { name: 'a replacement of an asset still processing', method: 'POST', path: () => `/v2/assets/${processing}/replacement`, body: { file_name: 'b.mp4', file_size: 10 }, status: 409, message: 'Content cannot be replaced since the asset\'s status is processing.' },
      { name: 'upload_status with another asset_id', method: 'PUT', path: () => `/v2/assets/${uploading}/upload_status`, body: () => ({ status: 'uploaded', asset_id: remote }), status: 400, message: () => `Field asset_id: ${remote} is not the asset of the path (${uploading}).` },
      { name: 'uploading_urls with another asset_id', method: 'GET', path: () => `/v2/assets/${uploading}/uploading_urls?asset_id=${remote}`, status: 400, message: () => `Field asset_id: ${remote} is not the asset of the path (${uploading}).` },
      { name: 'upload_status with an unknown status', method: 'PUT', path: () => `/v2/assets/${uploading}/upload_status`, body: { status: 'done' }, status: 400, message: 'Field status must be one of uploaded, failed.' },
      { name: 'process with an unknown profile', method: 'POST', path: () => `/v2/assets/${uploading}/process`, body: { initiation_type: 'original_ingest', processing_profile_id: 'fast' }, status: 400, message: 'Field processing_profile_id: there is no processing profile fast (the one profile is "default").' },
      { name: 'process of an asset already processing', method: 'POST', path: () => `/v2/assets/${processing}/process`, body: { initiation_type: 'original_ingest' }, status: 409, message: 'The asset is processing; only an uploading asset or one whose processing failed can be processed.' },
      { name: 'a video with file_size "abc"', method: 'POST', path: () => '/v2/assets', body: { asset_type: 'video', name: 'x', file_name: 'a.mp4', file_size: 'abc' }, status: 400, message: 'Field file_size must be an integer.' },
      { name: 'a video with file_size "12.5"', method: 'POST', path: () => '/v2/assets', body: { asset_type: 'video', name: 'x', file_name: 'a.mp4', file_size: '12.5' }, status: 400, message: 'Field file_size must be an integer.' },
      { name: 'a video with chunk_size "0"', method: 'POST', path: () => '/v2/assets', body: { asset_type: 'video', name: 'x', file_name: 'a.mp4', file_size: '10', chunk_size: '0' }, status: 400, message: 'Field chunk_size must be a positive integer.' },
      { name: 'a video in more than 100,000 chunks', method: 'POST', path: () => '/v2/assets', body: { asset_type: 'video', name: 'x', file_name: 'a.mp4', file_size: 1e9, chunk_size: 1 }, status: 400, message: 'Field chunk_size is too small: the file would need more than 100000 chunks.' },
      { name: 'a video with duration and preview_image_url', method: 'POST', path: () => '/v2/assets', body: { asset_type: 'video', name: 'x', file_name: 'a.mp4', file_size: 10, duration: 5, preview_image_url: 'https://x.example/a.jpg' }, status: 400, message: 'Fields duration, preview_image_url are set by processing on video assets and cannot be sent.' },
      { name: 'a PATCH of an audio asset\'s stream_urls', method: 'PATCH', path: () => `/v2/assets/${uploading}`, body: { stream_urls: { iphone: 'https://x.example/a.m3u8' } }, status: 400, message: 'Field stream_urls is set by processing on video assets and cannot be sent.' },
      { name: 'a video asked to become processing', method: 'PATCH', path: () => `/v2/assets/${uploading}`, body: { status: 'processing' }, status: 409, message: 'The asset is uploading; its status cannot change to processing (clients may only switch between live and paused).' }
    ]
    itAnswersEachRow(() => t, rows, TABLES)
  })
}

for (const store of storeCases()) {
  describe(`a chunk larger than the JSON body limit on the ${store.name} store`, { skip: store.skip }, () => {
    it('streams a 3 MiB chunk to the store', async () => {
      const t = await uploadApp('sqlite', store.name)
      try {
        const size = 3 * 1024 * 1024
        const id = await createUpload(t, size)
        const [url] = await chunkUrls(t, id)
        const res = await putChunk(t, url as string, Buffer.alloc(size, 1))
        assert.deepEqual([res.statusCode, res.json()], [200, { chunk: 'chunk-000000', size }])
      } finally { await t.close() }
    })
  })
}
