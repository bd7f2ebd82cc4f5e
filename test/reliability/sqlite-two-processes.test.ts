import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { signedPath } from '../../src/signing/index.ts'
import { TEST_MASTER_KEY } from '../support/app.ts'
import { startCli, type CliProcess } from '../support/cli.ts'
import { makeVideo, mediaSkip } from '../support/media-fixtures.ts'

// Two real processes on one embedded (SQLite) data directory, as docs/deployment.md allows:
// `serve --role api cdn indexer` and `serve --role worker`, started together. Eight writers add labels on the api process
// while three uploads are made and processed by the worker process, whose index consumer and media jobs
// write the same file meanwhile. Not one request may answer 5xx, the worker must live through it, and
// every upload must end `live`.
const PUBLIC_API_URL = 'https://media.reelhouse.test'
const HEADERS = { 'x-forwarded-proto': 'https' }
const WRITERS = 8
const UPLOADS = 3
/** The writers run at least this long, and on until every upload has finished processing. */
const WRITE_MS = 10_000
/** Only keeps a broken run from hanging the suite; nothing is asserted about time. */
const DEADLINE_MS = 120_000

interface Admin { api_key: string, secret: string }
interface Answer { status: number, text: string }

describe('two processes on one SQLite data directory', { skip: mediaSkip }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-sqlite-two-'))
  const env = {
    REELHOUSE_DATA_DIR: dataDir, REELHOUSE_MASTER_KEY: TEST_MASTER_KEY, HOST: '127.0.0.1', API_PORT: '0', CDN_PORT: '0', INDEXER_PORT: '0',
    TRUST_PROXY: 'true', LOG_LEVEL: 'warn', PUBLIC_API_URL, CREDITS_ENABLED: 'false'
  }
  const processes: CliProcess[] = []
  after(async () => {
    for (const child of processes) await child.stop('SIGKILL')
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('answers no 5xx under concurrent writes of both processes, keeps the worker running and takes every upload to live', async (t) => {
    // Started together on the empty directory, as a service manager starts them: both migrate, and
    // exactly one creates the first account.
    const apiProcess = startCli(['serve', '--role', 'api', 'cdn', 'indexer'], env)
    const worker = startCli(['serve', '--role', 'worker'], env)
    processes.push(apiProcess, worker)
    await Promise.all([apiProcess.waitFor(/^Reelhouse is running/), worker.waitFor(/^Reelhouse is running/)])
    const api = (/http:\/\/127\.0\.0\.1:\d+/.exec(await apiProcess.waitFor(/^api: /)) as RegExpExecArray)[0]
    const firstAccounts = [apiProcess, worker].filter((child) => child.stdout.some((line) => line.startsWith('Created the first account'))).length
    assert.equal(firstAccounts, 1, 'exactly one process creates the first account')
    const admin = JSON.parse(readFileSync(join(dataDir, 'admin-credentials.json'), 'utf8')) as Admin

    const failures: string[] = []
    let requests = 0
    const call = async (method: string, path: string, body?: Buffer<ArrayBuffer> | string, signed = true): Promise<Answer> => {
      const url = signed ? signedPath({ apiKey: admin.api_key, secret: admin.secret, method, path, body: typeof body === 'string' ? body : undefined }) : path
      const headers = typeof body === 'string' ? { ...HEADERS, 'content-type': 'application/json' } : HEADERS
      const res = await fetch(api + url, { method, body, headers })
      const answer = { status: res.status, text: await res.text() }
      requests++
      if (answer.status >= 500) failures.push(`${method} ${path.split('?')[0]} → ${answer.status} ${answer.text}`)
      return answer
    }

    const clip = await makeVideo(join(dataDir, 'clip.mp4'), { width: 320, height: 180, seconds: 2 })
    const bytes = await readFile(clip)
    const uploadOne = async (n: number): Promise<string> => {
      const chunkSize = Math.ceil(bytes.length / 3)
      const created = await call('POST', '/v2/assets', JSON.stringify({ asset_type: 'video', name: `Clip ${n}`, file_name: 'clip.mp4', file_size: String(bytes.length), chunk_size: String(chunkSize) }))
      assert.equal(created.status, 200, created.text)
      const id = (JSON.parse(created.text) as { embed_code: string }).embed_code
      const urls = await call('GET', `/v2/assets/${id}/uploading_urls`)
      assert.equal(urls.status, 200, urls.text)
      await Promise.all((JSON.parse(urls.text) as string[]).map(async (url, index) => {
        const parsed = new URL(url)
        const put = await call('PUT', parsed.pathname + parsed.search, bytes.subarray(index * chunkSize, (index + 1) * chunkSize), false)
        assert.equal(put.status, 200, put.text)
      }))
      const done = await call('PUT', `/v2/assets/${id}/upload_status`, JSON.stringify({ status: 'uploaded' }))
      assert.equal(done.status, 200, done.text)
      return id
    }

    const started = Date.now()
    const deadline = started + DEADLINE_MS
    let processed = false
    let labels = 0
    const writers = Array.from({ length: WRITERS }, async (_, w) => {
      for (let i = 0; Date.now() < deadline && (!processed || Date.now() - started < WRITE_MS); i++) {
        const res = await call('POST', '/v2/labels', JSON.stringify({ name: `w${w}-${i}` }))
        if (res.status === 200) labels++
      }
    })

    const ids = await Promise.all(Array.from({ length: UPLOADS }, async (_, n) => await uploadOne(n)))
    const states = new Map<string, string>()
    while (Date.now() < deadline && worker.child.exitCode === null) {
      for (const id of ids) {
        const res = await call('GET', `/v2/assets/${id}`)
        if (res.status === 200) states.set(id, (JSON.parse(res.text) as { status: string }).status)
      }
      if (ids.every((id) => ['live', 'error'].includes(states.get(id) ?? ''))) break
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    processed = true
    await Promise.all(writers)

    // Every finding at once, so a failing run says all that went wrong.
    const problems: string[] = []
    if (worker.child.exitCode !== null) problems.push(`the worker process exited (${String(worker.child.exitCode)})`)
    if (failures.length > 0) problems.push(`${failures.length} of ${requests} requests answered 5xx, the first: ${failures.slice(0, 3).join('; ')}`)
    if (labels === 0) problems.push('no label was written')
    const notLive = ids.filter((id) => states.get(id) !== 'live')
    if (notLive.length > 0) problems.push(`uploads not live: ${notLive.map((id) => `${id} ${states.get(id) ?? '?'}`).join(', ')}`)
    t.diagnostic(`${requests} requests (${labels} labels written), ${failures.length} answered 5xx; uploads: ${ids.map((id) => states.get(id)).join(', ')}`)
    assert.deepEqual(problems, [], `${problems.join('\n')}\nthe worker's last lines:\n${[...worker.stdout, ...worker.stderr].slice(-15).join('\n')}`)
  })
})
