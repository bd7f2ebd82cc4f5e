import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { assetPrefix } from '../../../src/media/store/index.ts'
import type { TestApp } from '../../support/app.ts'
import { databaseBackends } from '../../support/backends.ts'
import {
  chunkUrls, createUpload, fileOf, putChunk, PUBLIC_API_URL, setUploadStatus, sha256, sliceOf, storeCases, storedBytes, storedKeys, uploadApp
} from './support.ts'

for (const backend of databaseBackends()) {
  for (const store of storeCases()) {
    describe(`the upload protocol on ${backend.name} with the ${store.name} store`, { skip: backend.skip || store.skip }, () => {
      let t: TestApp
      before(async () => { t = await uploadApp(backend.name, store.name) })
      after(async () => { await t?.close() })

      it('gives absolute chunk URLs from PUBLIC_API_URL, each holding its chunk name and no other', async () => {
        const id = await createUpload(t, 250_000, 100_000)
        const res = await t.signed('GET', `/v2/assets/${id}/uploading_urls`, { headers: { host: 'attacker.example' } })
        assert.equal(res.statusCode, 200)
        const urls = res.json() as string[]
        assert.equal(urls.length, 3)
        for (const url of urls) assert.ok(url.startsWith(`${PUBLIC_API_URL}/v2/assets/${id}/uploads/`), url)
        for (const name of ['chunk-000000', 'chunk-000001', 'chunk-000002']) {
          assert.equal(urls.filter((url) => url.includes(name)).length, 1, name)
        }
        assert.deepEqual(urls.map((url) => new URL(url).searchParams.get('range')), ['0-99999', '100000-199999', '200000-249999'])
      })

      it('takes chunks PUT in parallel with any Content-Type, joins them, and moves the asset to processing with one job', async () => {
        const chunkSize = 64 * 1024
        const file = fileOf(5 * chunkSize + 1234)
        const id = await createUpload(t, file.length, chunkSize)
        const urls = await chunkUrls(t, id)
        const credits = async (): Promise<number> => (await t.signed('GET', '/v2/remaining_credits_and_reset_time')).json().remaining_credits
        const creditsBefore = await credits()
        const types = ['application/octet-stream', 'video/mp4', 'text/plain', 'application/x-www-form-urlencoded', 'application/json', '']
        const answers = await Promise.all(urls.map(async (url, index) => await putChunk(t, url, sliceOf(file, chunkSize, index), types[index] === '' ? {} : { 'content-type': types[index] as string })))
        for (const res of answers) assert.equal(res.statusCode, 200, res.body)
        assert.equal(answers[0]?.headers['access-control-allow-origin'], '*')
        assert.equal(await credits(), creditsBefore, 'chunk PUTs cost no credits')

        const done = await setUploadStatus(t, id, { status: 'uploaded', asset_id: id })
        assert.equal(done.statusCode, 200, done.body)
        assert.deepEqual(done.json(), { status: 'uploaded' })
        const asset = (await t.signed('GET', `/v2/assets/${id}`)).json()
        assert.equal(asset.status, 'processing')

        const jobs = await t.ctx.db.selectFrom('media_jobs').selectAll().where('asset_id', '=', id).execute()
        assert.equal(jobs.length, 1)
        assert.equal(jobs[0]?.kind, 'ingest')
        assert.equal(jobs[0]?.state, 'pending')
        const originalKey = jobs[0]?.original_key as string
        assert.ok(originalKey.startsWith(assetPrefix(t.admin.accountId, id)))
        assert.equal(sha256(await storedBytes(t, originalKey)), sha256(file))
        assert.deepEqual(await storedKeys(t, `${assetPrefix(t.admin.accountId, id)}uploads/`), [], 'the chunks are removed once joined')

        const again = await setUploadStatus(t, id, { status: 'uploaded' })
        assert.equal(again.statusCode, 200, 'a repeated completion answers as the first did')
        assert.equal((await t.ctx.db.selectFrom('media_jobs').selectAll().where('asset_id', '=', id).execute()).length, 1)
      })

      it('one chunk when chunk_size is absent', async () => {
        const file = fileOf(3000)
        const id = await createUpload(t, file.length)
        const urls = await chunkUrls(t, id)
        assert.equal(urls.length, 1)
        assert.equal((await putChunk(t, urls[0] as string, file)).statusCode, 200)
        assert.equal((await setUploadStatus(t, id, { status: 'uploaded' })).statusCode, 200)
      })

      it('resumes: fresh URLs later continue the same upload, and the 400 names only what is still missing', async () => {
        const chunkSize = 1000
        const file = fileOf(4500)
        const id = await createUpload(t, file.length, chunkSize)
        const first = await chunkUrls(t, id)
        for (const index of [0, 2]) assert.equal((await putChunk(t, first[index] as string, sliceOf(file, chunkSize, index))).statusCode, 200)
        const short = await putChunk(t, first[3] as string, sliceOf(file, chunkSize, 3).subarray(1))
        assert.equal(short.statusCode, 400)

        const incomplete = await setUploadStatus(t, id, { status: 'uploaded' })
        assert.equal(incomplete.statusCode, 400)
        const body = incomplete.json()
        assert.equal(body.code, 'upload_incomplete')
        assert.deepEqual(body.missing_chunks, ['chunk-000001', 'chunk-000004'])
        assert.deepEqual(body.bad_chunks, ['chunk-000003'])
        for (const name of [...body.missing_chunks, ...body.bad_chunks]) assert.equal(first.filter((url) => url.includes(name)).length, 1)
        assert.equal((await t.signed('GET', `/v2/assets/${id}`)).json().status, 'uploading', 'an incomplete upload changes nothing')

        // Later, elsewhere: new URLs (a new expiry), only the outstanding chunks sent.
        t.clock.advance(3600_000)
        const second = await chunkUrls(t, id)
        assert.notDeepEqual(second, first)
        assert.equal(new URL(second[0] as string).pathname, new URL(first[0] as string).pathname, 'the same upload')
        for (const index of [1, 3]) assert.equal((await putChunk(t, second[index] as string, sliceOf(file, chunkSize, index))).statusCode, 200)
        const still = await setUploadStatus(t, id, { status: 'uploaded' })
        assert.equal(still.statusCode, 400)
        assert.deepEqual([still.json().missing_chunks, still.json().bad_chunks], [['chunk-000004'], []])
        assert.equal((await putChunk(t, second[4] as string, sliceOf(file, chunkSize, 4))).statusCode, 200)
        assert.equal((await setUploadStatus(t, id, { status: 'uploaded' })).statusCode, 200)
        const job = await t.ctx.db.selectFrom('media_jobs').selectAll().where('asset_id', '=', id).executeTakeFirstOrThrow()
        assert.equal(sha256(await storedBytes(t, job.original_key)), sha256(file))
      })

      it('lets a chunk be sent again: the last complete one wins', async () => {
        const file = fileOf(2000)
        const id = await createUpload(t, file.length, 1000)
        const urls = await chunkUrls(t, id)
        assert.equal((await putChunk(t, urls[0] as string, Buffer.alloc(1000, 7))).statusCode, 200)
        assert.equal((await putChunk(t, urls[0] as string, sliceOf(file, 1000, 0))).statusCode, 200)
        assert.equal((await putChunk(t, urls[1] as string, Buffer.alloc(5))).statusCode, 400)
        assert.equal((await putChunk(t, urls[1] as string, sliceOf(file, 1000, 1))).statusCode, 200)
        assert.equal((await setUploadStatus(t, id, { status: 'uploaded' })).statusCode, 200)
        const job = await t.ctx.db.selectFrom('media_jobs').selectAll().where('asset_id', '=', id).executeTakeFirstOrThrow()
        assert.equal(sha256(await storedBytes(t, job.original_key)), sha256(file))
      })

      it('abandons with status failed: chunks removed, the old URLs closed, a later upload starts afresh', async () => {
        const id = await createUpload(t, 2000, 1000)
        const urls = await chunkUrls(t, id)
        assert.equal((await putChunk(t, urls[0] as string, Buffer.alloc(1000))).statusCode, 200)
        const res = await setUploadStatus(t, id, { status: 'failed' })
        assert.deepEqual([res.statusCode, res.json()], [200, { status: 'failed' }])
        assert.deepEqual(await storedKeys(t, `${assetPrefix(t.admin.accountId, id)}uploads/`), [])
        const late = await putChunk(t, urls[1] as string, Buffer.alloc(1000))
        assert.deepEqual([late.statusCode, late.json().code], [409, 'upload_closed'])
        assert.equal((await t.signed('GET', `/v2/assets/${id}`)).json().status, 'uploading')
        const fresh = await chunkUrls(t, id)
        assert.notEqual(new URL(fresh[0] as string).pathname, new URL(urls[0] as string).pathname)
        const status = await setUploadStatus(t, id, { status: 'uploaded' })
        assert.deepEqual(status.json().missing_chunks, ['chunk-000000', 'chunk-000001'])
      })

      it('answers the CORS preflight of a chunk URL for any origin', async () => {
        const id = await createUpload(t, 10)
        const [url] = await chunkUrls(t, id)
        const parsed = new URL(url as string)
        const res = await t.app.inject({
          method: 'OPTIONS',
          url: parsed.pathname + parsed.search,
          headers: { origin: 'https://uploader.example.org', 'access-control-request-method': 'PUT', 'access-control-request-headers': 'content-type,x-requested-with' }
        })
        assert.equal(res.statusCode, 204)
        assert.equal(res.headers['access-control-allow-origin'], '*')
        assert.match(String(res.headers['access-control-allow-methods']), /PUT/)
        assert.equal(res.headers['access-control-allow-headers'], 'content-type,x-requested-with')
      })

      it('starts processing with POST process original_ingest, profile default', async () => {
        const id = await createUpload(t, 10)
        const [url] = await chunkUrls(t, id)
        assert.equal((await putChunk(t, url as string, Buffer.alloc(10))).statusCode, 200)
        const res = await t.signed('POST', `/v2/assets/${id}/process`, { body: { initiation_type: 'original_ingest', processing_profile_id: 'default' } })
        assert.deepEqual([res.statusCode, res.json()], [200, { status: 'processing' }])
        assert.equal((await t.signed('GET', `/v2/assets/${id}`)).json().status, 'processing')
        const profiles = await t.signed('GET', '/v2/processing_profiles')
        assert.deepEqual(profiles.json().items.map((p: { id: string }) => p.id), ['default'])
      })

      it('answers a repeated POST process with the same Idempotency-Key as the first, processing once', async () => {
        const id = await createUpload(t, 10)
        const [url] = await chunkUrls(t, id)
        assert.equal((await putChunk(t, url as string, Buffer.alloc(10))).statusCode, 200)
        const body = { initiation_type: 'original_ingest' }
        const first = await t.signed('POST', `/v2/assets/${id}/process`, { body, headers: { 'idempotency-key': `process-${id}` } })
        assert.deepEqual([first.statusCode, first.json()], [200, { status: 'processing' }])
        const again = await t.signed('POST', `/v2/assets/${id}/process`, { body, headers: { 'idempotency-key': `process-${id}` } })
        assert.deepEqual([again.statusCode, again.json()], [200, { status: 'processing' }])
        assert.equal((await t.ctx.db.selectFrom('media_jobs').selectAll().where('asset_id', '=', id).execute()).length, 1)
      })

      it('answers source_file_info from the upload', async () => {
        const id = await createUpload(t, 10)
        const res = await t.signed('GET', `/v2/assets/${id}/source_file_info`)
        assert.deepEqual(res.json(), { original_file_name: 'clip.mp4', source_file_url: null, file_size: 10 })
      })

      it('replaces the media of a live asset, which stays live meanwhile', async () => {
        const id = await createUpload(t, 10)
        const [url] = await chunkUrls(t, id)
        await putChunk(t, url as string, Buffer.alloc(10))
        await setUploadStatus(t, id, { status: 'uploaded' })
        // What processing does when done; here by hand, since no worker runs in this test.
        await t.ctx.db.updateTable('assets').set({ status: 'live' }).where('id', '=', id).execute()

        const start = await t.signed('POST', `/v2/assets/${id}/replacement`, { body: { file_name: 'v2.mp4', file_size: '2500', chunk_size: '1000' } })
        assert.deepEqual([start.statusCode, start.json()], [200, { status: 'uploading', file_name: 'v2.mp4', file_size: 2500, chunk_size: 1000 }])
        const twice = await t.signed('POST', `/v2/assets/${id}/replacement`, { body: { file_name: 'v3.mp4', file_size: 5 } })
        assert.deepEqual([twice.statusCode, twice.json().message], [409, 'The asset is already being replaced. The replacement status is uploading.'])
        const file = fileOf(2500)
        const urls = await chunkUrls(t, id, 'replacement/')
        assert.equal(urls.length, 3)
        await Promise.all(urls.map(async (u, index) => { assert.equal((await putChunk(t, u, sliceOf(file, 1000, index))).statusCode, 200) }))
        const done = await setUploadStatus(t, id, { status: 'uploaded' }, 'replacement/')
        assert.deepEqual([done.statusCode, done.json()], [200, { status: 'uploaded' }])
        assert.equal((await t.signed('GET', `/v2/assets/${id}`)).json().status, 'live')
        const jobs = await t.ctx.db.selectFrom('media_jobs').selectAll().where('asset_id', '=', id).orderBy('created_at').execute()
        assert.deepEqual(jobs.map((job) => job.kind).sort(), ['ingest', 'replacement'])
        const replacement = jobs.find((job) => job.kind === 'replacement')
        assert.equal(sha256(await storedBytes(t, replacement?.original_key as string)), sha256(file))
      })

      it('lets upload_only users upload only the assets they created', async () => {
        const uploader = await t.userWithRole('upload_only')
        const own = await createUpload(t, 10, undefined, uploader)
        assert.equal((await chunkUrls(t, own, '', uploader)).length, 1)
        const other = await createUpload(t, 10)
        const res = await t.signed('GET', `/v2/assets/${other}/uploading_urls`, { as: uploader })
        assert.equal(res.statusCode, 404)
        const status = await setUploadStatus(t, other, { status: 'uploaded' }, '', uploader)
        assert.equal(status.statusCode, 404)
      })
    })
  }
}
