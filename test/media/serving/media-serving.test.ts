import assert from 'node:assert/strict'
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises'
import { connect, type Socket } from 'node:net'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { makeScratchDir, makeVideo, mediaSkip, removeScratchDir } from '../../support/media-fixtures.ts'
import { finished, pathOf, startStack, upload, type Stack } from '../e2e/support.ts'

/**
 * The media request path over real sockets (docs/media.md, "Serving"): validators and 304s, HEAD and
 * Range without the body, errors that are never cached, what the cached lookups drop when the asset
 * changes, and players on slow links (backpressure) while the API keeps answering.
 */
describe('serving media files', { skip: mediaSkip }, () => {
  let stack: Stack
  let root: string
  let id: string
  let asset: any
  /** Paths on either listener. */
  const paths = { master: '', playlist: '', segment: '', preview: '', source: '' }
  let segmentBytes: Buffer
  let sourceBytes: Buffer

  before(async () => {
    root = await makeScratchDir()
    stack = await startStack(['api', 'cdn', 'worker'])
    // A short clip with 8 MB of padding after its last box: players and ffprobe ignore it, and the
    // original is then larger than what the kernel's socket buffers take for a reader that stops reading.
    const clip = await makeVideo(join(root, 'clip.mp4'), { width: 320, height: 240, seconds: 2 })
    const padded = join(root, 'padded.mp4')
    await writeFile(padded, Buffer.concat([await readFile(clip), Buffer.alloc(8 * 1024 * 1024)]))
    sourceBytes = await readFile(padded)
    id = await upload(stack, padded)
    asset = await finished(stack, id)
    assert.equal(asset.status, 'live', asset.processing_error)
    paths.master = pathOf(asset.stream_urls.iphone)
    paths.source = pathOf(asset.stream_urls.source_file)
    paths.preview = pathOf(asset.preview_image_url)
    const streams = await stack.call('GET', `/v2/assets/${id}/streams`)
    paths.playlist = pathOf(streams.json.items[0].url)
    paths.segment = paths.playlist.replace('index.m3u8', 'segment-00000.ts')
    const segment = await fetch(stack.cdn + paths.segment)
    assert.equal(segment.status, 200)
    segmentBytes = Buffer.from(await segment.arrayBuffer())
  })
  after(async () => {
    await stack?.close()
    await removeScratchDir(root)
  })

  for (const listener of ['api', 'cdn'] as const) {
    const base = (): string => listener === 'api' ? stack.api : stack.cdn
    const https = { 'x-forwarded-proto': 'https' }

    it(`${listener}: a segment carries its validators; a revalidation is a 304 without a body, on GET and HEAD`, async () => {
      const first = await fetch(base() + paths.segment, { headers: https })
      assert.equal(first.status, 200)
      assert.deepEqual(Buffer.from(await first.arrayBuffer()), segmentBytes)
      const etag = first.headers.get('etag') as string
      const lastModified = first.headers.get('last-modified') as string
      assert.match(etag, /^"[^"]+"$/)
      assert.ok(!Number.isNaN(Date.parse(lastModified)))
      assert.equal(first.headers.get('cache-control'), 'public, max-age=31536000, immutable')
      assert.equal(first.headers.get('content-type'), 'video/mp2t')
      assert.equal(first.headers.get('x-ratelimit-credits'), null, 'media costs nothing and shows no balance')
      for (const [method, headers] of [
        ['GET', { 'if-none-match': etag }],
        ['GET', { 'if-none-match': `"other", W/${etag}` }],
        ['GET', { 'if-none-match': '*' }],
        ['GET', { 'if-modified-since': lastModified }],
        ['HEAD', { 'if-none-match': etag }]
      ] as const) {
        const again = await fetch(base() + paths.segment, { method, headers: { ...https, ...headers } })
        assert.equal(again.status, 304, `${method} ${JSON.stringify(headers)}`)
        assert.equal((await again.arrayBuffer()).byteLength, 0)
        assert.equal(again.headers.get('etag'), etag)
        assert.equal(again.headers.get('cache-control'), 'public, max-age=31536000, immutable')
      }
      const changedSince: Array<Record<string, string>> = [{ 'if-none-match': '"other"' }, { 'if-modified-since': new Date(Date.parse(lastModified) - 1000).toUTCString() }]
      for (const headers of changedSince) {
        const changed = await fetch(base() + paths.segment, { headers: { ...https, ...headers } })
        assert.equal(changed.status, 200, JSON.stringify(headers))
        assert.equal((await changed.arrayBuffer()).byteLength, segmentBytes.length)
      }
    })

    it(`${listener}: HEAD and Range answer from the file's description`, async () => {
      const head = await fetch(base() + paths.segment, { method: 'HEAD', headers: https })
      assert.equal(head.status, 200)
      assert.equal(head.headers.get('content-length'), String(segmentBytes.length))
      assert.equal(head.headers.get('accept-ranges'), 'bytes')
      const headRange = await fetch(base() + paths.segment, { method: 'HEAD', headers: { ...https, range: 'bytes=-100' } })
      assert.equal(headRange.status, 206)
      assert.equal(headRange.headers.get('content-range'), `bytes ${segmentBytes.length - 100}-${segmentBytes.length - 1}/${segmentBytes.length}`)
      assert.equal(headRange.headers.get('content-length'), '100')
      const etag = head.headers.get('etag') as string
      for (const [range, ifRange, status, start, end] of [
        ['bytes=10-19', undefined, 206, 10, 19],
        ['bytes=-5', undefined, 206, segmentBytes.length - 5, segmentBytes.length - 1],
        ['bytes=0-0,5-6', undefined, 200, 0, segmentBytes.length - 1],
        ['bytes=10-19', etag, 206, 10, 19],
        ['bytes=10-19', '"stale"', 200, 0, segmentBytes.length - 1]
      ] as const) {
        const res = await fetch(base() + paths.segment, { headers: { ...https, range, ...(ifRange === undefined ? {} : { 'if-range': ifRange }) } })
        assert.equal(res.status, status, `${range} if-range ${String(ifRange)}`)
        assert.deepEqual(Buffer.from(await res.arrayBuffer()), segmentBytes.subarray(start, end + 1))
      }
      const source = await fetch(base() + paths.source, { headers: { ...https, range: 'bytes=1048576-2097151' } })
      assert.equal(source.status, 206)
      assert.deepEqual(Buffer.from(await source.arrayBuffer()), sourceBytes.subarray(1048576, 2097152))
      assert.match(source.headers.get('content-disposition') ?? '', /^attachment; filename="padded\.mp4"$/)
    })

    it(`${listener}: the master's validator is its content; a playlist answers 304, HEAD and Range`, async () => {
      const master = await fetch(base() + paths.master, { headers: https })
      assert.equal(master.status, 200)
      assert.equal(master.headers.get('cache-control'), 'public, max-age=10')
      const etag = master.headers.get('etag') as string
      assert.match(etag, /^"[A-Za-z0-9_-]{22}"$/)
      const again = await fetch(base() + paths.master, { headers: { ...https, 'if-none-match': etag } })
      assert.equal(again.status, 304)
      const playlist = await fetch(base() + paths.playlist, { headers: https })
      assert.equal(playlist.status, 200)
      const text = await playlist.text()
      assert.match(text, /#EXT-X-ENDLIST/)
      assert.equal(playlist.headers.get('cache-control'), 'no-cache')
      assert.equal(playlist.headers.get('content-type'), 'application/vnd.apple.mpegurl')
      const unchanged = await fetch(base() + paths.playlist, { headers: { ...https, 'if-none-match': playlist.headers.get('etag') as string } })
      assert.equal(unchanged.status, 304)
      assert.equal((await unchanged.arrayBuffer()).byteLength, 0)
      const head = await fetch(base() + paths.playlist, { method: 'HEAD', headers: https })
      assert.equal(head.status, 200)
      assert.equal(head.headers.get('content-length'), String(Buffer.byteLength(text)))
      const ranged = await fetch(base() + paths.playlist, { headers: { ...https, range: 'bytes=0-6' } })
      assert.equal(ranged.status, 206)
      assert.equal(ranged.headers.get('content-range'), `bytes 0-6/${Buffer.byteLength(text)}`)
      assert.equal(await ranged.text(), '#EXTM3U')
      const beyond = await fetch(base() + paths.playlist, { headers: { ...https, range: 'bytes=999999-' } })
      assert.equal(beyond.status, 416)
      assert.equal(beyond.headers.get('content-range'), `bytes */${Buffer.byteLength(text)}`)
    })
  }

  it('reads a growing playlist every time and keeps a final one in memory', async () => {
    // A rendition folder of the version written here by hand, as the worker writes one: first an EVENT
    // playlist that grows, then the VOD one (`#EXT-X-ENDLIST`) that is never written again.
    const [, , token, version] = paths.playlist.split('/')
    const objects = join(stack.dataDir, 'media', 'objects')
    const found = (await readdir(objects, { recursive: true })).find((file) => file.endsWith(`${version as string}/preview.jpg`)) as string
    const folder = join(objects, found.replace(/preview\.jpg$/, ''), 'grow')
    await mkdir(folder, { recursive: true })
    // Written as the store writes: a new file renamed into place.
    const write = async (text: string): Promise<void> => {
      await writeFile(join(folder, 'next'), text)
      await rename(join(folder, 'next'), join(folder, 'index.m3u8'))
    }
    const url = `${stack.cdn}/media/${token as string}/${version as string}/grow/index.m3u8`
    const head = '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-PLAYLIST-TYPE:EVENT\n#EXTINF:2.0,\nsegment-00000.ts\n'
    await write(head)
    assert.equal(await (await fetch(url)).text(), head)
    const grown = `${head}#EXTINF:2.0,\nsegment-00001.ts\n`
    await write(grown)
    assert.equal(await (await fetch(url)).text(), grown, 'a growing playlist is read again')
    const final = `${grown}#EXT-X-ENDLIST\n`
    await write(final)
    const first = await fetch(url)
    assert.equal(await first.text(), final)
    await write(`${final}# written again, never served\n`)
    const kept = await fetch(url)
    assert.equal(await kept.text(), final, 'a final playlist is answered from memory')
    assert.equal(kept.headers.get('etag'), first.headers.get('etag'))
  })

  it('answers bad media requests with the catalogue\'s errors, never cached for long, and changes nothing', async () => {
    const token = paths.master.split('/')[2] as string
    const version = paths.playlist.split('/')[3] as string
    const unknown = 'A'.repeat(32)
    for (const [method, path, headers, status, code] of [
      ['GET', `/media/${unknown}/master.m3u8`, {}, 404, 'media_not_found'],
      ['GET', `/media/${unknown}/preview.jpg`, {}, 404, 'media_not_found'],
      ['GET', `/media/${unknown}/source`, {}, 404, 'media_not_found'],
      ['GET', `/media/${unknown}/${version}/360p/segment-00000.ts`, {}, 404, 'media_not_found'],
      ['HEAD', `/media/${unknown}/${version}/360p/segment-00000.ts`, {}, 404, undefined],
      ['GET', `/media/${token}/${version}/360p/segment-09999.ts`, {}, 404, 'media_not_found'],
      ['HEAD', `/media/${token}/${version}/360p/segment-09999.ts`, {}, 404, undefined],
      ['GET', `/media/${token}/${'B'.repeat(22)}/360p/index.m3u8`, {}, 404, 'media_not_found'],
      ['GET', `/media/${token}/${version}/360p/segment-0.ts`, {}, 400, 'validation_failed'],
      ['GET', '/media/short/master.m3u8', {}, 400, 'validation_failed'],
      ['GET', `${paths.master}?start=1`, {}, 400, 'validation_failed'],
      ['GET', `${paths.master}?end=1`, {}, 400, 'validation_failed'],
      ['GET', `${paths.master}?start=2&end=1`, {}, 400, 'validation_failed'],
      ['GET', `${paths.master}?start=-1&end=1`, {}, 400, 'validation_failed'],
      ['GET', `${paths.master}?start=abc&end=1`, {}, 400, 'validation_failed'],
      ['GET', `${paths.playlist}?start=1&end=1`, {}, 400, 'validation_failed'],
      ['GET', `/media/${token}/${'B'.repeat(22)}/360p/index.m3u8?start=0&end=1`, {}, 404, 'media_not_found'],
      ['GET', paths.segment, { range: 'bytes=99999999-' }, 416, 'range_not_satisfiable'],
      ['HEAD', paths.segment, { range: 'bytes=99999999-' }, 416, undefined],
      ['POST', paths.segment, {}, 405, 'method_not_allowed'],
      ['DELETE', paths.master, {}, 405, 'method_not_allowed']
    ] as const) {
      const res = await fetch(stack.cdn + path, { method, headers })
      assert.equal(res.status, status, `${method} ${path} ${JSON.stringify(headers)}`)
      if (code !== undefined) assert.equal((await res.json() as { code: string }).code, code, `${method} ${path}`)
      assert.doesNotMatch(res.headers.get('cache-control') ?? '', /immutable|max-age=[1-9]/, `${method} ${path}: an error is not kept`)
    }
    const still = await fetch(stack.cdn + paths.segment)
    assert.deepEqual(Buffer.from(await still.arrayBuffer()), segmentBytes)
  })

  it('keeps answering the API while 100 players read an 8 MB file slowly, within the memory bound', async () => {
    const readers = 100
    const url = new URL(stack.cdn + paths.source)
    const rssBefore = process.memoryUsage().rss
    const sockets: Socket[] = []
    const heads: Array<Promise<string>> = []
    for (let i = 0; i < readers; i++) {
      const socket = connect(Number(url.port), url.hostname)
      socket.on('error', () => {})
      socket.write(`GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`)
      heads.push(new Promise((resolve) => { socket.once('data', (chunk: Buffer) => { socket.pause(); resolve(chunk.toString('latin1', 0, 12)) }) }))
      sockets.push(socket)
    }
    try {
      // Every reader has its answer started and has stopped reading: the server must hold back.
      assert.deepEqual(new Set(await Promise.all(heads)), new Set(['HTTP/1.1 200']))
      let peak = process.memoryUsage().rss
      for (let tick = 0; tick < 8; tick++) {
        // Each reader takes a little, as a slow link would.
        for (const socket of sockets) socket.read(16 * 1024)
        const api = await stack.call('GET', `/v2/assets/${id}`)
        assert.equal(api.status, 200, 'a signed API GET still answers while the players read')
        peak = Math.max(peak, process.memoryUsage().rss)
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      // docs/media.md, "Reads and memory": at most one read of the file (256 KiB, then 64 KiB) held per slow
      // reader, plus its connection; 1 MiB a reader is the documented bound (a whole 8 MB file each would be 800).
      const bound = readers * 1024 * 1024 + 64 * 1024 * 1024
      assert.ok(peak - rssBefore < bound, `RSS grew ${Math.round((peak - rssBefore) / 2 ** 20)} MiB with ${readers} slow readers; bound ${Math.round(bound / 2 ** 20)} MiB`)
    } finally {
      for (const socket of sockets) socket.destroy()
    }
    const after = await fetch(stack.cdn + paths.source, { headers: { range: 'bytes=0-99' } })
    assert.equal(after.status, 206)
    assert.deepEqual(Buffer.from(await after.arrayBuffer()), sourceBytes.subarray(0, 100))
  })

  it('renders the master from the version\'s row: a rendition the row marks enters it at once, the kept master goes', async () => {
    const first = await fetch(stack.cdn + paths.master)
    const before = await first.text()
    assert.equal((await fetch(stack.cdn + paths.master)).headers.get('etag'), first.headers.get('etag'))
    // No master file in the store: the worker records its renditions, the master comes from them.
    const version = paths.playlist.split('/')[3] as string
    const row = await stack.server.ctx.db.selectFrom('media_versions').select(['account_id', 'renditions', 'progress'])
      .where('asset_id', '=', id).where('version', '=', version).executeTakeFirstOrThrow()
    const mediaKeys: string[] = []
    for await (const o of stack.server.ctx.services.mediaStore.list(`accounts/${row.account_id}/assets/${id}/media/`)) mediaKeys.push(o.key)
    assert.ok(!mediaKeys.some((key) => key.endsWith('master.m3u8')), mediaKeys.join(', '))
    const streams = JSON.parse(row.renditions) as any[]
    const grown = { ...streams[0], name: '999p', state: 'processing', bandwidth: 99_000_000, average_bandwidth: 90_000_000, in_master: true }
    const job = { accountId: row.account_id, assetId: id, jobId: 'test', kind: 'ingest' as const, originalKey: '' }
    const assetMedia = stack.server.ctx.services.assetMedia
    try {
      assert.equal(await assetMedia.saveProgress(job, version, [...streams, { ...grown, in_master: false }], row.progress), true)
      assert.equal(await (await fetch(stack.cdn + paths.master)).text(), before, 'not yet in the master')
      assert.equal(await assetMedia.saveProgress(job, version, [...streams, grown], row.progress), true)
      const after = await (await fetch(stack.cdn + paths.master)).text()
      assert.equal(after, `${before}#EXT-X-STREAM-INF:BANDWIDTH=99000000,AVERAGE-BANDWIDTH=90000000,CODECS="${grown.codecs as string}",RESOLUTION=${grown.width as number}x${grown.height as number}\n${version}/999p/index.m3u8\n`)
    } finally {
      await assetMedia.saveProgress(job, version, streams, row.progress)
    }
    assert.equal(await (await fetch(stack.cdn + paths.master)).text(), before)
  })

  it('answers an instant clip: the master\'s variants carry the range, their playlists hold the segments covering it', async () => {
    const master = await (await fetch(`${stack.cdn}${paths.master}?start=0.5&end=1.5`)).text()
    const variant = master.split('\n').find((line) => line.endsWith('index.m3u8?start=0.5&end=1.5'))
    assert.ok(variant !== undefined, master)
    const playlist = await (await fetch(new URL(variant, `${stack.cdn}${paths.master}`))).text()
    const durations = playlist.split('\n').filter((line) => line.startsWith('#EXTINF:')).map((line) => Number.parseFloat(line.slice(8)))
    const total = durations.reduce((a, b) => a + b, 0)
    assert.ok(durations.length >= 1 && Math.abs(total - 1) <= Math.max(...durations), `${total} s against 1 s:\n${playlist}`)
    assert.match(playlist, /#EXT-X-ENDLIST\n$/)
  })

  it('forgets what it kept about the asset once it changes: after a deletion every media URL is a 404', async () => {
    // Looked up and described: the token, the segment's description and the final playlist are now kept.
    assert.equal((await fetch(stack.cdn + paths.segment, { method: 'HEAD' })).status, 200)
    assert.equal((await fetch(stack.cdn + paths.master)).status, 200)
    assert.equal((await fetch(stack.cdn + paths.playlist)).status, 200)
    const deleted = await stack.call('DELETE', `/v2/assets/${id}`)
    assert.equal(deleted.status, 200, JSON.stringify(deleted.json))
    for (const path of [paths.master, paths.segment, paths.playlist, paths.preview, paths.source]) {
      for (const method of ['GET', 'HEAD']) {
        const res = await fetch(stack.cdn + path, { method })
        assert.equal(res.status, 404, `${method} ${path} after the deletion`)
      }
    }
  })
})
