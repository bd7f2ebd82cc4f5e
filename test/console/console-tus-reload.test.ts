import assert from 'node:assert/strict'
import type { IncomingMessage } from 'node:http'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { Page } from 'playwright-core'
import { makeScratchDir, mediaSkip, removeScratchDir } from '../support/media-fixtures.ts'
import { noisyMp4, sha256 } from '../media/direct-uploads/support.ts'
import { launchBrowser, NO_CHROMIUM, type Browser } from './support/browser.ts'
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts'

const WAIT = { timeout: 60_000 }
/** The console's PATCH size for a file of a few MiB (src/console/browser/tus-upload.ts). */
const CHUNK = 1024 * 1024

/**
 * The console uploads over tus and survives a reload: the page is reloaded at about half, the same
 * file is dropped again, the upload continues from the server's offset (no second direct upload, no
 * byte stored twice) and the asset goes live.
 */
describe('the console continues a tus upload after a reload', { skip: NO_CHROMIUM !== false ? NO_CHROMIUM : mediaSkip, timeout: 300_000 }, () => {
  let server: ConsoleServer
  let browser: Browser
  let page: Page
  let scratch: string
  let received = 0
  /** The offset from which a PATCH is held until `reloaded` resolves. */
  let holdFrom: number | undefined
  let holding = false
  let release: () => void = () => {}
  const reloaded = new Promise<void>((resolve) => { release = resolve })
  before(async () => {
    server = await startConsoleServer()
    // Counts the body bytes the api received on tus requests, as the HTTP parser hands them over
    // (whether or not a handler reads them): a byte sent twice is counted twice. And holds the first
    // PATCH that starts at half the file or beyond until the page has reloaded, so the upload cannot
    // finish before the reload however fast the machine is (the held request's body waits in the
    // socket, as on a slow link).
    const http = server.app.server
    const handlers = http.listeners('request') as Array<(req: IncomingMessage, res: unknown) => void>
    http.removeAllListeners('request')
    http.on('request', (req: IncomingMessage, res: unknown) => {
      const dispatch = (): void => { for (const handler of handlers) handler.call(http, req, res) }
      if (!req.url?.startsWith('/v2/tus/') || !['PATCH', 'POST'].includes(req.method ?? '')) { dispatch(); return }
      const push = req.push.bind(req)
      req.push = (chunk: any, encoding?: BufferEncoding) => {
        if (chunk !== null && chunk !== undefined) received += (chunk as Buffer).length
        return push(chunk, encoding)
      }
      if (req.method === 'PATCH' && holdFrom !== undefined && Number(req.headers['upload-offset']) >= holdFrom && !holding) {
        holding = true
        void reloaded.then(dispatch)
        return
      }
      dispatch()
    })
    browser = await launchBrowser()
    page = await browser.tab()
    scratch = await makeScratchDir('reelhouse-console-tus-')
  })
  after(async () => {
    await browser?.close()
    await server?.close()
    await removeScratchDir(scratch)
  })

  const drop = async (bytes: Buffer): Promise<void> => {
    await page.locator('#drop-zone').waitFor(WAIT)
    const dropped = await page.evaluateHandle(({ base64 }) => {
      const transfer = new DataTransfer()
      // The same name, type, size and modification time: the same file to tus-js-client's fingerprint.
      transfer.items.add(new File([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], 'Big walk.mp4', { type: 'video/mp4', lastModified: 1_700_000_000_000 }))
      return transfer
    }, { base64: bytes.toString('base64') })
    await page.dispatchEvent('#drop-zone', 'drop', { dataTransfer: dropped })
  }

  it('reloaded at about half, continues from its offset and the asset goes live', async () => {
    const bytes = await noisyMp4(join(scratch, 'big.mp4'), 4 * 1024 * 1024)
    holdFrom = Math.floor(bytes.length / 2)
    await page.goto(`${server.baseUrl}/console#${new URLSearchParams({ api_key: server.admin.apiKey, secret: server.admin.secret }).toString()}`)
    await page.goto(`${server.baseUrl}/console#/library`)
    await drop(bytes)
    // About half: the PATCHes up to half the file are done and the next one is held.
    await page.waitForFunction(() => Number((document.getElementById('upload-progress') as HTMLProgressElement).value) >= 40, undefined, WAIT)
    await page.reload()
    release()
    const atReload = (await server.signed('GET', '/v2/direct_uploads')).json().items as any[]
    assert.equal(atReload.length, 1)
    const cutAt = atReload[0].upload_offset as number
    assert.ok(cutAt > 0 && cutAt < bytes.length, `cut at ${cutAt}`)
    const beforeReload = received
    assert.ok(beforeReload >= cutAt, `received ${beforeReload}, stored up to ${cutAt}`)

    await drop(bytes)
    await page.locator('#upload-state', { hasText: /is live\./ }).waitFor({ timeout: 240_000 })
    const direct = (await server.signed('GET', '/v2/direct_uploads')).json().items as any[]
    assert.equal(direct.length, 1, 'the reloaded page continued the same direct upload')
    assert.deepEqual([direct[0].status, direct[0].upload_offset], ['asset_created', bytes.length])
    // Continued from the offset: beyond the file itself, at most one PATCH (the console sends 1 MiB
    // PATCHes for a file this size) reached the api twice.
    assert.ok(received >= bytes.length, `received ${received} of ${bytes.length}`)
    assert.ok(received - bytes.length <= CHUNK, `received ${received - bytes.length} bytes twice (one chunk is ${CHUNK})`)
    const asset = (await server.signed('GET', `/v2/assets/${direct[0].asset_id as string}`)).json()
    assert.equal(asset.status, 'live')
    const job = await server.ctx.db.selectFrom('media_jobs').selectAll().where('asset_id', '=', asset.embed_code).executeTakeFirstOrThrow()
    const object = await server.ctx.services.mediaStore.get(job.original_key)
    const parts: Buffer[] = []
    for await (const part of object.body) parts.push(part as Buffer)
    assert.equal(sha256(Buffer.concat(parts)), sha256(bytes))
    assert.deepEqual(browser.seen.violations, [])
  })
})
