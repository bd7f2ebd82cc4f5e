import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { loadConfig } from '../../src/config/index.ts'
import { readQueueMessages } from '../../src/indexer/index.ts'
import { openSearchStore } from '../../src/search/index.ts'
import { signedPath } from '../../src/signing/index.ts'
import { TEST_MASTER_KEY } from '../support/app.ts'
import { startCli, type CliProcess } from '../support/cli.ts'

// kill -9 of a real `reelhouse serve` (every role, embedded engines) during concurrent writes of labels,
// assets and analytics batches; after a restart every acknowledged write is present and indexed, and
// every acknowledged batch is counted. Writes in flight at the kill may land or not: only 2xx counts.
const HEADERS = { 'x-forwarded-proto': 'https', 'content-type': 'application/json' }
const ACKED_BEFORE_KILL = 12

interface Admin { account_id?: string, account_code: string, api_key: string, secret: string }
interface Running { server: CliProcess, api: string, indexer: string }

describe('kill -9 during concurrent writes, then restart', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-kill9-writes-'))
  const env = { REELHOUSE_DATA_DIR: dataDir, REELHOUSE_MASTER_KEY: TEST_MASTER_KEY, HOST: '127.0.0.1', API_PORT: '0', CDN_PORT: '0', INDEXER_PORT: '0', TRUST_PROXY: 'true', LOG_LEVEL: 'silent' }
  const servers: CliProcess[] = []
  after(async () => {
    for (const server of servers) await server.stop('SIGKILL')
    rmSync(dataDir, { recursive: true, force: true })
  })

  async function start (): Promise<Running> {
    const server = startCli(['serve'], env)
    servers.push(server)
    await server.waitFor(/^Reelhouse is running/)
    const api = (/http:\/\/127\.0\.0\.1:\d+/.exec(await server.waitFor(/^api: /)) as RegExpExecArray)[0]
    const indexer = (/http:\/\/[^\s/]+/.exec(await server.waitFor(/^indexer: /)) as RegExpExecArray)[0]
    return { server, api, indexer }
  }

  it('keeps every acknowledged label, asset and event batch, and indexes every acknowledged resource', async () => {
    const first = await start()
    const admin = JSON.parse(readFileSync(join(dataDir, 'admin-credentials.json'), 'utf8')) as Admin
    const signed = async (base: string, method: string, path: string, body?: string): Promise<Response> =>
      await fetch(base + signedPath({ apiKey: admin.api_key, secret: admin.secret, method, path, body }), { method, body, headers: HEADERS })

    const labels: string[] = []
    const assets: string[] = []
    let batchesAcked = 0
    let batchesSent = 0
    let killed = false
    let failure: unknown
    const acked = (): number => Math.min(labels.length, assets.length, batchesAcked)
    const loop = async (write: (i: number) => Promise<void>): Promise<void> => {
      for (let i = 0; !killed; i++) {
        try {
          await write(i)
        } catch (error) {
          if (!killed) failure ??= error // else the connection died with the process
          return
        }
      }
    }
    const when = new Date(Date.now() - 60_000).toISOString()
    const clip = await signed(first.api, 'POST', '/v2/assets', JSON.stringify({ asset_type: 'remote_asset', name: 'Clip', stream_urls: { source_file: 'https://cdn.example.com/a.mp4' } }))
    assert.equal(clip.status, 200)
    const clipId = (await clip.json() as { embed_code: string }).embed_code
    const load = [
      ...[0, 1].map((w) => loop(async (i) => {
        const res = await signed(first.api, 'POST', '/v2/labels', JSON.stringify({ name: `L${w}-${i}` }))
        if (res.status === 200) labels.push((await res.json() as { id: string }).id)
      })),
      ...[0, 1].map((w) => loop(async (i) => {
        const res = await signed(first.api, 'POST', '/v2/assets', JSON.stringify({ asset_type: 'remote_asset', name: `A${w}-${i}`, stream_urls: { source_file: 'https://cdn.example.com/a.mp4' } }))
        if (res.status === 200) assets.push((await res.json() as { embed_code: string }).embed_code)
      })),
      loop(async (i) => {
        batchesSent++
        const body = JSON.stringify({ account_code: admin.account_code, session_id: `s-${i}`, asset_id: clipId, events: [{ name: 'display', time: when }, { name: 'display', time: when }] })
        const res = await fetch(`${first.api}/v2/analytics/events`, { method: 'POST', body, headers: HEADERS })
        if (res.status === 204) batchesAcked++
        else if (i === 0) throw new Error(`the first batch answered ${res.status}: ${await res.text()}`)
      })
    ]
    // Kill once enough writes were acknowledged: a count, not a time, decides.
    while (acked() < ACKED_BEFORE_KILL && failure === undefined) await new Promise((resolve) => setImmediate(resolve))
    if (failure !== undefined) throw failure
    await first.server.stop('SIGKILL')
    killed = true
    await Promise.all(load)
    assert.ok(labels.length > 0 && assets.length > 0 && batchesAcked > 0, `acknowledged: ${labels.length} labels, ${assets.length} assets, ${batchesAcked} batches`)

    const second = await start()
    for (const id of labels) assert.equal((await signed(second.api, 'GET', `/v2/labels/${id}`)).status, 200, `label ${id} lost`)
    for (const id of assets) assert.equal((await signed(second.api, 'GET', `/v2/assets/${id}`)).status, 200, `asset ${id} lost`)
    const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10)
    const report = await signed(second.api, 'GET', `/v2/analytics/reports?start_date=${day(Date.now() - 86_400_000)}&end_date=${day(Date.now() + 2 * 86_400_000)}&metrics=displays`)
    assert.equal(report.status, 200, await report.clone().text())
    const displays = ((await report.json() as { results: Array<{ data: Array<{ metrics: { displays: number } }> }> }).results[0]?.data[0]?.metrics.displays) ?? 0
    assert.ok(displays >= 2 * batchesAcked && displays <= 2 * batchesSent, `${displays} displays for ${batchesAcked} acknowledged of ${batchesSent} sent batches`)

    // The index converges: the queue drains (bounded polling), then every acknowledged resource is a document.
    for (let attempt = 0; attempt < 300 && await readQueueMessages({ url: second.indexer }) !== 0; attempt++) await new Promise((resolve) => setTimeout(resolve, 100))
    assert.equal(await readQueueMessages({ url: second.indexer }), 0, 'the index queue did not drain')
    const accountId = (await (await signed(second.api, 'GET', '/v2/users/me')).json() as { account: { id: string } }).account.id
    const store = await openSearchStore(loadConfig({ ...env, LOG_LEVEL: 'silent' }))
    try {
      for (const id of labels) assert.notEqual(await store.get(accountId, 'label', id), null, `label ${id} not indexed`)
      for (const id of assets) assert.notEqual(await store.get(accountId, 'asset', id), null, `asset ${id} not indexed`)
    } finally {
      await store.close()
    }
  })
})
