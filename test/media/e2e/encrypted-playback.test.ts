import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { request } from 'node:https'
import type { AddressInfo } from 'node:net'
import { createDecipheriv } from 'node:crypto'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { after, before, describe, it } from 'node:test'
import { launchBrowser, NO_CHROMIUM, type Browser } from '../../console/support/browser.ts'
import { makeScratchDir, mediaSkip, removeScratchDir } from '../../support/media-fixtures.ts'
import { signedPath } from '../../../src/signing/index.ts'
import { pathOf, PUBLIC_API_URL, startStack, type Stack } from './support.ts'
import { HLS_JS, hlsPage } from './hls-page.ts'

/**
 * AES-128 HLS end to end (docs/playback.md, "Encryption"): the api listener is the service's own HTTPS
 * (TRUST_PROXY off, its self-signed certificate), the cdn listener plain HTTP. A standard-input upload
 * gives a copied top rendition and an encoded one from the same job, so both kinds of rendition are
 * checked. What ffprobe and Chromium play is fetched over HTTPS, keys included.
 */
const run = promisify(execFile)

const PAGE = hlsPage('/test-player/hls.js')

interface Answer { status: number, headers: Record<string, string | string[] | undefined>, body: Buffer }

describe('AES-128 HLS', { skip: mediaSkip }, () => {
  let stack: Stack
  let root: string
  let https: string
  let ca: string
  let browser: Browser | undefined

  /** A request to the api listener over its own TLS, trusting its self-signed certificate. */
  async function overTls (path: string, options: { method?: string, body?: Buffer | string, headers?: Record<string, string> } = {}): Promise<Answer> {
    return await new Promise((resolve, reject) => {
      const req = request(`${https}${path}`, { method: options.method ?? 'GET', ca, headers: options.headers }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => { resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }) })
      })
      req.on('error', reject)
      req.end(options.body)
    })
  }
  async function call (method: string, path: string, body?: object): Promise<{ status: number, json: any }> {
    const text = body === undefined ? undefined : JSON.stringify(body)
    const url = signedPath({ apiKey: stack.admin.api_key, secret: stack.admin.secret, method, path, body: text })
    const res = await overTls(url, { method, body: text, headers: text === undefined ? {} : { 'content-type': 'application/json' } })
    return { status: res.status, json: res.body.length === 0 ? undefined : JSON.parse(res.body.toString('utf8')) }
  }
  async function processed (id: string, until: (asset: any) => boolean): Promise<any> {
    for (;;) {
      const asset = (await call('GET', `/v2/assets/${id}`)).json
      if (asset.status === 'error') assert.fail(asset.processing_error)
      if (asset.processing_progress === 100 && until(asset)) return asset
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }

  let asset: any
  let master: string
  let variants: string[]

  before(async () => {
    root = await makeScratchDir()
    stack = await startStack(['api', 'cdn', 'worker'], { TRUST_PROXY: 'false' })
    https = `https://127.0.0.1:${(stack.server.apps.api?.server.address() as AddressInfo).port}`
    ca = readFileSync(join(stack.dataDir, 'tls-cert.pem'), 'utf8')
    // Standard input (H.264 with a key frame every second, AAC): a 480p copy beside an encoded 360p.
    const source = join(root, 'source.mp4')
    await run('ffmpeg', [
      '-nostdin', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=640x480:rate=25', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000',
      '-t', '8', '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '25', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '64k', source
    ])
    const bytes = await readFile(source)
    const created = await call('POST', '/v2/assets', { asset_type: 'video', name: 'Sealed', file_name: 'source.mp4', file_size: bytes.length, encryption: 'aes-128' })
    assert.equal(created.status, 200, JSON.stringify(created.json))
    assert.equal(created.json.encryption, 'aes-128')
    const id = created.json.embed_code as string
    const [chunk] = (await call('GET', `/v2/assets/${id}/uploading_urls`)).json as string[]
    assert.equal((await overTls(pathOf(chunk as string), { method: 'PUT', body: bytes })).status, 200)
    assert.equal((await call('PUT', `/v2/assets/${id}/upload_status`, { status: 'uploaded' })).status, 200)
    asset = await processed(id, (a) => a.status === 'live')
    master = pathOf(asset.stream_urls.iphone)
    const text = (await overTls(master)).body.toString('utf8')
    variants = text.split('\n').filter((line) => line.endsWith('.m3u8'))
    assert.equal(variants.length, 2, text)
  })
  after(async () => {
    await browser?.close()
    await stack?.close()
    await removeScratchDir(root)
  })

  /** A path relative to the master's folder. */
  const beside = (path: string, relative: string): string => new URL(relative, `https://x${path}`).pathname

  it('encrypts every rendition, copied and encoded: a raw segment does not decode, the one the key opens does', async () => {
    for (const variant of variants) {
      const playlistPath = beside(master, variant)
      const playlist = (await overTls(playlistPath)).body.toString('utf8')
      assert.match(playlist, /#EXT-X-KEY:METHOD=AES-128,URI="\.\.\/keys\/key-00000\.key"\n#EXTINF/)
      const segmentPath = beside(playlistPath, 'segment-00000.ts')
      const sealed = (await overTls(segmentPath)).body
      const raw = join(root, 'raw.ts')
      await writeFile(raw, sealed)
      const probe = await run('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_type', '-of', 'json', raw]).then((r) => JSON.parse(r.stdout).streams ?? [], () => null)
      assert.ok(probe === null || probe.length === 0, `${variant}: the raw segment decoded: ${JSON.stringify(probe)}`)
      const key = await overTls(beside(playlistPath, '../keys/key-00000.key'))
      assert.equal(key.status, 200)
      assert.equal(key.body.length, 16)
      assert.equal(key.headers['cache-control'], 'no-store')
      // The first segment's IV is its media sequence number, 0.
      const decipher = createDecipheriv('aes-128-cbc', key.body, Buffer.alloc(16))
      await writeFile(raw, Buffer.concat([decipher.update(sealed), decipher.final()]))
      const clear = JSON.parse((await run('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_type', '-of', 'json', raw])).stdout).streams as Array<{ codec_type: string }>
      assert.deepEqual(clear.map((s) => s.codec_type).sort(), ['audio', 'video'], variant)
    }
  })

  it('plays through ffprobe over HTTPS, keys fetched from the api listener', async () => {
    const { stdout } = await run('ffprobe', ['-v', 'error', '-count_packets', '-show_entries', 'stream=codec_type,nb_read_packets', '-of', 'json', `${https}${master}`])
    const streams = JSON.parse(stdout).streams as Array<{ codec_type: string, nb_read_packets: string }>
    assert.ok(streams.some((s) => s.codec_type === 'video' && Number(s.nb_read_packets) > 100), stdout)
    assert.ok(streams.some((s) => s.codec_type === 'audio' && Number(s.nb_read_packets) > 100), stdout)
  })

  it('keeps keys and encrypted media off the cdn listener and plain HTTP: 403 naming the HTTPS URL', async () => {
    const keyPath = beside(beside(master, variants[0] as string), '../keys/key-00000.key')
    for (const path of [keyPath, master, beside(master, variants[0] as string)]) {
      const res = await fetch(stack.cdn + path)
      assert.equal(res.status, 403, path)
      const problem = await res.json() as { code: string, detail: string }
      assert.equal(problem.code, 'https_required')
      assert.ok(problem.detail.includes(`${PUBLIC_API_URL}${path}`), problem.detail)
    }
    // The api listener speaks TLS only: a plain request gets no answer at all.
    await assert.rejects(fetch(`${https.replace('https:', 'http:')}${keyPath}`))
  })

  it('plays in Chromium with hls.js from an HTTPS page', { skip: NO_CHROMIUM }, async () => {
    browser = await launchBrowser()
    const page = await browser.tab()
    await page.route(`${https}/test-player/**`, async (route) => {
      const url = new URL(route.request().url())
      if (url.pathname.endsWith('/hls.js')) await route.fulfill({ contentType: 'text/javascript', body: await readFile(HLS_JS) })
      else await route.fulfill({ contentType: 'text/html', body: PAGE })
    })
    const keys: string[] = []
    page.on('response', (res) => { if (res.url().endsWith('.key')) keys.push(`${res.status()} ${res.url()}`) })
    await page.goto(`${https}/test-player/page.html?src=${encodeURIComponent(https + master)}`)
    await page.waitForFunction(() => (document.getElementById('v') as HTMLVideoElement).currentTime > 1.5, undefined, { timeout: 120_000 })
    assert.deepEqual(await page.evaluate(() => (window as any).hlsErrors), [])
    assert.ok(keys.length > 0 && keys.every((k) => k.startsWith('200 ')), keys.join(', '))
  })

  it('processes the media again when encryption changes; the encrypted version plays meanwhile', async () => {
    const changed = await call('PATCH', `/v2/assets/${asset.embed_code as string}`, { encryption: 'none' })
    assert.equal(changed.status, 200, JSON.stringify(changed.json))
    for (;;) {
      const text = (await overTls(master)).body.toString('utf8')
      const variant = text.split('\n').find((line) => line.endsWith('.m3u8')) as string
      const playlist = (await overTls(beside(master, variant))).body.toString('utf8')
      if (!playlist.includes('#EXT-X-KEY')) {
        // Clear media is public again: the cdn listener serves it; its version has no keys.
        assert.equal((await fetch(stack.cdn + master)).status, 200)
        assert.equal((await overTls(beside(beside(master, variant), '../keys/key-00000.key'))).status, 404)
        break
      }
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  })
})
