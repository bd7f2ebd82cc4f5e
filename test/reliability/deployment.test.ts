import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import pg from 'pg'
import { signedPath } from '../../src/signing/index.ts'
import { TEST_MASTER_KEY } from '../support/app.ts'
import { runCli, startCli, type CliProcess } from '../support/cli.ts'

// The scale-out deployment of docs/deployment.md as separate processes sharing one data directory:
// `serve --role api` twice, `cdn`, `indexer` and `worker`, on PostgreSQL (DATABASE_URL and ANALYTICS_URL),
// Redis and RabbitMQ (a vhost of its own). Writes on one api are read on the other and found by search;
// the worker killed with SIGKILL mid-load and restarted loses no index update; two api processes racing
// for an account's last credits serve exactly its allowance.
const { TEST_DATABASE_URL: DB, TEST_REDIS_URL: REDIS, TEST_AMQP_URL: AMQP, TEST_RABBITMQ_MANAGEMENT_URL: MANAGEMENT } = process.env
const missing = Object.entries({ TEST_DATABASE_URL: DB, TEST_REDIS_URL: REDIS, TEST_AMQP_URL: AMQP, TEST_RABBITMQ_MANAGEMENT_URL: MANAGEMENT }).filter(([, v]) => v === undefined).map(([k]) => k)
const skip = missing.length > 0 ? `${missing.join(', ')} not set` : false
const HEADERS = { 'x-forwarded-proto': 'https', 'content-type': 'application/json' }
const ALLOWANCE = 40

interface Admin { api_key: string, secret: string }

async function onPostgres (statement: string, database?: string): Promise<void> {
  const url = new URL(DB as string)
  if (database !== undefined) url.pathname = `/${database}`
  const client = new pg.Client({ connectionString: url.toString() })
  await client.connect()
  try { await client.query(statement) } finally { await client.end() }
}

async function management (method: string, path: string, body?: unknown): Promise<void> {
  const url = new URL(MANAGEMENT as string)
  const auth = `Basic ${Buffer.from(`${decodeURIComponent(url.username || 'guest')}:${decodeURIComponent(url.password || 'guest')}`).toString('base64')}`
  url.username = ''
  url.password = ''
  const res = await fetch(`${url.origin}${path}`, { method, headers: { authorization: auth, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
  assert.ok(res.ok || res.status === 404, `${method} ${path}: ${res.status}`)
}

describe('the multi-process deployment on PostgreSQL, Redis and RabbitMQ', { skip }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-deploy-'))
  const run = randomBytes(5).toString('hex')
  const vhost = `reelhouse-${run}`
  // A database of its own per run (and one for analytics), dropped afterwards.
  const withPath = (name: string): string => {
    const url = new URL(DB as string)
    url.pathname = `/${name}`
    return url.toString()
  }
  const amqp = (): string => { const url = new URL(AMQP as string); url.pathname = `/${encodeURIComponent(vhost)}`; return url.toString() }
  const env = (extra: Record<string, string> = {}): Record<string, string> => ({
    REELHOUSE_DATA_DIR: dataDir, REELHOUSE_MASTER_KEY: TEST_MASTER_KEY, HOST: '127.0.0.1', API_PORT: '0', CDN_PORT: '0', INDEXER_PORT: '0',
    TRUST_PROXY: 'true', LOG_LEVEL: 'warn', DATABASE_URL: withPath(`d_${run}`), ANALYTICS_URL: withPath(`a_${run}`), REDIS_URL: REDIS as string,
    AMQP_URL: amqp(), RABBITMQ_MANAGEMENT_URL: MANAGEMENT as string, ...extra
  })
  const processes: CliProcess[] = []
  const start = async (role: string, extra: Record<string, string> = {}): Promise<{ process: CliProcess, url?: string }> => {
    const child = startCli(['serve', '--role', role], env(extra))
    processes.push(child)
    await child.waitFor(/^Reelhouse is running/)
    const line = role === 'api' ? await child.waitFor(/^api: /) : role === 'cdn' ? await child.waitFor(/^cdn: /) : undefined
    return { process: child, url: line === undefined ? undefined : (/http:\/\/127\.0\.0\.1:\d+/.exec(line) as RegExpExecArray)[0] }
  }
  let api: string[] = []
  let worker: CliProcess
  let admin: Admin
  const signed = async (base: string, method: string, path: string, body?: unknown, as: Admin = admin): Promise<Response> => {
    const text = body === undefined ? undefined : JSON.stringify(body)
    return await fetch(base + signedPath({ apiKey: as.api_key, secret: as.secret, method, path, body: text }), { method, body: text, headers: HEADERS })
  }

  before(async () => {
    await onPostgres(`CREATE DATABASE d_${run}`)
    await onPostgres(`CREATE DATABASE a_${run}`)
    await management('PUT', `/api/vhosts/${encodeURIComponent(vhost)}`)
    await management('PUT', `/api/permissions/${encodeURIComponent(vhost)}/${encodeURIComponent(new URL(AMQP as string).username || 'guest')}`, { configure: '.*', write: '.*', read: '.*' })
    // The first api creates the first account; the others start once it exists.
    const first = await start('api')
    admin = JSON.parse(readFileSync(join(dataDir, 'admin-credentials.json'), 'utf8')) as Admin
    const second = await start('api')
    api = [first.url as string, second.url as string]
    await start('cdn')
    await start('indexer')
    worker = (await start('worker')).process
  })
  after(async () => {
    for (const child of processes) await child.stop('SIGKILL')
    await onPostgres(`DROP DATABASE IF EXISTS d_${run} WITH (FORCE)`).catch(() => {})
    await onPostgres(`DROP DATABASE IF EXISTS a_${run} WITH (FORCE)`).catch(() => {})
    await management('DELETE', `/api/vhosts/${encodeURIComponent(vhost)}`).catch(() => {})
    rmSync(dataDir, { recursive: true, force: true })
  })

  /** Every asset whose name holds `word`, found through the search index (a `where` text predicate), on `base`. */
  const found = async (base: string, word: string): Promise<Set<string>> => {
    const res = await signed(base, 'GET', `/v2/assets?limit=500&where=${encodeURIComponent(`name INCLUDES '${word}'`)}`)
    assert.equal(res.status, 200, await res.clone().text())
    return new Set((await res.json() as { items: Array<{ embed_code: string }> }).items.map((a) => a.embed_code))
  }
  const untilFound = async (word: string, ids: string[]): Promise<Set<string>> => {
    let seen = new Set<string>()
    // Indexing is asynchronous: ask again (bounded) until every id is found.
    for (let attempt = 0; attempt < 300; attempt++) {
      seen = await found(api[attempt % 2] as string, word)
      if (ids.every((id) => seen.has(id))) break
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    return seen
  }
  const create = async (base: string, name: string): Promise<string> => {
    const res = await signed(base, 'POST', '/v2/assets', { asset_type: 'remote_asset', name, stream_urls: { source_file: 'https://cdn.example.com/a.mp4' } })
    assert.equal(res.status, 200, await res.clone().text())
    return (await res.json() as { embed_code: string }).embed_code
  }

  it('reads on one api what was written on the other, and finds it by search', async () => {
    const ids: string[] = []
    for (let i = 0; i < 10; i++) ids.push(await create(api[i % 2] as string, `spread ${i}`))
    for (const [i, id] of ids.entries()) assert.equal((await signed(api[(i + 1) % 2] as string, 'GET', `/v2/assets/${id}`)).status, 200)
    const seen = await untilFound('spread', ids)
    assert.deepEqual(ids.filter((id) => !seen.has(id)), [], 'not found by search')
  })

  it('loses no index update when the worker is killed with SIGKILL mid-load and started again', async () => {
    const ids: string[] = []
    for (let i = 0; i < 30; i++) {
      ids.push(await create(api[i % 2] as string, `surviving ${i}`))
      if (i === 10) await worker.stop('SIGKILL')
    }
    worker = (await start('worker')).process
    const seen = await untilFound('surviving', ids)
    assert.deepEqual(ids.filter((id) => !seen.has(id)), [], 'index updates lost')
  })

  it(`serves exactly ${ALLOWANCE} requests when two api processes race for an account's last credits`, async () => {
    const created = await runCli(['accounts', 'create', '--name', 'Racers'], env())
    assert.equal(created.status, 0, created.stderr)
    const { account, administrator: racer } = JSON.parse(created.stdout) as { account: { id: string }, administrator: Admin }
    await onPostgres(`UPDATE accounts SET credits_per_minute = ${ALLOWANCE} WHERE id = '${account.id}'`, `d_${run}`)
    // A credit window is one clock minute: start the race well inside one.
    while (new Date().getSeconds() > 50) await new Promise((resolve) => setTimeout(resolve, 500))
    const answers = await Promise.all(Array.from({ length: 3 * ALLOWANCE }, async (_, i) => (await signed(api[i % 2] as string, 'GET', '/v2/labels', undefined, racer)).status))
    const served = answers.filter((status) => status === 200).length
    const refused = answers.filter((status) => status === 429).length
    assert.equal(served + refused, 3 * ALLOWANCE, JSON.stringify(answers))
    assert.equal(served, ALLOWANCE, JSON.stringify(answers))
  })
})
