import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { signedPath } from '../../src/signing/index.ts'
import { TEST_MASTER_KEY } from '../support/app.ts'
import { startCli, type CliProcess } from '../support/cli.ts'
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts'

// RabbitMQ cut mid-load through a TCP proxy the test owns, under a real `serve` (every role, the
// embedded database, the index queue on RabbitMQ in a vhost of its own): writes keep being acknowledged
// while the broker is away, and once it is back every one of them is found by search — none lost.
const { TEST_AMQP_URL: AMQP, TEST_RABBITMQ_MANAGEMENT_URL: MANAGEMENT } = process.env
const missing = Object.entries({ TEST_AMQP_URL: AMQP, TEST_RABBITMQ_MANAGEMENT_URL: MANAGEMENT }).filter(([, v]) => v === undefined).map(([k]) => k)
const HEADERS = { 'x-forwarded-proto': 'https', 'content-type': 'application/json' }

interface Admin { api_key: string, secret: string }

async function management (method: string, path: string, body?: unknown): Promise<void> {
  const url = new URL(MANAGEMENT as string)
  const auth = `Basic ${Buffer.from(`${decodeURIComponent(url.username || 'guest')}:${decodeURIComponent(url.password || 'guest')}`).toString('base64')}`
  const res = await fetch(`${url.origin}${path}`, { method, headers: { authorization: auth, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
  assert.ok(res.ok || res.status === 404, `${method} ${path}: ${res.status}`)
}

describe('RabbitMQ cut mid-load under a serving process', { skip: missing.length > 0 ? `${missing.join(', ')} not set` : false }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-amqp-cut-'))
  const vhost = `reelhouse-cut-${randomBytes(5).toString('hex')}`
  let proxy: TcpProxy
  let server: CliProcess
  let base: string
  let admin: Admin

  before(async () => {
    await management('PUT', `/api/vhosts/${encodeURIComponent(vhost)}`)
    await management('PUT', `/api/permissions/${encodeURIComponent(vhost)}/${encodeURIComponent(new URL(AMQP as string).username || 'guest')}`, { configure: '.*', write: '.*', read: '.*' })
    const amqp = new URL(AMQP as string)
    if (amqp.port === '') amqp.port = '5672'
    proxy = await startTcpProxy(amqp.toString())
    amqp.pathname = `/${encodeURIComponent(vhost)}`
    server = startCli(['serve'], {
      REELHOUSE_DATA_DIR: dataDir, REELHOUSE_MASTER_KEY: TEST_MASTER_KEY, HOST: '127.0.0.1', API_PORT: '0', CDN_PORT: '0', INDEXER_PORT: '0',
      TRUST_PROXY: 'true', LOG_LEVEL: 'warn', AMQP_URL: proxy.through(amqp.toString()), RABBITMQ_MANAGEMENT_URL: MANAGEMENT as string
    })
    await server.waitFor(/^Reelhouse is running/)
    base = (/http:\/\/127\.0\.0\.1:\d+/.exec(await server.waitFor(/^api: /)) as RegExpExecArray)[0]
    admin = JSON.parse(readFileSync(join(dataDir, 'admin-credentials.json'), 'utf8')) as Admin
  })
  after(async () => {
    await server?.stop('SIGKILL')
    await proxy?.close()
    await management('DELETE', `/api/vhosts/${encodeURIComponent(vhost)}`).catch(() => {})
    rmSync(dataDir, { recursive: true, force: true })
  })

  const signed = async (method: string, path: string, body?: unknown): Promise<Response> => {
    const text = body === undefined ? undefined : JSON.stringify(body)
    return await fetch(base + signedPath({ apiKey: admin.api_key, secret: admin.secret, method, path, body: text }), { method, body: text, headers: HEADERS })
  }
  const create = async (name: string): Promise<string> => {
    const res = await signed('POST', '/v2/assets', { asset_type: 'remote_asset', name, stream_urls: { source_file: 'https://cdn.example.com/a.mp4' } })
    assert.equal(res.status, 200, await res.clone().text())
    return (await res.json() as { embed_code: string }).embed_code
  }
  /** Waits (bounded) until search finds every id among the assets whose name holds `word`; answers those it found. */
  const untilFound = async (word: string, ids: string[]): Promise<Set<string>> => {
    let seen = new Set<string>()
    for (let attempt = 0; attempt < 300; attempt++) {
      const res = await signed('GET', `/v2/assets?limit=500&where=${encodeURIComponent(`name INCLUDES '${word}'`)}`)
      assert.equal(res.status, 200, await res.clone().text())
      seen = new Set((await res.json() as { items: Array<{ embed_code: string }> }).items.map((a) => a.embed_code))
      if (ids.every((id) => seen.has(id))) break
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    return seen
  }

  it('acknowledges every write while RabbitMQ is away and indexes all of them once it is back', async () => {
    const before = [await create('steady 0'), await create('steady 1')]
    assert.deepEqual([...await untilFound('steady', before)].sort(), [...before].sort())

    const during: string[] = []
    for (let i = 0; i < 30; i++) {
      if (i === 5) proxy.cut()
      during.push(await create(`outage ${i}`))
    }
    // Written and read back from the database while the broker is away.
    for (const id of during) assert.equal((await signed('GET', `/v2/assets/${id}`)).status, 200)
    await new Promise((resolve) => setTimeout(resolve, 1000))
    proxy.restore()

    const seen = await untilFound('outage', during)
    assert.deepEqual(during.filter((id) => !seen.has(id)), [], 'every write of the outage is indexed once RabbitMQ is back')
  })
})
