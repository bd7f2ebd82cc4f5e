import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../../src/app/build-app.ts'
import { createContext, type AppContext } from '../../../src/app/context.ts'
import { loadConfig } from '../../../src/config/index.ts'
import { signedPath } from '../../../src/signing/index.ts'
import { TEST_MASTER_KEY } from '../../support/app.ts'
import { PUBLIC_API_URL, sha256, sliceOf } from './support.ts'

/**
 * Two servers as two processes of one deployment would be: each its own context (database connection,
 * media store, keys derived from the same master key) over one data directory. Chunk URLs one of them
 * gives are good at the other, and either completes the upload.
 */
describe('an upload resumed on another server of the same deployment', () => {
  let dataDir: string
  const servers: Array<{ ctx: AppContext, app: FastifyInstance }> = []
  let credentials: { apiKey: string, secret: string }
  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-two-'))
    const config = loadConfig({ REELHOUSE_DATA_DIR: dataDir, REELHOUSE_MASTER_KEY: TEST_MASTER_KEY, LOG_LEVEL: 'silent', PUBLIC_API_URL })
    for (let i = 0; i < 2; i++) {
      const ctx = await createContext(config)
      servers.push({ ctx, app: await buildApp(ctx, { variant: 'api', logger: false }) })
    }
    const created = await servers[0]?.ctx.services.accounts.create('Two servers')
    credentials = { apiKey: created?.administrator.api_key as string, secret: created?.administrator.secret as string }
  })
  after(async () => {
    for (const { app, ctx } of servers) { await app.close(); await ctx.close() }
    rmSync(dataDir, { recursive: true, force: true })
  })

  const signed = async (server: number, method: string, path: string, body?: object) => {
    const payload = body === undefined ? undefined : JSON.stringify(body)
    return await (servers[server]?.app as FastifyInstance).inject({ method: method as 'GET', url: signedPath({ ...credentials, method, path, body: payload }), payload })
  }
  const put = async (server: number, url: string, body: Buffer) => {
    const parsed = new URL(url)
    return await (servers[server]?.app as FastifyInstance).inject({ method: 'PUT', url: parsed.pathname + parsed.search, payload: body })
  }

  it('takes chunk URLs of one server at the other, names what is missing there, and completes', async () => {
    const file = randomBytes(3000)
    const id = (await signed(0, 'POST', '/v2/assets', { asset_type: 'video', name: 'Two', file_name: 'two.mp4', file_size: 3000, chunk_size: 1000 })).json().embed_code as string
    const fromFirst = (await signed(0, 'GET', `/v2/assets/${id}/uploading_urls`)).json() as string[]
    assert.equal((await put(1, fromFirst[0] as string, sliceOf(file, 1000, 0))).statusCode, 200)

    const status = await signed(1, 'PUT', `/v2/assets/${id}/upload_status`, { status: 'uploaded' })
    assert.deepEqual([status.statusCode, status.json().missing_chunks], [400, ['chunk-000001', 'chunk-000002']])
    const fromSecond = (await signed(1, 'GET', `/v2/assets/${id}/uploading_urls`)).json() as string[]
    for (const index of [1, 2]) assert.equal((await put(0, fromSecond[index] as string, sliceOf(file, 1000, index))).statusCode, 200)

    const done = await signed(0, 'PUT', `/v2/assets/${id}/upload_status`, { status: 'uploaded' })
    assert.deepEqual([done.statusCode, done.json()], [200, { status: 'uploaded' }])
    const ctx = servers[1]?.ctx as AppContext
    const job = await ctx.db.selectFrom('media_jobs').selectAll().where('asset_id', '=', id).executeTakeFirstOrThrow()
    const object = await ctx.services.mediaStore.get(job.original_key)
    const parts: Buffer[] = []
    for await (const part of object.body) parts.push(part as Buffer)
    assert.equal(sha256(Buffer.concat(parts)), sha256(file))
  })
})
