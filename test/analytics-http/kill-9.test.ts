import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { after, describe, it } from 'node:test'
import pg from 'pg'
import { signedPath } from '../../src/signing/index.ts'
import { TEST_MASTER_KEY } from '../support/app.ts'

interface ServerProcess { api: string, kill9: () => Promise<void>, stop: () => Promise<void> }

/** `serve --role api cdn` in a child process (support/server-process.ts); resolves once it listens. */
async function startServer (env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'support', 'server-process.ts')], {
    env: { ...process.env, LOG_LEVEL: 'silent', HOST: '127.0.0.1', API_PORT: '0', CDN_PORT: '0', TRUST_PROXY: 'true', ...env },
    stdio: ['ignore', 'pipe', 'inherit']
  })
  const ports = await new Promise<{ api: number }>((resolve, reject) => {
    child.once('exit', (code) => { reject(new Error(`the server exited with ${String(code)} before listening`)) })
    createInterface({ input: child.stdout }).on('line', (line) => { if (line.startsWith('{"ready":true')) resolve(JSON.parse(line)) })
  })
  const signal = async (name: NodeJS.Signals): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = once(child, 'exit')
    child.kill(name)
    await exited
  }
  return { api: `http://127.0.0.1:${ports.api}`, kill9: async () => { await signal('SIGKILL') }, stop: async () => { await signal('SIGTERM') } }
}

const DAY_MS = 86_400_000
const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10)
// The api listener behind a TLS-terminating proxy (TRUST_PROXY): plain HTTP that says it arrived over HTTPS.
const HEADERS = { 'x-forwarded-proto': 'https', 'content-type': 'application/json' }

interface Admin { account_code: string, api_key: string, secret: string }

async function signed (server: ServerProcess, admin: Admin, method: string, path: string, body?: string): Promise<Response> {
  return await fetch(server.api + signedPath({ apiKey: admin.api_key, secret: admin.secret, method, path, body }), { method, body, headers: HEADERS })
}

const STORES = [
  { name: 'the embedded DuckDB store', skip: false as const },
  { name: 'PostgreSQL', skip: process.env.TEST_DATABASE_URL ? false as const : 'TEST_DATABASE_URL is not set' }
]

for (const store of STORES) {
  describe(`an event batch answered 204 survives kill -9 of the real server, analytics on ${store.name}`, { skip: store.skip }, () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-kill9-'))
    const schema = `k9_${randomBytes(6).toString('hex')}`
    const env: Record<string, string> = { REELHOUSE_DATA_DIR: dataDir, REELHOUSE_MASTER_KEY: TEST_MASTER_KEY }
    const running: ServerProcess[] = []
    after(async () => {
      for (const server of running) await server.kill9()
      if (env.ANALYTICS_URL !== undefined) await onPostgres(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
      rmSync(dataDir, { recursive: true, force: true })
    })

    it('counts the batch in the first report after the restart', async () => {
      if (store.name === 'PostgreSQL') {
        await onPostgres(`CREATE SCHEMA ${schema}`)
        const url = new URL(process.env.TEST_DATABASE_URL as string)
        url.searchParams.set('options', `-c search_path=${schema}`)
        env.ANALYTICS_URL = url.toString()
      }
      const first = await startServer(env)
      running.push(first)
      const admin = JSON.parse(readFileSync(join(dataDir, 'admin-credentials.json'), 'utf8')) as Admin
      const created = await signed(first, admin, 'POST', '/v2/assets', JSON.stringify({ asset_type: 'remote_asset', name: 'Clip', stream_urls: { source_file: 'https://cdn.example.com/a.mp4' } }))
      assert.equal(created.status, 200, await created.clone().text())
      const asset = (await created.json() as { embed_code: string }).embed_code

      const events = Array.from({ length: 7 }, () => ({ name: 'display', time: new Date(Date.now() - 60_000).toISOString() }))
      const body = JSON.stringify({ account_code: admin.account_code, session_id: 'killed', asset_id: asset, events })
      const answer = await fetch(`${first.api}/v2/analytics/events`, { method: 'POST', body, headers: HEADERS })
      assert.equal(answer.status, 204)
      // At once: the background flush (every second) has most likely not run; the spool has the batch.
      await first.kill9()

      const second = await startServer(env)
      running.push(second)
      const now = Date.now()
      const report = await signed(second, admin, 'GET', `/v2/analytics/reports?start_date=${day(now - DAY_MS)}&end_date=${day(now + 2 * DAY_MS)}&metrics=displays`)
      assert.equal(report.status, 200, await report.clone().text())
      assert.deepEqual((await report.json() as { results: Array<{ data: unknown }> }).results[0].data, [{ group: {}, metrics: { displays: 7 } }])
      await second.stop()
    })
  })
}

async function onPostgres (statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL })
  await client.connect()
  try { await client.query(statement) } finally { await client.end() }
}
