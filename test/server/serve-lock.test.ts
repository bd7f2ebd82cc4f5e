import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import pg from 'pg'
import { loadConfig } from '../../src/config/index.ts'
import { LOCK_FILE } from '../../src/server/data-dir-lock.ts'
import { serve } from '../../src/server/serve.ts'
import { TEST_MASTER_KEY } from '../support/app.ts'

function configFor (dataDir: string, extra: Record<string, string> = {}): ReturnType<typeof loadConfig> {
  return loadConfig({ REELHOUSE_DATA_DIR: dataDir, REELHOUSE_MASTER_KEY: TEST_MASTER_KEY, HOST: '127.0.0.1', API_PORT: '0', TRUST_PROXY: 'true', LOG_LEVEL: 'silent', ...extra })
}

async function onPostgres (statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL })
  await client.connect()
  try { await client.query(statement) } finally { await client.end() }
}

describe('which server process takes the data directory lock', () => {
  it('the api role with the embedded analytics store: while it runs, released when it closes', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-serve-lock-'))
    try {
      const server = await serve(configFor(dataDir), ['api'], () => {})
      assert.equal(readFileSync(join(dataDir, LOCK_FILE), 'utf8').trim(), String(process.pid))
      await server.close()
      assert.equal(existsSync(join(dataDir, LOCK_FILE)), false)
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })

  it('the api role with analytics on PostgreSQL: none', { skip: process.env.TEST_DATABASE_URL ? false : 'TEST_DATABASE_URL is not set' }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-serve-lock-'))
    const schema = `lk_${randomBytes(6).toString('hex')}`
    await onPostgres(`CREATE SCHEMA ${schema}`)
    try {
      const url = new URL(process.env.TEST_DATABASE_URL as string)
      url.searchParams.set('options', `-c search_path=${schema}`)
      const server = await serve(configFor(dataDir, { ANALYTICS_URL: url.toString() }), ['api'], () => {})
      assert.equal(existsSync(join(dataDir, LOCK_FILE)), false)
      await server.close()
    } finally {
      await onPostgres(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
      rmSync(dataDir, { recursive: true, force: true })
    }
  })

  it('a failed start (its port in use) releases the lock it took', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-serve-lock-'))
    const first = await serve(configFor(mkdtempSync(join(tmpdir(), 'reelhouse-serve-lock-'))), ['api'], () => {})
    try {
      const port = String((first.apps.api?.server.address() as { port: number }).port)
      await assert.rejects(serve(configFor(dataDir, { API_PORT: port }), ['api'], () => {}), /EADDRINUSE/)
      assert.equal(existsSync(join(dataDir, LOCK_FILE)), false)
    } finally {
      await first.close()
      rmSync(first.ctx.config.dataDir, { recursive: true, force: true })
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
