import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { loadConfig } from '../../src/config/index.ts'
import { RUNNING_SERVER_FILE } from '../../src/server/running-server.ts'
import { serve, type RunningServer } from '../../src/server/serve.ts'
import { TEST_MASTER_KEY } from '../support/app.ts'
import { runCli } from '../support/cli.ts'

/** One server for the commands that talk to it, found through the data directory as a user's would be. */
describe('reelhouse commands against the data directory\'s running server', () => {
  let server: RunningServer | undefined
  let dataDir: string
  let env: Record<string, string>
  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-cli-commands-'))
    env = { REELHOUSE_DATA_DIR: dataDir, XDG_CONFIG_HOME: join(dataDir, 'config') }
    server = await serve(loadConfig({ REELHOUSE_DATA_DIR: dataDir, REELHOUSE_MASTER_KEY: TEST_MASTER_KEY, HOST: '127.0.0.1', API_PORT: '0', LOG_LEVEL: 'silent' }), ['api'], () => {})
  })
  after(async () => {
    await server?.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('finds the server on the port the system chose, with no address given, and takes a path without its leading slash', async () => {
    const port = (server?.apps.api?.server.address() as { port: number }).port
    const record = JSON.parse(readFileSync(join(dataDir, RUNNING_SERVER_FILE), 'utf8'))
    assert.equal(record.api_url, `https://127.0.0.1:${port}`)
    assert.equal(record.pid, process.pid)
    const result = await runCli(['get', 'v2/users/me'], env)
    assert.equal(result.status, 0, result.stderr)
    assert.equal(JSON.parse(result.stdout).role, 'administrator')
  })

  it('prints what the API said about a refused signature: message, detail, request id; with --verbose the request and the string it signed', async () => {
    const admin = JSON.parse(readFileSync(join(dataDir, 'admin-credentials.json'), 'utf8'))
    const wrong = ['get', 'v2/labels', '--api-key', admin.api_key, '--secret', 'not-the-secret']
    const plain = await runCli(wrong, env)
    assert.equal(plain.status, 1)
    const lines = plain.stderr.trimEnd().split('\n')
    assert.equal(lines[0], 'reelhouse: Invalid signature. (401 signature_invalid)')
    assert.match(plain.stderr, /^ {2}detail: .+/m)
    assert.match(plain.stderr, /^ {2}request id: \S+$/m)
    assert.match(plain.stderr, /--verbose shows the request and the string the server signed/)

    const verbose = await runCli([...wrong, '--verbose'], env)
    assert.match(verbose.stderr, /^ {2}request: GET https:\/\/127\.0\.0\.1:\d+\/v2\/labels\?api_key=/m)
    const signed = /^ {2}string the server signed: (.+)$/m.exec(verbose.stderr)?.[1]
    assert.ok(signed !== undefined, verbose.stderr)
    const parsed = JSON.parse(signed)
    assert.deepEqual([parsed.method, parsed.path], ['GET', '/v2/labels'])
    assert.match(parsed.parameters, new RegExp(`^api_key=${admin.api_key.replace('.', '\\.')}expires=\\d+$`))
    assert.ok(!verbose.stderr.includes('not-the-secret'), 'the secret given is never printed')
  })

  it('prints each field of a validation error, and refuses a --body that is not JSON before sending it', async () => {
    const invalid = await runCli(['post', '/v2/labels', '--body', '{"name": ""}'], env)
    assert.equal(invalid.status, 1)
    assert.match(invalid.stderr, /^reelhouse: Field name must not be empty\. \(400 validation_failed\)\n {2}name: must not be empty\n {2}request id: /)
    const notJson = await runCli(['post', '/v2/labels', '--body', '{name: x}'], env)
    assert.equal(notJson.status, 2)
    assert.match(notJson.stderr, /^reelhouse: --body is not valid JSON/)
  })

  it('forgets the server when it stops', async () => {
    await server?.close()
    server = undefined
    assert.equal(existsSync(join(dataDir, RUNNING_SERVER_FILE)), false)
    const stopped = await runCli(['sign', 'GET', '/v2/labels'], env)
    assert.match(stopped.stdout, /^https:\/\/localhost:8443\//)
  })
})
