import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { after, before, describe, it } from 'node:test'
import { APIConnectionError, Reelhouse } from 'reelhouse/client'
import { fetchWithCa } from 'reelhouse/client/node'
import { loadConfig } from '../../src/config/index.ts'
import { serve, type RunningServer } from '../../src/server/serve.ts'
import { TEST_MASTER_KEY } from '../support/app.ts'

const run = promisify(execFile)

describe('the client and a server with its first-start self-signed certificate (real HTTPS)', () => {
  let server: RunningServer
  let dataDir: string
  let baseUrl: string
  let certFile: string
  let admin: { api_key: string, secret: string }
  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-client-tls-'))
    server = await serve(loadConfig({ REELHOUSE_DATA_DIR: dataDir, REELHOUSE_MASTER_KEY: TEST_MASTER_KEY, API_PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' }), ['api'], () => {})
    baseUrl = `https://localhost:${(server.apps.api?.server.address() as AddressInfo).port}`
    certFile = join(dataDir, 'tls-cert.pem')
    admin = JSON.parse(readFileSync(join(dataDir, 'admin-credentials.json'), 'utf8'))
  })
  after(async () => {
    await server?.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('is refused by the global fetch, which does not know the certificate', async () => {
    const client = new Reelhouse({ baseUrl, apiKey: admin.api_key, secret: admin.secret, maxRetries: 0 })
    await assert.rejects(client.users.me(), (error: unknown) => error instanceof APIConnectionError && /CERT|certificate/i.test(error.message))
  })

  it('works with fetchWithCa from @reelhouse/client/node, given the certificate', async () => {
    const client = new Reelhouse({ baseUrl, apiKey: admin.api_key, secret: admin.secret, fetch: fetchWithCa({ ca: readFileSync(certFile) }) })
    assert.equal((await client.users.me()).role, 'administrator')
    const label = await client.labels.create({ name: 'Over TLS' })
    assert.deepEqual((await client.labels.list().toArray()).map((one) => one.id), [label.id])
  })

  it('works with the global fetch in a process started with NODE_EXTRA_CA_CERTS', async () => {
    const child = join(import.meta.dirname, 'support', 'me-child.ts')
    const env: NodeJS.ProcessEnv = { ...process.env, BASE_URL: baseUrl, API_KEY: admin.api_key, SECRET: admin.secret }
    delete env.NODE_EXTRA_CA_CERTS
    delete env.NODE_TEST_CONTEXT
    const trusted = await run(process.execPath, ['--import', 'tsx', child], { env: { ...env, NODE_EXTRA_CA_CERTS: certFile } })
    assert.equal(trusted.stdout.trim(), 'administrator')
    const untrusted = await run(process.execPath, ['--import', 'tsx', child], { env })
    assert.equal(untrusted.stdout.trim(), 'APIConnectionError')
  })
})
