import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { Reelhouse } from 'reelhouse/client'
import { uploadKey, uploadStateFile, writeUpload } from '../../src/cli/upload-state.ts'
import { freePort, startClientServer, type ClientServer } from '../client/support/client-server.ts'
import { cliEnv, runCli, startCli } from '../support/cli.ts'

describe('reelhouse upload', () => {
  let server: ClientServer
  let client: Reelhouse
  let dir: string
  let env: Record<string, string>
  before(async () => {
    const port = await freePort()
    server = await startClientServer('sqlite', { PUBLIC_API_URL: `http://127.0.0.1:${port}` }, { apiPort: port })
    client = server.client()
    dir = await mkdtemp(join(tmpdir(), 'reelhouse-cli-upload-'))
    env = { REELHOUSE_DATA_DIR: join(dir, 'data'), XDG_CONFIG_HOME: join(dir, 'config'), REELHOUSE_API_KEY: server.admin.apiKey, REELHOUSE_SECRET: server.admin.secret }
  })
  after(async () => {
    await server?.close()
    if (dir !== undefined) await rm(dir, { recursive: true, force: true })
  })

  const originalOf = async (id: string): Promise<Buffer> => {
    const job = await server.ctx.db.selectFrom('media_jobs').selectAll().where('asset_id', '=', id).executeTakeFirstOrThrow()
    const object = await server.ctx.services.mediaStore.get(job.original_key)
    const parts: Buffer[] = []
    for await (const part of object.body) parts.push(part as Buffer)
    return Buffer.concat(parts)
  }

  it('uploads a file in parallel chunks under a label, with progress on stderr, and prints the asset', async () => {
    const bytes = randomBytes(200_000)
    const file = join(dir, 'final cut.mp4')
    await writeFile(file, bytes)
    const result = await runCli(['upload', file, '--name', 'Final cut', '--label', '/Films/Shorts', '--chunk-size', '50000', '--no-wait', '--base-url', server.baseUrl], env)
    assert.equal(result.status, 0, result.stderr)
    const asset = JSON.parse(result.stdout)
    assert.deepEqual([asset.name, asset.status, asset.original_file_name, asset.file_size], ['Final cut', 'processing', 'final cut.mp4', 200_000])
    assert.match(result.stderr, /Uploaded 100% \(0\.2\/0\.2 MiB, chunk 4\/4/)
    assert.ok((await originalOf(asset.embed_code)).equals(bytes))
    const labels = await client.assets.labels.list(asset.embed_code)
    assert.deepEqual(labels.map((label) => label.full_name), ['/Films/Shorts'])
    assert.deepEqual(JSON.parse(await readFile(uploadStateFile(cliEnv(env)), 'utf8')).uploads, {}, 'a finished upload is forgotten')
  })

  it('continues an interrupted upload of the same file when run again', async () => {
    const bytes = randomBytes(120_000)
    const file = join(dir, 'long.mp4')
    await writeFile(file, bytes)
    // An earlier run created the asset and sent two of its four chunks, then stopped.
    const asset = await client.assets.create({ asset_type: 'video', name: 'long.mp4', file_name: 'long.mp4', file_size: bytes.length, chunk_size: 30_000 })
    const urls = await client.assets.uploads.chunkUrls(asset.embed_code)
    for (const index of [0, 2]) {
      const res = await fetch(urls[index] as string, { method: 'PUT', body: bytes.subarray(index * 30_000, (index + 1) * 30_000) })
      assert.equal(res.status, 200)
    }
    const { size, mtimeMs } = await stat(file)
    writeUpload(uploadStateFile(cliEnv(env)), uploadKey({ baseUrl: server.baseUrl, apiKey: server.admin.apiKey, path: file, size, mtimeMs }), { asset_id: asset.embed_code, chunk_size: 30_000 })

    const result = await runCli(['upload', file, '--no-wait', '--base-url', server.baseUrl], env)
    assert.equal(result.status, 0, result.stderr)
    assert.match(result.stderr, new RegExp(`Continuing the upload of asset ${asset.embed_code}`))
    assert.match(result.stderr, /Uploaded 50% \(0\.1\/0\.1 MiB, chunk 2\/4/, 'the chunks already sent count from the start')
    assert.equal(JSON.parse(result.stdout).embed_code, asset.embed_code)
    assert.ok((await originalOf(asset.embed_code)).equals(bytes))
  })

  it('follows processing until the asset is live', async () => {
    const file = join(dir, 'short.mp4')
    await writeFile(file, randomBytes(1000))
    const cli = startCli(['upload', file, '--poll-interval', '50', '--base-url', server.baseUrl], env)
    const uploaded = await cli.waitForStderr(/Uploaded short\.mp4 as asset (\S+)/)
    const id = /as asset (\S+)/.exec(uploaded)?.[1] as string
    await cli.waitForStderr(/Processing: processing/)
    // What a worker does when the media is ready; no worker runs in this test.
    await server.ctx.db.updateTable('assets').set({ status: 'live' }).where('id', '=', id).execute()
    assert.equal(await cli.exited(), 0)
    assert.equal(JSON.parse(cli.stdout.join('\n')).status, 'live')
  })

  it('refuses a missing file with a clear message', async () => {
    const result = await runCli(['upload', join(dir, 'nope.mp4'), '--base-url', server.baseUrl], env)
    assert.equal(result.status, 1)
    assert.match(result.stderr, /nope\.mp4 is not a file\./)
  })
})
