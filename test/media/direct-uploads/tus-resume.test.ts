import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import pg from 'pg'
import { signedPath } from '../../../src/signing/index.ts'
import { TEST_MASTER_KEY } from '../../support/app.ts'
import { startCli, type CliProcess } from '../../support/cli.ts'
import { mediaSkip } from '../../support/media-fixtures.ts'
import { dropBucket, s3Skip, uniqueBucketUrl } from '../../support/rgw.ts'
import { paddedMp4, sha256, startTus } from './support.ts'

/**
 * A direct upload over tus between two real `reelhouse serve` processes of one deployment: started on
 * the first, cut at about half, its offset answered by the second (HEAD), then finished there by a new
 * client holding only `upload_url`. The stored original is the file, byte for byte, and the asset goes
 * live, carrying the warning of a label dropped from its settings because it was deleted meanwhile. On the embedded default (SQLite and the file store of one data directory), on PostgreSQL with
 * the file store, and on PostgreSQL with S3 (Ceph RGW, when TEST_S3_URL is set).
 * BENCH_TUS_MB changes the size (50 MB by default).
 */
const SIZE = Number(process.env.BENCH_TUS_MB ?? 50) * 1024 * 1024
const CHUNK = 4 * 1024 * 1024
const PUBLIC_API_URL = 'https://media.reelhouse.test'
const HEADERS = { 'x-forwarded-proto': 'https' }
const noPg = process.env.TEST_DATABASE_URL ? false : 'TEST_DATABASE_URL is not set'

interface Deployment { name: string, database: 'sqlite' | 'postgres', store: 'file' | 's3', skip: string | false }
const DEPLOYMENTS: Deployment[] = [
  { name: 'the embedded default: SQLite and the file store', database: 'sqlite', store: 'file', skip: false },
  { name: 'PostgreSQL and the file store', database: 'postgres', store: 'file', skip: noPg },
  { name: 'PostgreSQL and S3 (Ceph RGW)', database: 'postgres', store: 's3', skip: noPg !== false ? noPg : s3Skip() }
]

async function onPostgres (statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL })
  await client.connect()
  try { await client.query(statement) } finally { await client.end() }
}

for (const deployment of DEPLOYMENTS) {
  describe(`a tus upload started on one api process continues on another (${deployment.name})`, { skip: mediaSkip !== false ? mediaSkip : deployment.skip }, () => {
    // The shared data directory holds the database (SQLite), the media (file store) and the first
    // process's embedded analytics; the second process keeps its own analytics file (the embedded
    // analytics store admits one process) in a folder of its own.
    const shared = mkdtempSync(join(tmpdir(), 'reelhouse-tus-two-'))
    const own = mkdtempSync(join(tmpdir(), 'reelhouse-tus-b-'))
    const schema = `tus_${randomBytes(6).toString('hex')}`
    const processes: CliProcess[] = []
    let bucket: string | undefined
    let apis: string[] = []
    let admin: { api_key: string, secret: string }

    before(async () => {
      const common: Record<string, string> = {
        REELHOUSE_MASTER_KEY: TEST_MASTER_KEY, HOST: '127.0.0.1', API_PORT: '0', CDN_PORT: '0', TRUST_PROXY: 'true',
        LOG_LEVEL: 'warn', PUBLIC_API_URL, CREDITS_ENABLED: 'false', MEDIA_STORE_URL: `file:${join(shared, 'media')}`
      }
      if (deployment.database === 'postgres') {
        await onPostgres(`CREATE SCHEMA ${schema}`)
        const url = new URL(process.env.TEST_DATABASE_URL as string)
        url.searchParams.set('options', `-c search_path=${schema}`)
        common.DATABASE_URL = url.toString()
      } else {
        common.DATABASE_URL = `sqlite:${join(shared, 'reelhouse.db')}`
      }
      if (deployment.store === 's3') {
        bucket = uniqueBucketUrl()
        common.MEDIA_STORE_URL = bucket
      }
      const first = startCli(['serve', '--role', 'api', 'worker'], { ...common, REELHOUSE_DATA_DIR: shared })
      processes.push(first)
      await first.waitFor(/^Reelhouse is running/)
      const second = startCli(['serve', '--role', 'api'], { ...common, REELHOUSE_DATA_DIR: own })
      processes.push(second)
      await second.waitFor(/^Reelhouse is running/)
      apis = await Promise.all([first, second].map(async (child) => (/http:\/\/127\.0\.0\.1:\d+/.exec(await child.waitFor(/^api: /)) as RegExpExecArray)[0]))
      assert.notEqual(first.child.pid, second.child.pid)
      admin = JSON.parse(readFileSync(join(shared, 'admin-credentials.json'), 'utf8')) as typeof admin
    })
    after(async () => {
      for (const child of processes) await child.stop('SIGTERM')
      if (deployment.database === 'postgres') await onPostgres(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
      if (bucket !== undefined) await dropBucket(bucket)
      rmSync(shared, { recursive: true, force: true })
      rmSync(own, { recursive: true, force: true })
    })

    const call = async (api: string, method: string, path: string, body?: object): Promise<{ status: number, json: any }> => {
      const text = body === undefined ? undefined : JSON.stringify(body)
      const url = signedPath({ apiKey: admin.api_key, secret: admin.secret, method, path, body: text })
      const res = await fetch(api + url, { method, body: text, headers: { ...HEADERS, ...(text === undefined ? {} : { 'content-type': 'application/json' }) } })
      const raw = await res.text()
      return { status: res.status, json: raw === '' ? undefined : JSON.parse(raw) }
    }

    it('keeps the bytes that arrived on the first, answers the offset on the second, finishes there, and the asset goes live', async () => {
      const [first, second] = apis as [string, string]
      const bytes = await paddedMp4(join(shared, 'clip.mp4'), SIZE)
      const labels = await Promise.all(['Kept', 'Deleted meanwhile'].map(async (name) => (await call(first, 'POST', '/v2/labels', { name })).json.id as string))
      const created = await call(first, 'POST', '/v2/direct_uploads', { new_asset_settings: { name: 'Over tus', metadata: { origin: 'test' }, labels } })
      assert.equal(created.status, 200, JSON.stringify(created.json))
      assert.deepEqual([created.json.status, created.json.upload_url, created.json.asset_id], ['waiting', null, null])
      const id = created.json.id as string

      // The first client is cut off once half is acknowledged: its promise never settles, so look at the direct upload.
      const run = startTus(first, bytes, { endpoint: created.json.url, chunkSize: CHUNK, onHalf: (upload) => { void upload.abort() } })
      void run.done.catch(() => {})
      let state: any
      for (;;) {
        state = (await call(first, 'GET', `/v2/direct_uploads/${id}`)).json
        if (state.upload_offset >= bytes.length / 2) break
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      // Let a PATCH in flight at the cut end, then read where the upload stands.
      await new Promise((resolve) => setTimeout(resolve, 300))
      state = (await call(first, 'GET', `/v2/direct_uploads/${id}`)).json
      const cutAt = state.upload_offset as number
      assert.ok(cutAt >= bytes.length / 2 && cutAt < bytes.length, `cut at ${cutAt} of ${bytes.length}`)
      assert.match(state.upload_url, /^https:\/\/media\.reelhouse\.test\/v2\/tus\//)

      // The second process answers the same offset (from the database), not a copy of the first's memory.
      const head = await fetch(second + new URL(state.upload_url as string).pathname, { method: 'HEAD', headers: { ...HEADERS, 'tus-resumable': '1.0.0' } })
      assert.equal(head.status, 200)
      assert.deepEqual([head.headers.get('upload-offset'), head.headers.get('upload-length')], [String(cutAt), String(bytes.length)])

      // A label of the settings is deleted before completion: dropped, with a warning on the asset.
      assert.equal((await call(second, 'DELETE', `/v2/labels/${labels[1] as string}`)).status, 200)
      const resumed = startTus(second, bytes, { uploadUrl: state.upload_url, chunkSize: CHUNK })
      await resumed.done
      const last = (await call(first, 'GET', `/v2/direct_uploads/${id}`)).json
      assert.equal(last.status, 'asset_created', JSON.stringify(last))
      assert.equal(last.upload_offset, bytes.length)

      const assetId = last.asset_id as string
      let asset: any
      const end = Date.now() + 240_000
      for (;;) {
        asset = (await call(second, 'GET', `/v2/assets/${assetId}`)).json
        if (asset.status === 'error' || (asset.status === 'live' && asset.processing_progress === 100)) break
        if (Date.now() > end) assert.fail(`asset still ${asset.status as string}`)
        await new Promise((resolve) => setTimeout(resolve, 200))
      }
      assert.equal(asset.status, 'live', JSON.stringify(asset))
      assert.equal(asset.file_size, bytes.length)
      const info = await call(second, 'GET', `/v2/assets/${assetId}/source_file_info`)
      // The original's signed URL: its path and its query (expiry and signature).
      const signed = new URL(info.json.source_file_url as string)
      const original = await fetch(second + signed.pathname + signed.search, { headers: HEADERS })
      assert.equal(original.status, 200)
      assert.equal(sha256(Buffer.from(await original.arrayBuffer())), sha256(bytes))
      assert.deepEqual((await call(second, 'GET', `/v2/assets/${assetId}/metadata`)).json, { origin: 'test' })
      const dropped = `label ${labels[1] as string} was dropped: it no longer exists`
      assert.deepEqual(last.warnings, [dropped])
      assert.ok((asset.processing_warnings as string[]).includes(dropped), JSON.stringify(asset.processing_warnings))
      const kept = (await call(second, 'GET', `/v2/assets/${assetId}/labels`)).json
      assert.deepEqual((kept.items as Array<{ id: string }>).map((label) => label.id), [labels[0]])
    })
  })
}
