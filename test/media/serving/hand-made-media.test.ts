import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { existsSync, realpathSync } from 'node:fs'
import { open, readdir, readlink, unlink } from 'node:fs/promises'
import { connect, type Socket } from 'node:net'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { startStack, type Stack } from '../e2e/support.ts'
import { contentKey, newVersionSecret } from '../../../src/media/encryption/index.ts'
import { assetPrefix, mediaPrefix } from '../../../src/media/store/index.ts'

/** An asset whose media version was written straight into the database and the store, as the worker leaves one. */
interface HandMade {
  token: string
  version: string
  /** The version's store prefix. */
  prefix: string
  secret: Buffer
}

const HTTPS = { 'x-forwarded-proto': 'https' }
const RENDITION = { name: '360p', kind: 'video', state: 'ready', width: 640, height: 360, bandwidth: 800_000, average_bandwidth: 700_000, codecs: 'avc1.42c01e,mp4a.40.2', duration_ms: 66_000, in_master: true }
/** Larger than a file's first read (256 KiB), so its answer is still being sent after the first bytes. */
const PREVIEW_BYTES = 1024 * 1024
const segment = (n: number): string => `360p/segment-${String(n).padStart(5, '0')}.ts`

/**
 * Media requests against versions written by hand (no ffmpeg, no worker): refusals a player on another
 * origin can read, key URIs only for the indexes the version's playlists name, and no file left open
 * by any answer, a reader that leaves early included (docs/media.md, "Serving"; docs/playback.md).
 */
describe('media of versions written by hand', () => {
  let stack: Stack
  let clear: HandMade
  let paused: HandMade
  let encrypted: HandMade
  let signed: HandMade
  let leaving: HandMade

  async function handMade (options: { status?: string, policy?: 'signed', encrypted?: boolean, files: Record<string, Buffer> }): Promise<HandMade> {
    const created = await stack.call('POST', '/v2/assets', { asset_type: 'video', name: 'By hand', file_name: 'clip.mp4', file_size: '10' })
    assert.equal(created.status, 200, JSON.stringify(created.json))
    const id = created.json.embed_code as string
    const { db, secrets, services } = stack.server.ctx
    const { account_id: accountId } = await db.selectFrom('assets').select('account_id').where('id', '=', id).executeTakeFirstOrThrow()
    const token = randomBytes(24).toString('base64url')
    const version = randomBytes(16).toString('base64url')
    const secret = newVersionSecret()
    const prefix = mediaPrefix(accountId, id, version)
    const originalKey = `${assetPrefix(accountId, id)}original-1`
    await services.mediaStore.put(originalKey, Buffer.from('an original'))
    for (const [name, bytes] of Object.entries(options.files)) {
      await services.mediaStore.put(`${prefix}${name}`, bytes, name.endsWith('.jpg') ? { contentType: 'image/jpeg' } : {})
    }
    const now = new Date().toISOString()
    await db.insertInto('media_versions').values({
      account_id: accountId, asset_id: id, version, job_id: 'by-hand', state: 'current', original_key: originalKey, probe: null, has_preview: 1,
      renditions: JSON.stringify([RENDITION]), progress: 100, encryption_keys: options.encrypted === true ? secrets.encrypt(secret.toString('hex')) : null, created_at: now, updated_at: now
    }).execute()
    await db.updateTable('assets').set({ status: options.status ?? 'live', media_token: token, media_version: version, playback_policy: options.policy ?? null })
      .where('account_id', '=', accountId).where('id', '=', id).execute()
    return { token, version, prefix, secret }
  }

  before(async () => {
    stack = await startStack(['api', 'cdn'])
    const files = { 'preview.jpg': randomBytes(PREVIEW_BYTES), '360p/index.m3u8': Buffer.from('#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:2.0,\nsegment-00000.ts\n#EXT-X-ENDLIST\n'), [segment(0)]: randomBytes(4096) }
    clear = await handMade({ files })
    paused = await handMade({ status: 'paused', files })
    signed = await handMade({ policy: 'signed', files })
    leaving = await handMade({ files })
    // Eleven segments: the runs of keys 0 (segments 0–9) and 1 (segment 10), none further.
    encrypted = await handMade({ encrypted: true, files: Object.fromEntries(Array.from({ length: 11 }, (_, n) => [segment(n), randomBytes(188)])) })
  })
  after(async () => { await stack?.close() })

  it('answers refusals with the CORS header of the files, on both listeners, so a player on another origin reads them', async () => {
    const unknown = 'A'.repeat(32)
    const file = (media: HandMade, name: string): string => `/media/${media.token}/${media.version}/${name}`
    const rows: Array<[string, string, Record<string, string>, number, string | undefined]> = [
      ['GET', `/media/${unknown}/master.m3u8`, {}, 404, 'media_not_found'],
      ['HEAD', `/media/${unknown}/preview.jpg`, {}, 404, undefined],
      ['GET', file(clear, segment(9999)), {}, 404, 'media_not_found'],
      ['GET', file(clear, segment(0)), { range: 'bytes=99999999-' }, 416, 'range_not_satisfiable'],
      ['GET', `/media/${clear.token}/source`, {}, 403, 'media_url_invalid'],
      ['GET', `/media/${clear.token}/master.m3u8?start=2&end=1`, {}, 400, 'validation_failed'],
      ['GET', `/media/${clear.token}/${clear.version}/360p/segment-1.ts`, {}, 400, 'validation_failed'],
      ['GET', `/media/${paused.token}/master.m3u8`, {}, 403, 'asset_paused']
    ]
    // Signed and encrypted media answer over HTTPS only: the api listener says why else, the cdn that it is HTTPS only.
    const byListener: Record<'api' | 'cdn', typeof rows> = {
      api: [
        ['GET', `/media/${signed.token}/master.m3u8`, {}, 403, 'playback_token_required'],
        ['GET', file(encrypted, 'keys/key-00007.key'), {}, 404, 'media_not_found']
      ],
      cdn: [
        ['GET', `/media/${signed.token}/master.m3u8`, {}, 403, 'https_required'],
        ['GET', file(encrypted, segment(0)), {}, 403, 'https_required']
      ]
    }
    for (const listener of ['api', 'cdn'] as const) {
      const base = listener === 'api' ? stack.api : stack.cdn
      for (const [method, path, headers, status, code] of [...rows, ...byListener[listener]]) {
        const name = `${listener}: ${method} ${path} ${JSON.stringify(headers)}`
        const res = await fetch(base + path, { method, headers: { ...HTTPS, origin: 'https://player.example', ...headers } })
        assert.equal(res.status, status, name)
        assert.equal(res.headers.get('access-control-allow-origin'), '*', name)
        if (code !== undefined) assert.equal((await res.json() as { code: string }).code, code, name)
        else await res.arrayBuffer()
      }
    }
    const ok = await fetch(`${stack.cdn}/media/${clear.token}/${clear.version}/${segment(0)}`)
    assert.equal(ok.status, 200)
    assert.equal(ok.headers.get('access-control-allow-origin'), '*')
    await ok.arrayBuffer()
  })

  it('answers the key of an index a playlist of the version names, and 404 for any other index', async () => {
    const key = async (index: string): Promise<{ status: number, body: Buffer }> => {
      const res = await fetch(`${stack.api}/media/${encrypted.token}/${encrypted.version}/keys/key-${index}.key`, { headers: HTTPS })
      return { status: res.status, body: Buffer.from(await res.arrayBuffer()) }
    }
    for (const [index, run] of [['00000', 0], ['00001', 1]] as const) {
      const answer = await key(index)
      assert.equal(answer.status, 200, `key ${index}`)
      assert.deepEqual(answer.body, contentKey(encrypted.secret, run), `key ${index} is its run's`)
    }
    for (const index of ['00002', '00010', '09999', '99999']) {
      const answer = await key(index)
      assert.equal(answer.status, 404, `key ${index}: no playlist names it`)
      assert.equal((JSON.parse(answer.body.toString()) as { code: string }).code, 'media_not_found')
    }
  })

  describe('file descriptors', { skip: existsSync('/proc/self/fd') ? false : 'needs /proc/self/fd' }, () => {
    /** The process's descriptors open on files of the media store (the server runs in this process). */
    async function mediaFilesOpen (): Promise<string[]> {
      const objects = realpathSync(join(stack.dataDir, 'media', 'objects'))
      const open: string[] = []
      for (const fd of await readdir('/proc/self/fd')) {
        const target = await readlink(`/proc/self/fd/${fd}`).catch(() => '')
        if (target.startsWith(objects)) open.push(target)
      }
      return open
    }
    /** Once every answer has ended, the files its reads opened are closed: yields until none is open (a deadline only keeps a leak from hanging the suite). */
    async function stillOpen (): Promise<string[]> {
      const deadline = Date.now() + 10_000
      let open = await mediaFilesOpen()
      while (open.length > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setImmediate(resolve))
        open = await mediaFilesOpen()
      }
      return open
    }

    it('leaves no media file open after answers of every kind, and a reader that leaves mid-body', async () => {
      assert.deepEqual(await mediaFilesOpen(), [])
      const preview = `${stack.cdn}/media/${clear.token}/preview.jpg`
      const seg = `${stack.cdn}/media/${clear.token}/${clear.version}/${segment(0)}`
      const described = await fetch(seg, { method: 'HEAD' })
      const etag = described.headers.get('etag') as string
      for (const [url, method, headers, status] of [
        [preview, 'GET', {}, 200], [preview, 'GET', { range: 'bytes=10-19' }, 206], [preview, 'GET', { range: `bytes=${PREVIEW_BYTES}-` }, 416],
        [preview, 'HEAD', {}, 200], [seg, 'GET', { 'if-none-match': etag }, 304], [seg, 'GET', {}, 200], [seg, 'GET', { range: 'bytes=99999-' }, 416],
        [seg, 'HEAD', { range: 'bytes=0-9' }, 206], [`${stack.cdn}/media/${paused.token}/preview.jpg`, 'GET', {}, 403]
      ] as const) {
        const res = await fetch(url, { method, headers })
        assert.equal(res.status, status, `${method} ${url} ${JSON.stringify(headers)}`)
        await res.arrayBuffer()
      }
      // A reader that takes the head and the first bytes, then leaves.
      const url = new URL(preview)
      const reader = connect(Number(url.port), url.hostname)
      reader.on('error', () => {})
      reader.write(`GET ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`)
      const [first] = await once(reader, 'data') as [Buffer]
      assert.match(first.toString('latin1', 0, 12), /^HTTP\/1\.1 200/)
      reader.destroy()
      assert.deepEqual(await stillOpen(), [])
    })

    it('closes the file of a reader that left before the first byte was sent', async () => {
      // The preview's stored type is read after the file is opened: a FIFO in its place holds the answer
      // there, with the file open, until this test writes the type.
      const typeFile = join(stack.dataDir, 'media', 'types', `${leaving.prefix}preview.jpg`)
      await unlink(typeFile)
      execFileSync('mkfifo', [typeFile])
      const cdn = stack.server.apps.cdn
      assert.ok(cdn !== undefined)
      const accepted = once(cdn.server, 'connection') as Promise<[Socket]>
      const url = new URL(`${stack.cdn}/media/${leaving.token}/preview.jpg`)
      const reader = connect(Number(url.port), url.hostname)
      reader.on('error', () => {})
      reader.write(`GET ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`)
      const [serverSide] = await accepted
      // Opens once the server has opened the type to read it (it holds the preview's file by then).
      const writer = await open(typeFile, 'w')
      try {
        // The reset reaches the server as ECONNRESET; its socket then closes, and with it the response.
        const closed = new Promise((resolve) => serverSide.once('close', resolve))
        reader.resetAndDestroy()
        await closed
        await new Promise((resolve) => setImmediate(resolve))
        await writer.write('image/jpeg')
      } finally {
        await writer.close()
      }
      assert.deepEqual(await stillOpen(), [])
    })
  })
})
