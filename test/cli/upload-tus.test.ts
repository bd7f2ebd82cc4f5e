import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { uploadStateFile } from '../../src/cli/upload-state.ts'
import { freePort, startClientServer, type ClientServer } from '../client/support/client-server.ts'
import { cliEnv, runCli } from '../support/cli.ts'

/** `reelhouse upload --tus`: the file goes up as a direct upload over tus, in PATCHes of --chunk-size. */
describe('reelhouse upload --tus', () => {
  let server: ClientServer
  let dir: string
  let env: Record<string, string>
  before(async () => {
    const port = await freePort()
    server = await startClientServer('sqlite', { PUBLIC_API_URL: `http://127.0.0.1:${port}` }, { apiPort: port })
    dir = await mkdtemp(join(tmpdir(), 'reelhouse-cli-tus-'))
    env = { REELHOUSE_DATA_DIR: join(dir, 'data'), XDG_CONFIG_HOME: join(dir, 'config'), REELHOUSE_API_KEY: server.admin.apiKey, REELHOUSE_SECRET: server.admin.secret }
  })
  after(async () => {
    await server?.close()
    if (dir !== undefined) await rm(dir, { recursive: true, force: true })
  })

  it('uploads the file over tus and prints the asset, its original the file\'s bytes', async () => {
    const bytes = randomBytes(150_000)
    const file = join(dir, 'over tus.mp4')
    await writeFile(file, bytes)
    const result = await runCli(['upload', file, '--tus', '--name', 'Over tus', '--chunk-size', '40000', '--no-wait', '--base-url', server.baseUrl], env)
    assert.equal(result.status, 0, result.stderr)
    const asset = JSON.parse(result.stdout)
    assert.deepEqual([asset.name, asset.status, asset.original_file_name, asset.file_size], ['Over tus', 'processing', 'over tus.mp4', 150_000])
    const direct = await server.ctx.db.selectFrom('direct_uploads').selectAll().where('asset_id', '=', asset.embed_code).executeTakeFirstOrThrow()
    assert.deepEqual([direct.status, Number(direct.part_count)], ['asset_created', 4])
    const job = await server.ctx.db.selectFrom('media_jobs').selectAll().where('asset_id', '=', asset.embed_code).executeTakeFirstOrThrow()
    const object = await server.ctx.services.mediaStore.get(job.original_key)
    const parts: Buffer[] = []
    for await (const part of object.body) parts.push(part as Buffer)
    assert.ok(Buffer.concat(parts).equals(bytes))
    assert.deepEqual(JSON.parse(await readFile(uploadStateFile(cliEnv(env)), 'utf8')).uploads, {}, 'a finished upload is forgotten')
  })
})
