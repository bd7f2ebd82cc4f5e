import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { ReelhouseClient, ReelhouseError } from '../../src/client/index.ts'
import { loadConfig } from '../../src/config/index.ts'
import { serve, type RunningServer } from '../../src/server/serve.ts'
import { TEST_MASTER_KEY } from '../support/app.ts'

describe('the TypeScript client against a real HTTPS server', () => {
  let server: RunningServer
  let dataDir: string
  let client: ReelhouseClient
  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-client-'))
    const config = loadConfig({ REELHOUSE_DATA_DIR: dataDir, REELHOUSE_MASTER_KEY: TEST_MASTER_KEY, API_PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' })
    server = await serve(config, ['api'], () => {})
    const saved = JSON.parse(readFileSync(join(dataDir, 'admin-credentials.json'), 'utf8'))
    const port = (server.apps.api?.server.address() as AddressInfo).port
    client = new ReelhouseClient({ baseUrl: `https://localhost:${port}`, apiKey: saved.api_key, secret: saved.secret, ca: readFileSync(join(dataDir, 'tls-cert.pem')) })
  })
  after(async () => {
    await server.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('signs requests and follows next_page across pages', async () => {
    for (let i = 0; i < 4; i++) await client.request('POST', '/v2/users', { name: `u${i}`, role: 'read_only' })
    const names: string[] = []
    for await (const user of client.list<{ name: string }>('/v2/users?limit=2')) names.push(user.name)
    assert.equal(names.length, 5)
    assert.deepEqual(names.filter((n) => n.startsWith('u')).sort(), ['u0', 'u1', 'u2', 'u3'])
  })

  it('turns an error answer into a ReelhouseError with status, code and message', async () => {
    await assert.rejects(client.request('GET', '/v2/users/ffffffffffffffffffffffffffffffff'), (error: unknown) =>
      error instanceof ReelhouseError && error.status === 404 && error.code === 'user_not_found' && error.message === 'User ffffffffffffffffffffffffffffffff does not exist.')
  })
})
