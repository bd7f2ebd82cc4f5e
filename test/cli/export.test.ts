import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { DuckDBInstance } from '@duckdb/node-api'
import { startClientServer, type ClientServer } from '../client/support/client-server.ts'
import { runCli } from '../support/cli.ts'

// `reelhouse export`: the account's raw events through GET /v2/analytics/exports into a file, with
// progress on stderr; the Parquet file is read back by DuckDB.
describe('reelhouse export', () => {
  let server: ClientServer
  let dir: string
  let env: Record<string, string>
  before(async () => {
    server = await startClientServer('sqlite')
    dir = await mkdtemp(join(tmpdir(), 'reelhouse-cli-export-'))
    env = { REELHOUSE_DATA_DIR: join(dir, 'data'), XDG_CONFIG_HOME: join(dir, 'config'), REELHOUSE_API_KEY: server.admin.apiKey, REELHOUSE_SECRET: server.admin.secret }
    const asset = await server.client().assets.create({ asset_type: 'remote_asset', name: 'Clip', stream_urls: { source_file: 'https://cdn.example.com/a.mp4' } } as never)
    const time = Date.now() - 3_600_000
    const events = Array.from({ length: 300 }, (_, i) => ({ name: 'time_watched', time: time + i, value: i + 1 }))
    const posted = await fetch(`${server.baseUrl}/v2/analytics/events`, { method: 'POST', body: JSON.stringify({ account_code: server.admin.accountCode, session_id: 's-1', asset_id: (asset as { embed_code: string }).embed_code, events }) })
    assert.equal(posted.status, 204, await posted.text())
    await (await server.ctx.analytics.get()).flush()
  })
  after(async () => {
    await server?.close()
    if (dir !== undefined) await rm(dir, { recursive: true, force: true })
  })

  it('writes Parquet to a file with a progress line, and prints its name', async () => {
    const start = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)
    const file = join(dir, 'events.parquet')
    const result = await runCli(['export', '--start-date', start, '-o', file, '--base-url', server.baseUrl], env)
    assert.equal(result.status, 0, result.stderr)
    assert.equal(result.stdout.trim(), file)
    assert.match(result.stderr, /^Exported 100% \(\d+\.\d\/\d+\.\d MiB at [\d.]+ MiB\/s\)$/m)
    const instance = await DuckDBInstance.create(':memory:')
    const connection = await instance.connect()
    try {
      const [row] = (await connection.runAndReadAll(`SELECT COUNT(*) AS n, SUM(value) AS total FROM read_parquet('${file}')`)).getRowObjectsJS()
      assert.deepEqual([Number(row.n), Number(row.total)], [300, 300 * 301 / 2])
    } finally {
      connection.closeSync()
      instance.closeSync()
    }
  })

  it('says why when the server refuses', async () => {
    const result = await runCli(['export', '--start-date', '2026-02-30', '--format', 'csv', '--base-url', server.baseUrl], env)
    assert.notEqual(result.status, 0)
    assert.match(result.stderr, /The export failed \(HTTP 400\): start_date must be a date/)
  })
})
