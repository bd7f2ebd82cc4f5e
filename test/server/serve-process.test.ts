import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { signedPath } from '../../src/signing/index.ts'
import { TEST_MASTER_KEY } from '../support/app.ts'
import { runCli, startCli, type CliProcess } from '../support/cli.ts'

/** `reelhouse serve` on loopback, ports chosen by the system, behind a "proxy" (plain HTTP with X-Forwarded-Proto). */
function serveEnv (dataDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return { REELHOUSE_DATA_DIR: dataDir, REELHOUSE_MASTER_KEY: TEST_MASTER_KEY, HOST: '127.0.0.1', API_PORT: '0', CDN_PORT: '0', INDEXER_PORT: '0', TRUST_PROXY: 'true', ...extra }
}

/** The api's base URL, once the server is up and stops cleanly on a signal. */
async function started (server: CliProcess): Promise<string> {
  await server.waitFor(/^Reelhouse is running/)
  return (/http:\/\/127\.0\.0\.1:\d+/.exec(await server.waitFor(/^api: /)) as RegExpExecArray)[0]
}

interface Admin { api_key: string, secret: string }

/** A signed GET whose URL carries the API key and signature, and an unsigned /health after it; their request ids. */
async function twoRequests (base: string, admin: Admin): Promise<{ labels: string, health: string }> {
  const headers = { 'x-forwarded-proto': 'https' }
  const labels = await fetch(base + signedPath({ apiKey: admin.api_key, secret: admin.secret, method: 'GET', path: '/v2/labels' }), { headers })
  assert.equal(labels.status, 200, await labels.clone().text())
  const health = await fetch(`${base}/health`, { headers })
  assert.equal(health.status, 200)
  return { labels: labels.headers.get('x-request-id') as string, health: health.headers.get('x-request-id') as string }
}

describe('reelhouse serve as a process, JSON logs (standard output is not a terminal)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-serve-'))
  let server: CliProcess
  let base: string
  before(async () => {
    server = startCli(['serve', '--role', 'api'], serveEnv(dataDir))
    base = await started(server)
  })
  after(async () => {
    await server.stop('SIGKILL')
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('logs one JSON line per request when it is answered, the key and signature redacted', async () => {
    const admin = JSON.parse(readFileSync(join(dataDir, 'admin-credentials.json'), 'utf8')) as Admin
    const ids = await twoRequests(base, admin)
    // Lines are written in order: once the second request's line is out, the first one's all are.
    await server.waitFor(new RegExp(ids.health))
    const logs = server.stdout.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, any>)
    const ofLabels = logs.filter((entry) => entry.reqId === ids.labels)
    assert.equal(ofLabels.length, 1, JSON.stringify(ofLabels))
    assert.equal(ofLabels[0].msg, 'request completed')
    assert.equal(ofLabels[0].req.method, 'GET')
    assert.match(ofLabels[0].req.url, /^\/v2\/labels\?api_key=\[redacted\]&expires=\d+&signature=\[redacted\]$/)
    assert.equal(ofLabels[0].res.statusCode, 200)
    assert.equal(typeof ofLabels[0].responseTime, 'number')
    assert.ok(!logs.some((entry) => entry.msg === 'incoming request'))
    const logText = server.stdout.filter((line) => line.startsWith('{')).join('\n')
    assert.ok(!logText.includes(admin.api_key) && !logText.includes(admin.secret))
  })

  it('keeps the operator banner out of the logs: plain lines, not JSON', () => {
    assert.ok(server.stdout.some((line) => line.startsWith('Created the first account')))
    assert.ok(server.stdout.some((line) => /^ {2}api key: {4}\S+$/.test(line)))
  })

  it('refuses a second server on the same data directory, naming the process that runs', async () => {
    const pid = Number(readFileSync(join(dataDir, 'reelhouse.pid'), 'utf8'))
    assert.equal(pid, server.child.pid)
    const second = await runCli(['serve', '--role', 'api'], serveEnv(dataDir))
    assert.equal(second.status, 1)
    assert.equal(second.stderr.trim(), `Reelhouse is already running on this data directory (pid ${pid})`)
    assert.equal(Number(readFileSync(join(dataDir, 'reelhouse.pid'), 'utf8')), pid, 'the lock still names the first server')
  })

  it('lets a process that does not open the embedded analytics store share the data directory', async () => {
    const cdn = startCli(['serve', '--role', 'cdn'], serveEnv(dataDir))
    await cdn.waitFor(/^cdn: /)
    await cdn.waitFor(/^Reelhouse is running/)
    assert.equal(await cdn.stop('SIGTERM'), 0)
  })

  it('says it is stopping and has stopped on SIGTERM, exits 0 and leaves no lock behind', async () => {
    assert.equal(await server.stop('SIGTERM'), 0)
    const stopping = server.stdout.indexOf('Reelhouse stopping… (SIGTERM)')
    assert.ok(stopping !== -1, server.stdout.join('\n'))
    assert.ok(server.stdout.indexOf('Reelhouse stopped') > stopping)
    assert.equal(existsSync(join(dataDir, 'reelhouse.pid')), false)
  })
})

describe('reelhouse serve as a process, LOG_FORMAT=pretty', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-serve-'))
  let server: CliProcess
  after(async () => {
    await server.stop('SIGKILL')
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('logs one readable line per request: method, redacted URL, status, time and request id', async () => {
    server = startCli(['serve', '--role', 'api'], serveEnv(dataDir, { LOG_FORMAT: 'pretty' }))
    const base = await started(server)
    const admin = JSON.parse(readFileSync(join(dataDir, 'admin-credentials.json'), 'utf8')) as Admin
    const ids = await twoRequests(base, admin)
    await server.waitFor(new RegExp(ids.health))
    const ofLabels = server.stdout.filter((line) => line.includes(ids.labels))
    assert.equal(ofLabels.length, 1, ofLabels.join('\n'))
    assert.match(ofLabels[0] as string, new RegExp(`^\\[\\d\\d:\\d\\d:\\d\\d\\.\\d{3}\\] INFO: GET /v2/labels\\?api_key=\\[redacted\\]&expires=\\d+&signature=\\[redacted\\] 200 \\d+\\.\\d ms ${ids.labels}$`))
    assert.ok(!server.stdout.some((line) => line.startsWith('{')), 'no JSON line')
    const logText = server.stdout.filter((line) => line.startsWith('[')).join('\n')
    assert.ok(!logText.includes(admin.api_key) && !logText.includes(admin.secret))
  })
})
