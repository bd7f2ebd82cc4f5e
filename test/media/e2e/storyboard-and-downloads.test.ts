import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { after, before, describe, it } from 'node:test'
import { checkMedia, makeScratchDir, mediaSkip, removeScratchDir } from '../../support/media-fixtures.ts'
import { signedPath } from '../../../src/signing/index.ts'
import { finished, fromCdn, pathOf, startStack, upload, type Stack } from './support.ts'

/**
 * Storyboards and downloads (docs/media.md): the storyboard's sprite sheets come from the ladder's own
 * decode (or a decode of their own beside a copy alone) and its WebVTT cues point inside them;
 * `mp4_support: "standard"` adds an MP4 of the top rendition and an M4A of its audio, remuxed, which
 * `mp4` syndications carry.
 */
const run = promisify(execFile)

/** H.264 below High (the ladder encodes High, so an MP4 of the source's profile is the copy, remuxed) + AAC-LC. */
async function standardClip (file: string, size: string, seconds: number): Promise<string> {
  await run('ffmpeg', [
    '-nostdin', '-hide_banner', '-loglevel', 'error', '-y',
    '-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=25`, '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000', '-t', String(seconds),
    '-c:v', 'libx264', '-preset', 'ultrafast', '-profile:v', 'main', '-pix_fmt', 'yuv420p', '-g', '50', '-b:v', '600k',
    '-c:a', 'aac', '-b:a', '96k', file
  ])
  return file
}

/** The schema's answer to a remote_url that is not an absolute http(s) URL. */
const REMOTE_URL_MESSAGE = 'Field url must be an absolute http(s) URL.'

interface Cue { startMs: number, endMs: number, sprite: string, x: number, y: number, w: number, h: number }

function parseVtt (text: string): Cue[] {
  assert.ok(text.startsWith('WEBVTT\n'), text.slice(0, 40))
  const time = (t: string): number => {
    const [h, m, s] = t.split(':')
    return Math.round((Number(h) * 3600 + Number(m) * 60 + Number(s)) * 1000)
  }
  const cues: Cue[] = []
  for (const block of text.split('\n\n').slice(1).filter((b) => b.trim() !== '')) {
    const [timing, payload] = block.split('\n')
    const t = /^(\S+) --> (\S+)$/.exec(timing ?? '')
    const p = /^(.+)#xywh=(\d+),(\d+),(\d+),(\d+)$/.exec(payload ?? '')
    assert.ok(t !== null && p !== null, `a cue: ${block}`)
    cues.push({ startMs: time(t[1] as string), endMs: time(t[2] as string), sprite: p[1] as string, x: Number(p[2]), y: Number(p[3]), w: Number(p[4]), h: Number(p[5]) })
  }
  return cues
}

/** A still image made by ffmpeg: `png` or `jpg`. */
async function stillImage (file: string): Promise<Buffer> {
  await run('ffmpeg', ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=320x180', '-frames:v', '1', file])
  return await readFile(file)
}

describe('storyboards, previews and downloads', { skip: mediaSkip }, () => {
  let stack: Stack
  let root: string
  /** The video of the first test, processed with its generated preview images. */
  let videoId = ''

  /** A signed request whose body is raw bytes, as `preview_image_files` takes them. */
  async function rawCall (method: string, path: string, body?: Buffer): Promise<{ status: number, json: any }> {
    const url = signedPath({ apiKey: stack.admin.api_key, secret: stack.admin.secret, method, path, body })
    const res = await fetch(stack.api + url, { method, body: body === undefined ? undefined : new Uint8Array(body), headers: { 'x-forwarded-proto': 'https', 'content-type': 'application/octet-stream' } })
    const raw = await res.text()
    return { status: res.status, json: raw === '' ? undefined : JSON.parse(raw) }
  }
  before(async () => {
    root = await makeScratchDir()
    stack = await startStack(['api', 'cdn', 'worker'])
  })
  after(async () => {
    await stack?.close()
    await removeScratchDir(root)
  })

  /** Fetches the storyboard and checks every cue against its sheet's decoded size; answers the cues. */
  async function checkStoryboard (asset: any): Promise<Cue[]> {
    const res = await fromCdn(stack, asset.stream_urls.storyboard)
    assert.equal(res.status, 200)
    assert.equal(res.headers.get('content-type'), 'text/vtt; charset=utf-8')
    assert.equal(res.headers.get('cache-control'), 'no-cache')
    const cues = parseVtt(await res.text())
    assert.ok(cues.length > 0)
    const sizes = new Map<string, { width: number, height: number }>()
    for (const cue of cues) {
      if (!sizes.has(cue.sprite)) {
        // Sheet URLs are relative to the WebVTT file's.
        const url = new URL(cue.sprite, asset.stream_urls.storyboard).href
        const sheet = await fromCdn(stack, url)
        assert.equal(sheet.status, 200, url)
        assert.equal(sheet.headers.get('content-type'), 'image/jpeg')
        assert.equal(sheet.headers.get('cache-control'), 'public, max-age=31536000, immutable')
        const file = join(root, `sheet-${sizes.size}-${cue.sprite.split('/').pop() as string}`)
        await writeFile(file, Buffer.from(await sheet.arrayBuffer()))
        const [stream] = (await checkMedia(file)).streams
        sizes.set(cue.sprite, { width: Number(stream?.width), height: Number(stream?.height) })
      }
      const size = sizes.get(cue.sprite) as { width: number, height: number }
      assert.ok(cue.w > 0 && cue.h > 0 && cue.x + cue.w <= size.width && cue.y + cue.h <= size.height, `${JSON.stringify(cue)} inside ${size.width}×${size.height}`)
    }
    // The cues follow each other from 0 to the end of what plays.
    assert.equal(cues[0]?.startMs, 0)
    for (let i = 1; i < cues.length; i++) assert.equal(cues[i]?.startMs, cues[i - 1]?.endMs)
    assert.equal(cues.at(-1)?.endMs, asset.duration)
    return cues
  }

  it('a storyboard from the ladder\'s decode, an MP4 and an M4A remuxed, carried by an mp4 feed', async () => {
    const file = await standardClip(join(root, 'clip.mp4'), '854x480', 12)
    const id = await upload(stack, file, { mp4Support: 'standard' })
    const asset = await finished(stack, id, (a) => a.stream_urls?.mp4 !== undefined)
    assert.equal(asset.status, 'live', asset.processing_error)
    assert.equal(asset.mp4_support, 'standard')
    videoId = id
    // 480p copied, 360p encoded: the storyboard is one more branch of the 360p run's decode.
    const cues = await checkStoryboard(asset)
    assert.equal(cues.length, 6, 'a frame every 2 s of 12 s')
    assert.deepEqual([cues[0]?.w, cues[0]?.h], [160, 90])
    assert.deepEqual(cues.slice(0, 6).map((c) => [c.x, c.y]), [[0, 0], [160, 0], [320, 0], [480, 0], [640, 0], [0, 90]])

    assert.equal(asset.stream_urls.mp4.endsWith('/download.mp4'), true)
    const mp4 = await fromCdn(stack, asset.stream_urls.mp4)
    assert.equal(mp4.status, 200)
    assert.equal(mp4.headers.get('content-type'), 'video/mp4')
    assert.equal(mp4.headers.get('content-disposition'), 'attachment; filename="clip.mp4"')
    await writeFile(join(root, 'download.mp4'), Buffer.from(await mp4.arrayBuffer()))
    const video = await checkMedia(join(root, 'download.mp4'))
    // The copied top rendition, not encoded again: the source's own profile (the ladder encodes High) and size.
    const sourceProfile = (await checkMedia(file)).streams.find((s) => s.codec_type === 'video')?.profile
    assert.notEqual(sourceProfile, 'High')
    assert.deepEqual(video.streams.map((s) => [s.codec_type, s.codec_name, s.profile, s.width]), [['video', 'h264', sourceProfile, 854], ['audio', 'aac', 'LC', undefined]])
    assert.ok(Math.abs(video.durationMs - asset.duration) <= 100, `${video.durationMs} vs ${asset.duration}`)

    const m4a = await fromCdn(stack, asset.stream_urls.m4a)
    assert.equal(m4a.status, 200)
    assert.equal(m4a.headers.get('content-type'), 'audio/mp4')
    await writeFile(join(root, 'download.m4a'), Buffer.from(await m4a.arrayBuffer()))
    const audio = await checkMedia(join(root, 'download.m4a'))
    assert.deepEqual(audio.streams.map((s) => [s.codec_type, s.codec_name]), [['audio', 'aac']])
    assert.ok(Math.abs(audio.durationMs - asset.duration) <= 100, `${audio.durationMs} vs ${asset.duration}`)

    const pcode = stack.admin.api_key.split('.')[0] as string
    const created = await stack.call('POST', '/v2/syndications', { name: 'Downloads', type: 'mp4', include_all_content: true })
    assert.equal(created.status, 200, JSON.stringify(created.json))
    const feed = await fetch(`${stack.cdn}/v2/syndications/${created.json.id}/feed?pcode=${pcode}`)
    const xml = await feed.text()
    assert.equal(feed.status, 200, xml)
    assert.ok(xml.includes(asset.stream_urls.mp4), 'the mp4 feed carries the MP4 download')
  })

  it('a copy alone gets its storyboard from a decode of its own; without mp4_support no downloads', async () => {
    const file = await standardClip(join(root, 'small.mp4'), '640x360', 5)
    const id = await upload(stack, file)
    const asset = await finished(stack, id)
    assert.equal(asset.status, 'live', asset.processing_error)
    assert.equal(asset.mp4_support, 'none')
    assert.deepEqual(Object.keys(asset.stream_urls).sort(), ['ipad', 'iphone', 'source_file', 'storyboard'])
    const cues = await checkStoryboard(asset)
    assert.equal(cues.length, 3, 'frames at 0, 2 and 4 s of 5 s')
    const res = await fromCdn(stack, asset.stream_urls.storyboard.replace('storyboard.vtt', 'download.mp4'))
    assert.equal(res.status, 404)
    assert.equal(pathOf(asset.stream_urls.storyboard).endsWith('/storyboard.vtt'), true)
  })

  it('generated preview images from the same decode; a chosen frame or a sent file becomes the preview', async () => {
    assert.notEqual(videoId, '', 'the first test processed the video')
    const generated = await stack.call('GET', `/v2/assets/${videoId}/generated_preview_images`)
    assert.equal(generated.status, 200, JSON.stringify(generated.json))
    // 12 s: about ten frames, 2 s apart from 0, at the preview's size (854×480 → 640×360).
    assert.deepEqual(generated.json.map((f: any) => [f.time, f.width, f.height]), [0, 2, 4, 6, 8, 10].map((t) => [t, 640, 360]))
    const frames: Buffer[] = []
    for (const f of generated.json) {
      const res = await fromCdn(stack, f.url)
      assert.equal(res.status, 200, f.url)
      assert.equal(res.headers.get('content-type'), 'image/jpeg')
      frames.push(Buffer.from(await res.arrayBuffer()))
    }
    const file = join(root, 'frame.jpg')
    await writeFile(file, frames[2] as Buffer)
    assert.deepEqual((await checkMedia(file)).streams.map((s) => [s.width, s.height]), [[640, 360]])

    const chosen = await stack.call('PUT', `/v2/assets/${videoId}/primary_preview_image`, { type: 'generated', time: 4.6 })
    assert.equal(chosen.status, 200, JSON.stringify(chosen.json))
    const asset = (await stack.call('GET', `/v2/assets/${videoId}`)).json
    assert.deepEqual(chosen.json, { type: 'generated', time: 4, url: asset.preview_image_url })
    assert.deepEqual((await stack.call('GET', `/v2/assets/${videoId}/primary_preview_image`)).json, chosen.json)
    const preview = await fromCdn(stack, asset.preview_image_url)
    assert.ok(Buffer.from(await preview.arrayBuffer()).equals(frames[2] as Buffer), 'the preview is the frame at 4 s')

    const png = await stillImage(join(root, 'still.png'))
    const sent = await rawCall('POST', `/v2/assets/${videoId}/preview_image_files`, png)
    assert.equal(sent.status, 200, JSON.stringify(sent.json))
    assert.deepEqual(sent.json, { type: 'image/png', width: 320, height: 180, size: png.length })
    const uploaded = await stack.call('PUT', `/v2/assets/${videoId}/primary_preview_image`, { type: 'uploaded_file' })
    assert.deepEqual(uploaded.json, { type: 'uploaded_file', time: null, url: asset.preview_image_url })
    const served = await fromCdn(stack, asset.preview_image_url)
    assert.equal(served.headers.get('content-type'), 'image/png')
    assert.ok(Buffer.from(await served.arrayBuffer()).equals(png), 'the preview is the file sent')
  })

  it('answers each bad preview request exactly, keeping the preview as it was', async () => {
    assert.notEqual(videoId, '', 'the first test processed the video')
    const jpeg = await stillImage(join(root, 'still.jpg'))
    const png = await readFile(join(root, 'still.png'))
    // A JPEG whose scan data is noise: its markers are all in place, but it does not decode.
    const sos = jpeg.lastIndexOf(Buffer.from([0xff, 0xda]))
    const noisy = Buffer.concat([jpeg.subarray(0, sos + 14), Buffer.alloc(jpeg.length - sos - 16, 0x7f), Buffer.from([0xff, 0xd9])])
    const waiting = (await stack.call('POST', '/v2/assets', { asset_type: 'video', name: 'Not yet', file_name: 'x.mp4', file_size: 100 })).json.embed_code as string
    const urlBefore = (await stack.call('GET', `/v2/assets/${videoId}`)).json.preview_image_url as string
    const previewBefore = Buffer.from(await (await fromCdn(stack, urlBefore)).arrayBuffer())
    const files = `/v2/assets/${videoId}/preview_image_files`
    const primary = `/v2/assets/${videoId}/primary_preview_image`
    const rows: Array<{ name: string, send: () => Promise<{ status: number, json: any }>, status: number, code: string, message: string }> = [
      { name: 'text as an image', send: async () => await rawCall('POST', files, Buffer.from('hello, not an image')), status: 400, code: 'preview_image_invalid', message: 'The body is not a JPEG or PNG image.' },
      { name: 'an empty body', send: async () => await rawCall('POST', files), status: 400, code: 'preview_image_invalid', message: 'The body is not a JPEG or PNG image.' },
      { name: 'bytes after a JPEG\'s EOI', send: async () => await rawCall('POST', files, Buffer.concat([jpeg, Buffer.from('&admin=1')])), status: 400, code: 'preview_image_invalid', message: 'Bytes follow the end of the JPEG image (its EOI marker).' },
      { name: 'bytes after a PNG\'s IEND', send: async () => await rawCall('POST', files, Buffer.concat([png, Buffer.from([0x80, 0, 0, 0])])), status: 400, code: 'preview_image_invalid', message: 'Bytes follow the end of the PNG image (its IEND chunk).' },
      { name: 'a PNG cut short', send: async () => await rawCall('POST', files, png.subarray(0, png.length - 20)), status: 400, code: 'preview_image_invalid', message: 'The PNG image is cut short (no IEND chunk).' },
      { name: 'a JPEG cut short', send: async () => await rawCall('POST', files, jpeg.subarray(0, jpeg.length - 2)), status: 400, code: 'preview_image_invalid', message: 'The JPEG image is cut short or damaged.' },
      { name: 'a JPEG that does not decode', send: async () => await rawCall('POST', files, noisy), status: 400, code: 'preview_image_invalid', message: 'The image does not decode.' },
      { name: 'an image over 5 MiB', send: async () => await rawCall('POST', files, Buffer.concat([jpeg, Buffer.alloc(5 * 1024 * 1024)])), status: 413, code: 'body_too_large', message: 'Request body is too large.' },
      { name: 'a file before the media is processed', send: async () => await rawCall('POST', `/v2/assets/${waiting}/preview_image_files`, png), status: 409, code: 'preview_not_ready', message: 'The asset has no processed media yet; send its preview image once it is live or paused.' },
      { name: 'a choice before the media is processed', send: async () => await stack.call('PUT', `/v2/assets/${waiting}/primary_preview_image`, { type: 'generated', time: 1 }), status: 409, code: 'preview_not_ready', message: 'The asset has no processed media yet, so there is no preview to choose.' },
      { name: 'a generated choice without a time', send: async () => await stack.call('PUT', primary, { type: 'generated' }), status: 400, code: 'validation_failed', message: 'Field time is required with type generated.' },
      { name: 'an uploaded_file choice with a time', send: async () => await stack.call('PUT', primary, { type: 'uploaded_file', time: 3 }), status: 400, code: 'validation_failed', message: 'Field time is only for type generated.' },
      { name: 'a negative time', send: async () => await stack.call('PUT', primary, { type: 'generated', time: -1 }), status: 400, code: 'validation_failed', message: 'Field time must be at least 0.' },
      { name: 'a time as text', send: async () => await stack.call('PUT', primary, { type: 'generated', time: 'soon' }), status: 400, code: 'validation_failed', message: 'Field time must be a number.' },
      { name: 'an unknown type', send: async () => await stack.call('PUT', primary, { type: 'thumbnail' }), status: 400, code: 'validation_failed', message: 'Field type must be one of generated, uploaded_file, remote_url.' },
      { name: 'an unknown field', send: async () => await stack.call('PUT', primary, { type: 'generated', time: 1, file: 'x.jpg' }), status: 400, code: 'validation_failed', message: 'Unknown fields: file.' },
      { name: 'a remote_url choice without a url', send: async () => await stack.call('PUT', primary, { type: 'remote_url' }), status: 400, code: 'validation_failed', message: 'Field url is required with type remote_url.' },
      { name: 'a remote_url choice with a time', send: async () => await stack.call('PUT', primary, { type: 'remote_url', url: 'https://images.example.com/p.jpg', time: 2 }), status: 400, code: 'validation_failed', message: 'Field time is only for type generated.' },
      { name: 'a generated choice with a url', send: async () => await stack.call('PUT', primary, { type: 'generated', time: 1, url: 'https://images.example.com/p.jpg' }), status: 400, code: 'validation_failed', message: 'Field url is only for type remote_url.' },
      { name: 'an uploaded_file choice with a url', send: async () => await stack.call('PUT', primary, { type: 'uploaded_file', url: 'https://images.example.com/p.jpg' }), status: 400, code: 'validation_failed', message: 'Field url is only for type remote_url.' },
      { name: 'a url that is not http(s)', send: async () => await stack.call('PUT', primary, { type: 'remote_url', url: 'file:///etc/passwd' }), status: 400, code: 'validation_failed', message: REMOTE_URL_MESSAGE },
      { name: 'a relative url', send: async () => await stack.call('PUT', primary, { type: 'remote_url', url: '/poster.jpg' }), status: 400, code: 'validation_failed', message: REMOTE_URL_MESSAGE },
      { name: 'a url with a space', send: async () => await stack.call('PUT', primary, { type: 'remote_url', url: 'https://images.example.com/a poster.jpg' }), status: 400, code: 'validation_failed', message: REMOTE_URL_MESSAGE },
      { name: 'a url with a control character', send: async () => await stack.call('PUT', primary, { type: 'remote_url', url: 'https://images.example.com/poster.jpg\u0000' }), status: 400, code: 'validation_failed', message: REMOTE_URL_MESSAGE },
      { name: 'a url over 2,048 characters', send: async () => await stack.call('PUT', primary, { type: 'remote_url', url: `https://images.example.com/${'a'.repeat(2030)}` }), status: 400, code: 'validation_failed', message: 'Field url must be at most 2048 characters long.' },
      { name: 'a url as a number', send: async () => await stack.call('PUT', primary, { type: 'remote_url', url: 7 }), status: 400, code: 'validation_failed', message: 'Field url must be a string.' },
      { name: 'a remote_url choice before the media is processed', send: async () => await stack.call('PUT', `/v2/assets/${waiting}/primary_preview_image`, { type: 'remote_url', url: 'https://images.example.com/p.jpg' }), status: 409, code: 'preview_not_ready', message: 'The asset has no processed media yet, so there is no preview to choose.' },
      { name: 'a remote_url choice for an asset that does not exist', send: async () => await stack.call('PUT', '/v2/assets/nosuchasset/primary_preview_image', { type: 'remote_url', url: 'https://images.example.com/p.jpg' }), status: 404, code: 'asset_not_found', message: 'Asset nosuchasset does not exist.' },
      { name: 'frames of an asset that does not exist', send: async () => await stack.call('GET', '/v2/assets/nosuchasset/generated_preview_images'), status: 404, code: 'asset_not_found', message: 'Asset nosuchasset does not exist.' },
      { name: 'a file for an asset that does not exist', send: async () => await rawCall('POST', '/v2/assets/nosuchasset/preview_image_files', png), status: 404, code: 'asset_not_found', message: 'Asset nosuchasset does not exist.' }
    ]
    for (const row of rows) {
      const res = await row.send()
      assert.deepEqual([res.status, res.json?.code], [row.status, row.code], `${row.name}: ${JSON.stringify(res.json)}`)
      assert.equal(res.json.message, row.message, row.name)
    }
    const urlAfter = (await stack.call('GET', `/v2/assets/${videoId}`)).json.preview_image_url as string
    assert.equal(urlAfter, urlBefore)
    const previewAfter = Buffer.from(await (await fromCdn(stack, urlAfter)).arrayBuffer())
    assert.ok(previewAfter.equals(previewBefore), 'the preview is unchanged')
    assert.equal((await stack.call('GET', `/v2/assets/${waiting}`)).json.preview_image_url, null)
  })

  it('a remote_url choice stores the URL as the preview without ever fetching it, on a processed video and a remote asset', async () => {
    assert.notEqual(videoId, '', 'the first test processed the video')
    // An image server that counts what reaches it: the service must send it nothing.
    let requests = 0
    const images = createServer((_req, res) => { requests++; res.writeHead(404).end() })
    await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve))
    try {
      const url = `http://127.0.0.1:${(images.address() as AddressInfo).port}/poster.jpg?size=large`
      const generatedUrl = (await stack.call('GET', `/v2/assets/${videoId}`)).json.preview_image_url as string
      const chosen = await stack.call('PUT', `/v2/assets/${videoId}/primary_preview_image`, { type: 'remote_url', url })
      assert.equal(chosen.status, 200, JSON.stringify(chosen.json))
      assert.deepEqual(chosen.json, { type: 'remote_url', time: null, url })
      assert.equal((await stack.call('GET', `/v2/assets/${videoId}`)).json.preview_image_url, url)
      assert.deepEqual((await stack.call('GET', `/v2/assets/${videoId}/primary_preview_image`)).json, chosen.json)

      const remote = (await stack.call('POST', '/v2/assets', { asset_type: 'remote_asset', name: 'Elsewhere', duration: 1000, stream_urls: { iphone: 'https://cdn.example.com/x.m3u8' } })).json.embed_code as string
      assert.deepEqual((await stack.call('GET', `/v2/assets/${remote}/primary_preview_image`)).json, { type: 'default', time: null, url: null })
      const other = await stack.call('PUT', `/v2/assets/${remote}/primary_preview_image`, { type: 'remote_url', url })
      assert.deepEqual([other.status, other.json], [200, { type: 'remote_url', time: null, url }])
      assert.equal((await stack.call('GET', `/v2/assets/${remote}`)).json.preview_image_url, url)
      const frame = await stack.call('PUT', `/v2/assets/${remote}/primary_preview_image`, { type: 'generated', time: 1 })
      assert.deepEqual([frame.status, frame.json.code], [409, 'preview_not_ready'])

      // A generated frame is the preview again: the media URL comes back.
      const back = await stack.call('PUT', `/v2/assets/${videoId}/primary_preview_image`, { type: 'generated', time: 0 })
      assert.deepEqual([back.status, back.json.type, back.json.url], [200, 'generated', generatedUrl])
      assert.equal(requests, 0, 'the service never requested the remote URL')
    } finally {
      await new Promise((resolve) => images.close(resolve))
    }
  })
})
