import assert from 'node:assert/strict'
import { spawn, type ChildProcess } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { freePort, startClientServer, type ClientServer } from '../../client/support/client-server.ts'

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path))

/**
 * The page: what Backlot's HTML5 uploader does. It builds the file in memory, slices it with
 * `Blob.slice` and PUTs each slice with XMLHttpRequest to its chunk URL on the API's origin (another
 * origin than the page's), in parallel, then posts the statuses back.
 */
const PAGE = `<!doctype html><meta charset="utf-8"><script type="module">
const { urls, seed, size } = await (await fetch('/config.json')).json()
const bytes = new Uint8Array(size)
for (let i = 0; i < size; i++) bytes[i] = (i * 31 + seed) & 255
const file = new Blob([bytes])
const put = (url) => new Promise((resolve) => {
  const range = new URL(url).searchParams.get('range').split('-').map(Number)
  const xhr = new XMLHttpRequest()
  xhr.open('PUT', url)
  xhr.setRequestHeader('Content-Type', 'application/octet-stream')
  xhr.onload = () => resolve({ status: xhr.status, body: xhr.responseText })
  xhr.onerror = () => resolve({ status: 0, body: 'network error (CORS?)' })
  xhr.send(file.slice(range[0], range[1] + 1))
})
const answers = await Promise.all(urls.map(put))
await fetch('/report', { method: 'POST', body: JSON.stringify({ origin: location.origin, answers }) })
</script>`

describe('a browser page PUTs chunks cross-origin', { skip: CHROMIUM === undefined ? 'needs Debian\'s chromium (/usr/bin/chromium)' : false }, () => {
  let server: ClientServer
  let page: Server
  let browser: ChildProcess | undefined
  let scratch: string
  before(async () => {
    const port = await freePort()
    server = await startClientServer('sqlite', { PUBLIC_API_URL: `http://127.0.0.1:${port}` }, { apiPort: port })
    scratch = mkdtempSync(join(tmpdir(), 'reelhouse-browser-upload-'))
  })
  after(async () => {
    if (browser?.pid !== undefined && browser.exitCode === null) process.kill(-browser.pid, 'SIGKILL')
    await new Promise<void>((resolve) => { if (page === undefined) resolve(); else page.close(() => { resolve() }) })
    await server?.close()
    if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true })
  })

  it('with XMLHttpRequest and Blob.slice, from another origin, and the upload completes', async () => {
    const size = 300_000
    const seed = randomBytes(1)[0] as number
    const expected = Buffer.from(Array.from({ length: size }, (_, i) => (i * 31 + seed) & 255))
    const client = server.client()
    const asset = await client.assets.create({ asset_type: 'video', name: 'From a page', file_name: 'page.mp4', file_size: size, chunk_size: 100_000 })
    const urls = await client.assets.uploads.chunkUrls(asset.embed_code)

    let settle!: (value: any) => void
    const report = new Promise<any>((resolve) => { settle = resolve })
    page = createServer((req, res) => {
      if (req.url === '/config.json') { res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ urls, seed, size })); return }
      if (req.url === '/report') {
        const parts: Buffer[] = []
        req.on('data', (part: Buffer) => parts.push(part))
        req.on('end', () => { settle(JSON.parse(Buffer.concat(parts).toString('utf8'))); res.end() })
        return
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE)
    })
    await new Promise<void>((resolve) => page.listen(0, 'localhost', resolve))
    const pageUrl = `http://localhost:${(page.address() as AddressInfo).port}/`
    browser = spawn(CHROMIUM as string, [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', `--user-data-dir=${join(scratch, 'profile')}`, pageUrl
    ], { stdio: 'ignore', detached: true })
    const timeout = new Promise((_resolve, reject) => setTimeout(() => reject(new Error('the page reported nothing within 60 s')), 60_000).unref())
    const result = await Promise.race([report, timeout])

    assert.notEqual(new URL(result.origin).origin, new URL(urls[0] as string).origin, 'the page and the chunk URLs are different origins')
    assert.deepEqual(result.answers.map((answer: { status: number }) => answer.status), [200, 200, 200], JSON.stringify(result.answers))
    const done = await client.request('PUT', `/v2/assets/${asset.embed_code}/upload_status`, { body: { status: 'uploaded' } })
    assert.deepEqual(done, { status: 'uploaded' })
    const job = await server.ctx.db.selectFrom('media_jobs').selectAll().where('asset_id', '=', asset.embed_code).executeTakeFirstOrThrow()
    const object = await server.ctx.services.mediaStore.get(job.original_key)
    const parts: Buffer[] = []
    for await (const part of object.body) parts.push(part as Buffer)
    assert.equal(createHash('sha256').update(Buffer.concat(parts)).digest('hex'), createHash('sha256').update(expected).digest('hex'))
  })
})
