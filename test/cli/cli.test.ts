import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { Reelhouse } from 'reelhouse/client'
import { fetchWithCa } from 'reelhouse/client/node'
import { loadConfig } from '../../src/config/index.ts'
import { serve, type RunningServer } from '../../src/server/serve.ts'
import { signedPath } from '../../src/signing/index.ts'
import { TEST_MASTER_KEY } from '../support/app.ts'
import { CLI, cliEnv, ROOT, runCli } from '../support/cli.ts'

/** The key and expiry of a URL `sign` printed, and whether its signature is the one `secret` gives. */
function signedWith (url: string, secret: string): { apiKey: string | null, matches: boolean } {
  const parsed = new URL(url)
  const apiKey = parsed.searchParams.get('api_key')
  const expected = signedPath({ apiKey: apiKey ?? '', secret, method: 'GET', path: '/v2/users', expires: Number(parsed.searchParams.get('expires')) })
  return { apiKey, matches: parsed.pathname + parsed.search === expected }
}

describe('reelhouse sign and profiles (no server)', () => {
  const root = mkdtempSync(join(tmpdir(), 'reelhouse-cli-'))
  const dataDir = join(root, 'data')
  const env = { REELHOUSE_DATA_DIR: dataDir, XDG_CONFIG_HOME: join(root, 'config') }
  before(async () => {
    // The first-start credentials file a server would have written: what the old CLI fell back to.
    const { writeFileSync, mkdirSync } = await import('node:fs')
    mkdirSync(dataDir)
    writeFileSync(join(dataDir, 'admin-credentials.json'), JSON.stringify({ api_key: 'admin-key', secret: 'admin-secret' }), { mode: 0o600 })
  })
  after(() => { rmSync(root, { recursive: true, force: true }) })

  it('prints the console sign-in link from PUBLIC_API_URL, the key and secret in its fragment', async () => {
    const secret = 'a+b/c=d&e'
    const { status, stdout, stderr } = await runCli(['console', '--api-key', 'acct.key1', '--secret', secret], { ...env, PUBLIC_API_URL: 'https://media.example:9443/' })
    assert.equal(status, 0, stderr)
    const link = new URL(stdout.trim())
    assert.equal(`${link.origin}${link.pathname}${link.search}`, 'https://media.example:9443/console')
    const fragment = new URLSearchParams(link.hash.slice(1))
    assert.deepEqual([...fragment.keys()], ['api_key', 'secret'])
    assert.equal(fragment.get('api_key'), 'acct.key1')
    assert.equal(fragment.get('secret'), secret)
    const fallback = await runCli(['console'], env)
    assert.equal(new URLSearchParams(new URL(fallback.stdout.trim()).hash.slice(1)).get('secret'), 'admin-secret', 'without flags, the first administrator')
  })

  it('refuses a lone --secret instead of signing with the administrator\'s', async () => {
    const { status, stdout, stderr } = await runCli(['sign', 'GET', '/v2/users', '--secret', 'WRONG'], env)
    assert.equal(status, 1)
    assert.equal(stdout, '')
    assert.match(stderr, /^reelhouse: --secret is given but --api-key is not: a key and its secret must come from the same place, so give --api-key too/)
  })

  it('signs with --api-key and --secret when both are given', async () => {
    const { status, stdout } = await runCli(['sign', 'GET', '/v2/users', '--api-key', 'flag-key', '--secret', 'flag-secret'], env)
    assert.equal(status, 0)
    assert.deepEqual(signedWith(stdout.split('\n')[0] as string, 'flag-secret'), { apiKey: 'flag-key', matches: true })
  })

  it('saves a profile owner-only, lists it without its secret, and signs with it', async () => {
    const saved = await runCli(['profile', 'set', 'prod', '--api-key', 'prod-key', '--secret', 'prod-secret'], env)
    assert.equal(saved.status, 0, saved.stderr)
    const file = join(root, 'config', 'reelhouse', 'credentials')
    assert.equal(saved.stdout.trim(), `saved profile "prod" in ${file}`)
    assert.equal(statSync(file).mode & 0o777, 0o600)

    const listed = await runCli(['profile', 'list'], env)
    assert.equal(listed.stdout, 'prod  prod-key\n')
    assert.ok(!listed.stdout.includes('prod-secret'))

    const byFlag = await runCli(['sign', 'GET', '/v2/users', '--profile', 'prod'], env)
    assert.deepEqual(signedWith(byFlag.stdout.split('\n')[0] as string, 'prod-secret'), { apiKey: 'prod-key', matches: true })
    const byVariable = await runCli(['sign', 'GET', '/v2/users'], { ...env, REELHOUSE_PROFILE: 'prod' })
    assert.deepEqual(signedWith(byVariable.stdout.split('\n')[0] as string, 'prod-secret'), { apiKey: 'prod-key', matches: true })
  })

  it('refuses a profile file that others can read, and a profile set with half a pair', async () => {
    const file = join(root, 'config', 'reelhouse', 'credentials')
    await runCli(['profile', 'set', 'prod', '--api-key', 'prod-key', '--secret', 'prod-secret'], env)
    chmodSync(file, 0o640)
    const refused = await runCli(['sign', 'GET', '/v2/users', '--profile', 'prod'], env)
    assert.equal(refused.status, 1)
    assert.match(refused.stderr, /other users may access it \(mode 0640\), so it is not read\. Run: chmod 600/)
    chmodSync(file, 0o600)

    const half = await runCli(['profile', 'set', 'dev', '--api-key', 'dev-key'], env)
    assert.equal(half.status, 1)
    assert.match(half.stderr, /profile set needs both --api-key and --secret; missing: --secret/)
    assert.doesNotMatch(readFileSync(file, 'utf8'), /dev-key/)
  })
})

describe('reelhouse get/post against a running server', () => {
  let server: RunningServer
  let dataDir: string
  let base: string
  let admin: { api_key: string, secret: string, account_id: string, account_code: string }
  let client: Reelhouse
  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-cli-server-'))
    server = await serve(loadConfig({ REELHOUSE_DATA_DIR: dataDir, REELHOUSE_MASTER_KEY: TEST_MASTER_KEY, HOST: '127.0.0.1', API_PORT: '0', LOG_LEVEL: 'silent' }), ['api'], () => {})
    base = `https://127.0.0.1:${(server.apps.api?.server.address() as { port: number }).port}`
    admin = JSON.parse(readFileSync(join(dataDir, 'admin-credentials.json'), 'utf8'))
    client = new Reelhouse({ baseUrl: base, apiKey: admin.api_key, secret: admin.secret, fetch: fetchWithCa({ ca: readFileSync(join(dataDir, 'tls-cert.pem')) }) })
  })
  after(async () => {
    await server.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('refuses a read-only key without its secret instead of posting as the administrator, and creates nothing', async () => {
    const reader = await server.ctx.services.users.createIn({ id: admin.account_id, code: admin.account_code }, { name: 'Reader', role: 'read_only' })
    const env = { REELHOUSE_DATA_DIR: dataDir }
    const lone = await runCli(['post', '/v2/labels', '--base-url', base, '--api-key', reader.api_key, '--body', '{"name":"Made by a reader"}'], env)
    assert.equal(lone.status, 1)
    assert.match(lone.stderr, /--api-key is given but --secret is not/)
    const both = await runCli(['post', '/v2/labels', '--base-url', base, '--api-key', reader.api_key, '--secret', reader.secret, '--body', '{"name":"Made by a reader"}'], env)
    assert.equal(both.status, 1, 'the reader\'s own key is used, and its role refuses the write')
    assert.match(both.stderr, /^reelhouse: /)
    const labels = await client.request<{ items: Array<{ name: string }> }>('GET', '/v2/labels')
    assert.deepEqual(labels.items.map((label) => label.name), [])
  })

  it('exits quietly when the reader of its output goes away (`get --all | head -1`)', async () => {
    // Each label prints about 1.5 KB (255 three-byte characters in its name and full name): 200 of them
    // are far more than a pipe buffers (64 KiB), so the command is still writing when head has gone.
    for (let i = 0; i < 200; i++) await client.labels.create({ name: `${String(i).padStart(3, '0')}${'€'.repeat(252)}` })
    const env = cliEnv({ REELHOUSE_DATA_DIR: dataDir, BASE: base, CLI })
    const whole = await runCli(['get', '/v2/labels', '--all', '--base-url', base], { REELHOUSE_DATA_DIR: dataDir })
    assert.equal(whole.status, 0, whole.stderr)
    assert.ok(Buffer.byteLength(whole.stdout) > 4 * 65_536, `the output is ${Buffer.byteLength(whole.stdout)} bytes`)

    // eslint-disable-next-line no-template-curly-in-string -- bash's ${PIPESTATUS[0]}, not a template.
    const shell = spawn('bash', ['-c', '"$NODE" "$CLI" get /v2/labels --all --base-url "$BASE" 2>"$ERRORS" | head -1; echo "exit=${PIPESTATUS[0]}"'], {
      cwd: ROOT, env: { ...env, NODE: process.execPath, ERRORS: join(dataDir, 'cli-stderr.txt') }
    })
    let output = ''
    shell.stdout.on('data', (chunk: Buffer) => { output += chunk.toString() })
    await once(shell, 'close')
    const [first, exit] = output.trim().split('\n')
    assert.equal((JSON.parse(first as string) as { name: string }).name.slice(0, 3), '000')
    assert.equal(exit, 'exit=0')
    assert.equal(readFileSync(join(dataDir, 'cli-stderr.txt'), 'utf8'), '', 'no EPIPE stack trace')
  })
})
