import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { promisify } from 'node:util'
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { Reelhouse } from 'reelhouse/client'
import { uploadKey, uploadStateFile, writeUpload } from '../../src/cli/upload-state.ts'
import { freePort, startClientServer, type ClientServer } from '../client/support/client-server.ts'
import { cliEnv, runCli, startCli } from '../support/cli.ts'
import { makeAudio, mediaSkip } from '../support/media-fixtures.ts'
import { runInTerminal, terminalAvailable } from '../support/terminal.ts'

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
    assert.match(result.stderr, /Uploaded 50% \(0\.1\/0\.1 MiB, chunk 2\/4, 0\.0 KiB sent now/, 'the chunks already sent count from the start')
    // The speed counts the two chunks sent in this run (60,000 bytes), not the two the server had.
    assert.match(result.stderr, /Uploaded 100% \(0\.1\/0\.1 MiB, chunk 4\/4, 58\.6 KiB sent now at [\d.]+ (KiB|MiB)\/s\)/)
    assert.equal(JSON.parse(result.stdout).embed_code, asset.embed_code)
    assert.ok((await originalOf(asset.embed_code)).equals(bytes))
  })

  it('follows processing until the asset is live', async () => {
    const file = join(dir, 'short.mp4')
    await writeFile(file, randomBytes(1000))
    const cli = startCli(['upload', file, '--poll-interval', '50', '--base-url', server.baseUrl], env)
    const uploaded = await cli.waitForStderr(/Uploaded short\.mp4 as asset (\S+)/)
    const id = /as asset (\S+)/.exec(uploaded)?.[1] as string
    // No worker runs in this test: the job waits in the queue, behind the earlier tests' uploads.
    await cli.waitForStderr(/Processing: queued, position \d+$/)
    // What a worker does when the media is ready.
    await server.ctx.db.updateTable('assets').set({ status: 'live' }).where('id', '=', id).execute()
    assert.equal(await cli.exited(), 0)
    assert.equal(JSON.parse(cli.stdout.join('\n')).status, 'live')
  })

  it('with --wait ready follows processing past playable, to the whole ladder', async () => {
    const file = join(dir, 'ladder.mp4')
    await writeFile(file, randomBytes(1000))
    const cli = startCli(['upload', file, '--wait', 'ready', '--poll-interval', '50', '--base-url', server.baseUrl], env)
    const uploaded = await cli.waitForStderr(/Uploaded ladder\.mp4 as asset (\S+)/)
    const id = /as asset (\S+)/.exec(uploaded)?.[1] as string
    await cli.waitForStderr(/Processing: queued, position \d+$/)
    // Playable with renditions still to come (what the worker does once the first is published): it goes on.
    await server.ctx.db.updateTable('assets').set({ status: 'live', processing_progress: 40 }).where('id', '=', id).execute()
    await cli.waitForStderr(/Processing: (live 40%|queued, position \d+)$/)
    await server.ctx.db.updateTable('media_jobs').set({ state: 'done' }).where('asset_id', '=', id).execute()
    await server.ctx.db.updateTable('assets').set({ processing_progress: 100 }).where('id', '=', id).execute()
    assert.equal(await cli.exited(), 0)
    const printed = JSON.parse(cli.stdout.join('\n'))
    assert.deepEqual([printed.status, printed.processing_progress], ['live', 100])
    assert.equal((await runCli(['upload', file, '--wait', 'soon', '--force', '--base-url', server.baseUrl], env)).status, 1)
  })

  it('refuses a missing file with a clear message', async () => {
    const result = await runCli(['upload', join(dir, 'nope.mp4'), '--base-url', server.baseUrl], env)
    assert.equal(result.status, 1)
    assert.match(result.stderr, /nope\.mp4 is not a file\./)
  })

  it('uploads MP3, M4A and WAV files as audio assets without --type, deciding from the file and saying so', { skip: mediaSkip }, async () => {
    const mp3 = await makeAudio(join(dir, 'theme.mp3'), 0.3)
    const m4a = join(dir, 'voice.m4a')
    const wav = join(dir, 'bell.wav')
    const run = promisify(execFile)
    await run('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440', '-t', '0.3', '-c:a', 'aac', m4a])
    await run('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=550', '-t', '0.3', '-c:a', 'pcm_s16le', wav])
    // An MP3 under a name that says nothing: its first bytes decide.
    const unnamed = join(dir, 'tone.take1')
    await writeFile(unnamed, await readFile(mp3))
    for (const [file, reason] of [[mp3, 'an MP3 file'], [m4a, 'an M4A file'], [wav, 'a WAV file'], [unnamed, 'an MP3 file']] as const) {
      const result = await runCli(['upload', file, '--no-wait', '--force', '--base-url', server.baseUrl], env)
      assert.equal(result.status, 0, result.stderr)
      assert.match(result.stderr, new RegExp(`^${file.split('/').at(-1)?.replace('.', '\\.')} is ${reason}: uploading it as an audio asset \\(--type sets another\\)$`, 'm'))
      assert.equal(JSON.parse(result.stdout).asset_type, 'audio', file)
    }
    const video = await runCli(['upload', mp3, '--type', 'video', '--no-wait', '--force', '--base-url', server.baseUrl], env)
    assert.equal(JSON.parse(video.stdout).asset_type, 'video', '--type wins')
    assert.doesNotMatch(video.stderr, /uploading it as/)
  })

  it('asks before uploading a file a live asset already has (same size and SHA-256); --force does not ask', async () => {
    const bytes = randomBytes(5000)
    const file = join(dir, 'twice.mp4')
    await writeFile(file, bytes)
    const first = await runCli(['upload', file, '--no-wait', '--base-url', server.baseUrl], env)
    assert.equal(first.status, 0, first.stderr)
    const id = JSON.parse(first.stdout).embed_code as string
    const { createHash } = await import('node:crypto')
    assert.deepEqual(await client.assets.metadata.get(id), { reelhouse_sha256: createHash('sha256').update(bytes).digest('hex') })
    const count = async (): Promise<number> => (await client.request<{ items: unknown[] }>('GET', '/v2/assets?limit=500')).items.length
    // Only a live asset counts as a copy: what a worker does once the media is ready (none runs here).
    await server.ctx.db.updateTable('assets').set({ status: 'live' }).where('id', '=', id).execute()

    const before = await count()
    const refused = await runCli(['upload', file, '--no-wait', '--base-url', server.baseUrl], env)
    assert.equal(refused.status, 2)
    assert.match(refused.stderr, new RegExp(`twice\\.mp4 \\(5000 bytes, SHA-256 [0-9a-f]{12}…\\) is already asset ${id} "twice\\.mp4" \\(live\\)\\. Upload it again: not asked, as this is not a terminal; pass --force to go ahead`))
    assert.equal(await count(), before, 'nothing created')

    if (await terminalAvailable()) {
      const declined = await runInTerminal(['upload', file, '--no-wait', '--base-url', server.baseUrl], env, 'n\n')
      assert.match(declined.stdout, /Upload it again\? \[y\/N\][\s\S]*Not uploaded\./)
      assert.equal(await count(), before)
    }

    // Another file of the same size is not a copy.
    await writeFile(join(dir, 'other.mp4'), randomBytes(5000))
    assert.equal((await runCli(['upload', join(dir, 'other.mp4'), '--no-wait', '--base-url', server.baseUrl], env)).status, 0)
    const forced = await runCli(['upload', file, '--no-wait', '--force', '--base-url', server.baseUrl], env)
    assert.equal(forced.status, 0, forced.stderr)
    assert.notEqual(JSON.parse(forced.stdout).embed_code, id)
    assert.equal(await count(), before + 2)
  })
})
