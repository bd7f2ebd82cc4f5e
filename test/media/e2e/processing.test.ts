import assert from 'node:assert/strict'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { checkMedia, makeAudio, makeScratchDir, makeVideo, mediaSkip, meanLuma, removeScratchDir } from '../../support/media-fixtures.ts'
import { dropBucket, s3Skip, uniqueBucketUrl } from '../../support/rgw.ts'
import { finished, fromCdn, pathOf, replace, startStack, upload, type Stack } from './support.ts'

/**
 * Uploaded media, all the way: HTTP upload in parallel chunks → worker → a playable asset whose
 * master playlist, fetched from the cdn listener over plain HTTP, plays in ffprobe to the source's length.
 */
for (const store of [{ name: 'file', skip: false as const }, { name: 's3', skip: s3Skip() }]) {
  describe(`processing an upload into a playable asset (${store.name} media store)`, { skip: mediaSkip || store.skip }, () => {
    let stack: Stack
    let root: string
    const bucket = store.name === 's3' ? uniqueBucketUrl() : undefined
    before(async () => {
      root = await makeScratchDir()
      // Replaced media stays 5 s for players in the middle of it (6 h by default).
      stack = await startStack(['api', 'cdn', 'worker'], { MEDIA_RETIRE_AFTER_SECONDS: '5', ...bucket === undefined ? {} : { MEDIA_STORE_URL: bucket } })
    })
    after(async () => {
      await stack?.close()
      if (bucket !== undefined) await dropBucket(bucket)
      await removeScratchDir(root)
    })

    /** Checks a live asset against its source: duration, preview, and the master playlist played back over HTTP. */
    async function assertPlayable (asset: any, source: string, expect: { preview: boolean }): Promise<{ master: Awaited<ReturnType<typeof checkMedia>> }> {
      const sourceMs = (await checkMedia(source)).durationMs
      assert.equal(asset.status, 'live', asset.processing_error)
      assert.ok(Math.abs(asset.duration - sourceMs) <= 100, `duration ${asset.duration} ms vs ffprobe's ${sourceMs} ms`)
      assert.equal(asset.stream_urls.iphone, asset.stream_urls.ipad)
      assert.match(asset.stream_urls.iphone, /\/media\/[A-Za-z0-9_-]{32}\/master\.m3u8$/)
      const masterUrl = stack.cdn + pathOf(asset.stream_urls.iphone)
      const master = await fetch(masterUrl)
      assert.equal(master.status, 200)
      assert.equal(master.headers.get('content-type'), 'application/vnd.apple.mpegurl')
      assert.equal(master.headers.get('access-control-allow-origin'), '*')
      const played = await checkMedia(masterUrl)
      assert.ok(Math.abs(played.durationMs - sourceMs) <= 100, `the master plays ${played.durationMs} ms vs ffprobe's ${sourceMs} ms`)

      if (expect.preview) {
        const preview = await fromCdn(stack, asset.preview_image_url)
        assert.equal(preview.status, 200)
        assert.equal(preview.headers.get('content-type'), 'image/jpeg')
        const file = join(root, `${asset.embed_code}.jpg`)
        await writeFile(file, Buffer.from(await preview.arrayBuffer()))
        const image = await checkMedia(file)
        assert.equal(image.streams[0]?.codec_name, 'mjpeg')
      } else {
        assert.equal(asset.preview_image_url, null)
      }
      const original = await fromCdn(stack, asset.stream_urls.source_file, { range: 'bytes=0-9' })
      assert.equal(original.status, 206)
      assert.equal((await original.arrayBuffer()).byteLength, 10)
      return { master: played }
    }

    it('makes a video with sound live: duration, a decodable JPEG preview, an HLS ladder that plays from the cdn', async () => {
      const source = await makeVideo(join(root, 'clip.mp4'), { width: 1280, height: 720, seconds: 4 })
      const id = await upload(stack, source)
      const asset = await finished(stack, id)
      const { master } = await assertPlayable(asset, source, { preview: true })
      assert.ok(master.streams.some((s) => s.codec_type === 'audio' && s.codec_name === 'aac'))
      const streams = await stack.call('GET', `/v2/assets/${id}/streams`)
      assert.deepEqual(streams.json.items.map((s: any) => [s.name, s.state, s.width, s.height]), [['360p', 'ready', 640, 360], ['720p', 'ready', 1280, 720]])
      // A media playlist grows while its rendition is made, then ends as VOD under the same URL: never cached.
      const variant = await fetch(stack.cdn + pathOf(streams.json.items[1].url))
      assert.equal(variant.status, 200)
      assert.equal(variant.headers.get('cache-control'), 'no-cache')
      const variantText = await variant.text()
      assert.match(variantText, /#EXT-X-PLAYLIST-TYPE:VOD\n/)
      assert.match(variantText, /#EXT-X-ENDLIST\n$/)
      // Segments never change: cached for a year.
      const segment = await fetch(new URL(variantText.split('\n').find((line) => line.endsWith('.ts')) as string, stack.cdn + pathOf(streams.json.items[1].url)))
      assert.equal(segment.status, 200)
      assert.match(segment.headers.get('cache-control') ?? '', /max-age=31536000, immutable/)
      const beyond = await fromCdn(stack, asset.preview_image_url, { range: 'bytes=99999999-' })
      assert.equal(beyond.status, 416)
      assert.match(beyond.headers.get('content-range') ?? '', /^bytes \*\/\d+$/)
      assert.equal((await beyond.json()).code, 'range_not_satisfiable')
      const unknown = await fetch(`${stack.cdn}/media/${'A'.repeat(32)}/master.m3u8`)
      assert.equal(unknown.status, 404)
      // The api listener serves the same paths (over HTTPS in production; behind the test's proxy here).
      const onApi = await fetch(stack.api + pathOf(asset.stream_urls.iphone), { headers: { 'x-forwarded-proto': 'https' } })
      assert.equal(onApi.status, 200)
      assert.equal(await onApi.text(), await (await fromCdn(stack, asset.stream_urls.iphone)).text())
      const info = await stack.call('GET', `/v2/assets/${id}/source_file_info`)
      // The header's claim; the asset's duration is what its renditions play (within a frame or an audio packet).
      assert.ok(Math.abs(info.json.duration - asset.duration) <= 100, `${info.json.duration} vs ${asset.duration}`)
      assert.deepEqual(info.json.streams.map((s: any) => [s.type, s.codec, s.width, s.height]), [['video', 'h264', 1280, 720], ['audio', 'aac', null, null]])
      // The worker's figures join the process's /metrics.
      const metrics = await stack.server.ctx.metrics.text()
      assert.match(metrics, /^reelhouse_media_jobs_done_total 1$/m)
      assert.match(metrics, /^reelhouse_media_jobs_pending 0$/m)
      // Feeds carry the processed media, never the private original: the HLS master, with the preview.
      const pcode = stack.admin.api_key.split('.')[0] as string
      for (const [type, url] of [['mrss', asset.stream_urls.iphone], ['itunes', asset.stream_urls.iphone]]) {
        const created = await stack.call('POST', '/v2/syndications', { name: `Feed ${type}`, type, include_all_content: true })
        assert.equal(created.status, 200, JSON.stringify(created.json))
        const feed = await fetch(`${stack.cdn}/v2/syndications/${created.json.id}/feed?pcode=${pcode}`)
        const xml = await feed.text()
        assert.equal(feed.status, 200, xml)
        assert.ok(xml.includes(url), `${type} feed carries ${url}`)
        assert.ok(xml.includes(asset.preview_image_url), `${type} feed carries the preview`)
      }
    })

    it('makes a video without an audio track live', async () => {
      const source = await makeVideo(join(root, 'silent.mp4'), { width: 640, height: 360, seconds: 3, audio: false })
      const asset = await finished(stack, await upload(stack, source))
      const { master } = await assertPlayable(asset, source, { preview: true })
      assert.ok(!master.streams.some((s) => s.codec_type === 'audio'))
    })

    it('makes an audio file live as audio-only HLS, without a preview', async () => {
      const source = await makeAudio(join(root, 'tone.mp3'), 3)
      const asset = await finished(stack, await upload(stack, source, { assetType: 'audio' }))
      const { master } = await assertPlayable(asset, source, { preview: false })
      assert.deepEqual(master.streams.map((s) => s.codec_type), ['audio'])
    })

    it('turns a phone video with rotation metadata upright', async () => {
      const source = await makeVideo(join(root, 'phone.mp4'), { width: 640, height: 360, seconds: 2, rotate: 90, picture: 'halves' })
      const asset = await finished(stack, await upload(stack, source))
      const { master } = await assertPlayable(asset, source, { preview: true })
      const video = master.streams.find((s) => s.codec_type === 'video')
      assert.deepEqual([video?.width, video?.height], [360, 640])
      // The stored frame's white left half ends at the top or bottom once upright, not stretched on the left.
      const preview = join(root, `${asset.embed_code}.jpg`)
      const [top, bottom] = [await meanLuma(preview, 'top'), await meanLuma(preview, 'bottom')]
      assert.ok(Math.abs(top - bottom) > 150, `top ${top} vs bottom ${bottom}`)
    })

    it('ends random bytes named .mp4 in error, with a reason a person understands', async () => {
      const file = join(root, 'noise.mp4')
      await writeFile(file, Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 7919 + 13) % 251)))
      const asset = await finished(stack, await upload(stack, file))
      assert.equal(asset.status, 'error')
      assert.match(asset.processing_error, /^The file is not a video or audio file we can read/)
      assert.equal(asset.stream_urls, null)
      const streams = await stack.call('GET', `/v2/assets/${asset.embed_code}/streams`)
      assert.deepEqual(streams.json.items, [])
    })

    it('replaces the media of a live asset: live on the old media meanwhile, then the new one at the same URLs; the old files stay for players in the middle of them, then go', async () => {
      const first = await makeVideo(join(root, 'first.mp4'), { width: 640, height: 360, seconds: 2 })
      const second = await makeVideo(join(root, 'second.mp4'), { width: 640, height: 360, seconds: 5 })
      const before = await finished(stack, await upload(stack, first))
      const oldStreams = (await stack.call('GET', `/v2/assets/${before.embed_code}/streams`)).json.items
      await replace(stack, before.embed_code, second)
      const during = await stack.call('GET', `/v2/assets/${before.embed_code}`)
      assert.equal(during.json.status, 'live')
      const secondMs = (await checkMedia(second)).durationMs
      const after = await finished(stack, before.embed_code, (asset) => Math.abs(asset.duration - secondMs) <= 100)
      const old = await fromCdn(stack, oldStreams[0].url)
      assert.equal(old.status, 200, 'a player that started on the old media can finish it')
      await old.arrayBuffer()
      assert.equal(after.status, 'live')
      assert.deepEqual(after.stream_urls, before.stream_urls)
      await assertPlayable(after, second, { preview: true })
      const deadline = Date.now() + 30_000
      for (;;) {
        const later = await fromCdn(stack, oldStreams[0].url)
        await later.arrayBuffer()
        if (later.status === 404) break
        assert.ok(Date.now() < deadline, 'the old media\'s rendition is removed once its retirement ends')
        await new Promise((resolve) => setTimeout(resolve, 250))
      }
    })

    it('removes an asset\'s media when the asset is deleted', async () => {
      const source = await makeVideo(join(root, 'gone.mp4'), { width: 640, height: 360, seconds: 2 })
      const asset = await finished(stack, await upload(stack, source))
      assert.equal((await fromCdn(stack, asset.stream_urls.iphone)).status, 200)
      const keys = async (): Promise<string[]> => {
        const found: string[] = []
        for await (const o of stack.server.ctx.services.mediaStore.list('accounts/')) if (o.key.includes(`/assets/${asset.embed_code}/`)) found.push(o.key)
        return found
      }
      assert.ok((await keys()).length > 3)
      assert.equal((await stack.call('DELETE', `/v2/assets/${asset.embed_code}`)).status, 200)
      assert.deepEqual(await keys(), [])
      const master = await fromCdn(stack, asset.stream_urls.iphone)
      assert.equal(master.status, 404)
      assert.equal((await master.json()).code, 'media_not_found')
    })
  })
}
