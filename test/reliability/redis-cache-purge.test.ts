import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import pg from 'pg'
import { signedPath } from '../../src/signing/index.ts'
import { TEST_MASTER_KEY } from '../support/app.ts'
import { startCli, type CliProcess } from '../support/cli.ts'
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts'

// Purges lost while Redis was away. On PostgreSQL the invalidation bus (NOTIFY) stays up while the
// shared response cache in Redis is cut, so every process hears the writes but none can purge the
// cache. Two real processes, `serve --role api cdn` and `serve --role cdn`, reach Redis through one TCP
// proxy the test cuts; during the cut a read_only user is deleted and a label renamed. Once Redis is
// back, neither cached variant may serve what those purges covered, and each process logged the
// outage once and its end once.
const { TEST_DATABASE_URL: DB, TEST_REDIS_URL: REDIS } = process.env
const missing = Object.entries({ TEST_DATABASE_URL: DB, TEST_REDIS_URL: REDIS }).filter(([, v]) => v === undefined).map(([k]) => k)
const skip = missing.length > 0 ? `${missing.join(', ')} not set` : false
const HEADERS = { 'x-forwarded-proto': 'https', 'content-type': 'application/json' }
/** A fixed `expires`, so that a URL stays one cache entry. */
const FAR = Math.floor(Date.UTC(2031, 0, 1) / 1000)

interface Credentials { api_key: string, secret: string }

async function onPostgres (statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: DB })
  await client.connect()
  try { await client.query(statement) } finally { await client.end() }
}

async function until (what: string, check: () => Promise<boolean>, limitMs = 15_000): Promise<void> {
  const started = Date.now()
  while (!(await check())) {
    if (Date.now() - started > limitMs) throw new Error(`${what}: not seen within ${limitMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

describe('purges lost while the shared response cache (Redis) was cut, on PostgreSQL', { skip }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-cache-purge-'))
  const run = randomBytes(5).toString('hex')
  const database = (): string => { const url = new URL(DB as string); url.pathname = `/p_${run}`; return url.toString() }
  let proxy: TcpProxy
  const processes: CliProcess[] = []
  let api: string
  let cdns: string[] = []
  let admin: Credentials

  const start = async (roles: string[]): Promise<CliProcess> => {
    const child = startCli(['serve', '--role', ...roles], {
      REELHOUSE_DATA_DIR: dataDir, REELHOUSE_MASTER_KEY: TEST_MASTER_KEY, HOST: '127.0.0.1', API_PORT: '0', CDN_PORT: '0',
      TRUST_PROXY: 'true', LOG_FORMAT: 'json', LOG_LEVEL: 'info', DATABASE_URL: database(), REDIS_URL: proxy.through(REDIS as string)
    })
    processes.push(child)
    await child.waitFor(/^Reelhouse is running/)
    return child
  }
  const urlOf = (line: string): string => (/http:\/\/127\.0\.0\.1:\d+/.exec(line) as RegExpExecArray)[0]

  before(async () => {
    await onPostgres(`CREATE DATABASE p_${run}`)
    proxy = await startTcpProxy(REDIS as string)
    const first = await start(['api', 'cdn'])
    api = urlOf(await first.waitFor(/^api: /))
    admin = JSON.parse(readFileSync(join(dataDir, 'admin-credentials.json'), 'utf8')) as Credentials
    const second = await start(['cdn'])
    cdns = [urlOf(await first.waitFor(/^cdn: /)), urlOf(await second.waitFor(/^cdn: /))]
  })
  after(async () => {
    for (const child of processes) await child.stop('SIGKILL')
    await proxy?.close()
    await onPostgres(`DROP DATABASE IF EXISTS p_${run} WITH (FORCE)`).catch(() => {})
    rmSync(dataDir, { recursive: true, force: true })
  })

  const signed = (method: string, path: string, as: Credentials, body?: string, expires = FAR): string =>
    signedPath({ apiKey: as.api_key, secret: as.secret, method, path, body, expires })
  const write = async (method: string, path: string, body?: object): Promise<Record<string, any>> => {
    const text = body === undefined ? undefined : JSON.stringify(body)
    const res = await fetch(api + signed(method, path, admin, text), { method, body: text, headers: HEADERS })
    assert.equal(res.status, 200, await res.clone().text())
    return await res.json() as Record<string, any>
  }
  const cdnGet = async (base: string, path: string, as: Credentials, expires = FAR): Promise<{ status: number, cache: string | null, body: string }> => {
    const res = await fetch(base + signed('GET', path, as, undefined, expires))
    return { status: res.status, cache: res.headers.get('x-cache'), body: await res.text() }
  }
  /** Whether this cached variant stores and serves from Redis: a URL never asked before is a MISS, then a HIT. */
  const servesFromRedis = async (base: string, probe: number): Promise<boolean> => {
    const path = '/v2/players'
    if ((await cdnGet(base, path, admin, FAR + probe)).status !== 200) return false
    return (await cdnGet(base, path, admin, FAR + probe)).cache === 'HIT'
  }
  const logs = (child: CliProcess): Array<Record<string, any>> =>
    child.stdout.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, any>)

  it('serves neither the deleted user\'s cached URL nor the label\'s old name once Redis is back, on either process', async () => {
    const user = await write('POST', '/v2/users', { name: 'Reader', role: 'read_only' })
    const reader: Credentials = { api_key: user.api_key, secret: user.secret }
    const label = await write('POST', '/v2/labels', { name: 'Before the cut' })
    // One label, two signers: the reader's URL (purged by the deletion) and the administrator's (by the rename).
    const readersPath = `/v2/labels/${label.id as string}`
    const renamedPath = readersPath
    // The cache is shared: the first process's MISS is a HIT on both.
    assert.deepEqual([(await cdnGet(cdns[0], readersPath, reader)).cache, (await cdnGet(cdns[0], readersPath, reader)).cache], ['MISS', 'HIT'])
    for (const cdn of cdns) {
      assert.equal((await cdnGet(cdn, readersPath, reader)).cache, 'HIT')
      await until('the label cached for the administrator', async () => (await cdnGet(cdn, renamedPath, admin)).cache === 'HIT')
      await until('the label list cached', async () => (await cdnGet(cdn, '/v2/labels', admin)).cache === 'HIT')
    }

    proxy.cut()
    await write('DELETE', `/v2/users/${user.id as string}`)
    await write('PATCH', `/v2/labels/${label.id as string}`, { name: 'Renamed during the cut' })
    assert.equal((await fetch(api + signed('GET', readersPath, reader), { headers: HEADERS })).status, 401)
    // Every process has heard both writes over the database's bus (and failed to purge Redis).
    for (const cdn of cdns) {
      await until('the deleted user refused during the cut', async () => (await cdnGet(cdn, readersPath, reader)).status === 401)
      await until('the new name shown during the cut', async () => /Renamed during the cut/.test((await cdnGet(cdn, renamedPath, admin)).body))
    }

    proxy.restore()
    let probe = 0
    for (const cdn of cdns) await until('the cached variant serving from Redis again', async () => await servesFromRedis(cdn, ++probe))
    // Asked twice, a second apart: a cache that kept the stale entries serves them every time.
    for (let round = 0; round < 2; round++) {
      for (const [index, cdn] of cdns.entries()) {
        const deleted = await cdnGet(cdn, readersPath, reader)
        assert.equal(deleted.status, 401, `process ${index + 1}: the deleted user's URL answered ${deleted.status} x-cache ${String(deleted.cache)}`)
        const renamed = await cdnGet(cdn, renamedPath, admin)
        assert.equal(renamed.status, 200)
        assert.match(renamed.body, /Renamed during the cut/, `process ${index + 1}: the label (x-cache ${String(renamed.cache)})`)
        const listed = await cdnGet(cdn, '/v2/labels', admin)
        assert.match(listed.body, /Renamed during the cut/, `process ${index + 1}: the label list (x-cache ${String(listed.cache)})`)
        assert.doesNotMatch(listed.body, /Before the cut/)
      }
      await new Promise((resolve) => setTimeout(resolve, 1000))
    }
    assert.equal((await fetch(api + signed('GET', readersPath, reader), { headers: HEADERS })).status, 401)
  })

  it('logged the response cache\'s outage once and its end once on each process, and no purge failure per change', () => {
    for (const [index, child] of processes.entries()) {
      const entries = logs(child)
      const about = (pattern: RegExp): number => entries.filter((entry) => pattern.test(String(entry.msg))).length
      const name = `process ${index + 1}`
      assert.equal(about(/response cache \(Redis\) unreachable/), 1, `${name}: the outage once`)
      assert.equal(about(/response cache \(Redis\) reachable again/), 1, `${name}: its end once`)
      assert.equal(about(/purge failed/), 0, `${name}: no line per lost purge`)
      const warnings = entries.filter((entry) => entry.level >= 40).map((entry) => String(entry.msg))
      assert.deepEqual(warnings.filter((msg, i) => warnings.indexOf(msg) !== i), [], `${name}: no warning repeated`)
    }
  })
})
