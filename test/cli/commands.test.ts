import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { Reelhouse } from 'reelhouse/client'
import { fetchWithCa } from 'reelhouse/client/node'
import { loadConfig } from '../../src/config/index.ts'
import { RUNNING_SERVER_FILE } from '../../src/server/running-server.ts'
import { serve, type RunningServer } from '../../src/server/serve.ts'
import { TEST_MASTER_KEY } from '../support/app.ts'
import { runCli } from '../support/cli.ts'
import { runInTerminal, terminalAvailable } from '../support/terminal.ts'

/** One server for the commands that talk to it, found through the data directory as a user's would be. */
describe('reelhouse commands against the data directory\'s running server', () => {
  let server: RunningServer | undefined
  let dataDir: string
  let env: Record<string, string>
  let client: Reelhouse
  let terminal: boolean
  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-cli-commands-'))
    env = { REELHOUSE_DATA_DIR: dataDir, XDG_CONFIG_HOME: join(dataDir, 'config') }
    server = await serve(loadConfig({ REELHOUSE_DATA_DIR: dataDir, REELHOUSE_MASTER_KEY: TEST_MASTER_KEY, HOST: '127.0.0.1', API_PORT: '0', LOG_LEVEL: 'silent' }), ['api'], () => {})
    const admin = JSON.parse(readFileSync(join(dataDir, 'admin-credentials.json'), 'utf8'))
    const port = (server.apps.api?.server.address() as { port: number }).port
    client = new Reelhouse({ baseUrl: `https://127.0.0.1:${port}`, apiKey: admin.api_key, secret: admin.secret, fetch: fetchWithCa({ ca: readFileSync(join(dataDir, 'tls-cert.pem')) }) })
    terminal = await terminalAvailable()
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

  const remote = async (name: string): Promise<string> =>
    (await client.assets.create({ asset_type: 'remote_asset', name, stream_urls: { iphone: 'https://cdn.example.com/a.m3u8' } })).embed_code

  it('lists assets as JSON lines when piped, following every page, and as a table on a terminal', async (t) => {
    const ids: string[] = []
    for (let i = 1; i <= 5; i++) ids.push(await remote(`Clip ${i}`))
    const piped = await runCli(['assets', 'list', '--page-size', '2', '--verbose'], env)
    assert.equal(piped.status, 0, piped.stderr)
    const listed = piped.stdout.trimEnd().split('\n').map((line) => JSON.parse(line).embed_code)
    assert.deepEqual(new Set(listed), new Set(ids))
    assert.equal(piped.stderr.match(/^> GET \S+\/v2\/assets\?/gm)?.length, 3, 'three pages of two')
    const limited = await runCli(['assets', 'list', '--limit', '2'], env)
    assert.equal(limited.stdout.trimEnd().split('\n').length, 2)
    const json = await runCli(['players', 'list', '--json'], env)
    assert.equal(json.status, 0, json.stderr)

    if (!terminal) { t.skip('util-linux `script` is not installed: no pseudo-terminal to show the table on'); return }
    const table = await runInTerminal(['assets', 'list', '--page-size', '2'], env)
    assert.equal(table.status, 0, table.stdout)
    const lines = table.stdout.trimEnd().split('\n')
    assert.match(lines[0] as string, /^EMBED CODE +TYPE +STATUS +DURATION +CREATED +NAME$/)
    assert.equal(lines.filter((line) => /^\S{32} {2}remote_asset {2}live /.test(line)).length, 5)
    assert.equal(lines.at(-1), '5 assets')
    const forced = await runInTerminal(['assets', 'list', '--json'], env)
    assert.equal(forced.stdout.trimEnd().split('\n').filter((line) => line.startsWith('{')).length, 5)
  })

  it('shows, changes and deletes one asset; delete asks on a terminal and needs --yes elsewhere', async (t) => {
    const id = await remote('To change')
    const shown = await runCli(['assets', 'get', id], env)
    assert.equal(JSON.parse(shown.stdout).name, 'To change')
    const updated = await runCli(['assets', 'update', id, '--name', 'Changed', '--status', 'paused'], env)
    assert.equal(updated.status, 0, updated.stderr)
    assert.deepEqual([JSON.parse(updated.stdout).name, JSON.parse(updated.stdout).status], ['Changed', 'paused'])

    const unasked = await runCli(['assets', 'delete', id], env)
    assert.equal(unasked.status, 2)
    assert.match(unasked.stderr, /not asked, as this is not a terminal; pass --yes/)
    assert.equal((await client.assets.get(id)).name, 'Changed', 'nothing deleted')

    if (terminal) {
      const declined = await runInTerminal(['assets', 'delete', id], env, 'n\n')
      assert.match(declined.stdout, new RegExp(`Delete asset ${id} "Changed" \\(remote_asset, paused\\)\\? \\[y/N\\]`))
      assert.match(declined.stdout, /Not deleted\./)
      assert.equal((await client.assets.get(id)).name, 'Changed')
      const accepted = await runInTerminal(['assets', 'delete', id], env, 'y\n')
      assert.equal(accepted.status, 0, accepted.stdout)
      assert.match(accepted.stdout, new RegExp(`Deleted asset ${id}\\.`))
    } else {
      t.diagnostic('util-linux `script` is not installed: the terminal question is not tried')
      assert.equal((await runCli(['assets', 'delete', id, '--yes'], env)).status, 0)
    }
    const again = await runCli(['assets', 'delete', id, '--yes'], env)
    assert.equal(again.status, 1)
    assert.match(again.stderr, /\(404 asset_not_found\)/)
  })

  it('prints the labels as a tree, and the users without secrets', async (t) => {
    await client.labels.createByFullPath('/Films/Shorts')
    await client.labels.createByFullPath('/Films/Features')
    await client.labels.createByFullPath('/Music')
    const users = await runCli(['users', 'list'], env)
    assert.equal(users.status, 0, users.stderr)
    assert.deepEqual(users.stdout.trimEnd().split('\n').map((line) => JSON.parse(line).role), ['administrator'])
    const piped = await runCli(['labels', 'tree'], env)
    assert.deepEqual(piped.stdout.trimEnd().split('\n').map((line) => JSON.parse(line).full_name), ['/Films', '/Films/Features', '/Films/Shorts', '/Music'])
    if (!terminal) { t.skip('util-linux `script` is not installed'); return }
    const tree = await runInTerminal(['labels', 'tree'], env)
    assert.deepEqual(tree.stdout.trimEnd().split('\n').map((line) => line.replace(/ {2}[0-9a-f]{32}$/, '')), ['Films', '  Features', '  Shorts', 'Music'])
  })

  it('sets an account\'s credit allowance with `accounts update`, which GET /v2/account then shows', async () => {
    const admin = JSON.parse(readFileSync(join(dataDir, 'admin-credentials.json'), 'utf8'))
    const operator = { ...env, REELHOUSE_MASTER_KEY: TEST_MASTER_KEY }
    const set = await runCli(['accounts', 'update', admin.account_id, '--credits-per-minute', '5000'], operator)
    assert.equal(set.status, 0, set.stderr)
    assert.deepEqual([JSON.parse(set.stdout).credits_per_minute, JSON.parse(set.stdout).credits_per_minute_source], [5000, 'account'])
    const shown = await runCli(['get', 'v2/account'], env)
    assert.deepEqual([JSON.parse(shown.stdout).id, JSON.parse(shown.stdout).credits_per_minute], [admin.account_id, 5000])

    const bad = await runCli(['accounts', 'update', admin.account_id, '--credits-per-minute', 'lots'], operator)
    assert.equal(bad.status, 2)
    assert.match(bad.stderr, /^reelhouse: --credits-per-minute must be a whole number from 1 to 1000000000, or default, not "lots"/)
    const missing = await runCli(['accounts', 'update', 'f'.repeat(32), '--credits-per-minute', '10'], operator)
    assert.equal(missing.status, 1)
    assert.match(missing.stderr, /^reelhouse: Account f{32} does not exist\./)
  })

  it('forgets the server when it stops', async () => {
    await server?.close()
    server = undefined
    assert.equal(existsSync(join(dataDir, RUNNING_SERVER_FILE)), false)
    const stopped = await runCli(['sign', 'GET', '/v2/labels'], env)
    assert.match(stopped.stdout, /^https:\/\/localhost:8443\//)
  })
})
