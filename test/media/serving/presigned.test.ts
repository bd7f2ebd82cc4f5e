import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { loadConfig } from '../../../src/config/index.ts'
import { makeScratchDir, makeVideo, mediaSkip, removeScratchDir } from '../../support/media-fixtures.ts'
import { dropBucket, s3Skip, uniqueBucketUrl } from '../../support/rgw.ts'
import { finished, pathOf, startStack, upload, type Stack } from '../e2e/support.ts'

describe('MEDIA_REDIRECT', () => {
  it('refuses `presigned` without an S3 store, and anything but proxy or presigned', () => {
    assert.throws(() => loadConfig({ REELHOUSE_MASTER_KEY: 'ab'.repeat(32), MEDIA_REDIRECT: 'presigned' }), /MEDIA_REDIRECT/)
    assert.throws(() => loadConfig({ REELHOUSE_MASTER_KEY: 'ab'.repeat(32), MEDIA_REDIRECT: 'presigned', MEDIA_STORE_URL: 'file:///tmp/media' }), /MEDIA_REDIRECT/)
    assert.throws(() => loadConfig({ REELHOUSE_MASTER_KEY: 'ab'.repeat(32), MEDIA_REDIRECT: 'redirect' }), /MEDIA_REDIRECT/)
    assert.equal(loadConfig({ REELHOUSE_MASTER_KEY: 'ab'.repeat(32) }).mediaRedirect, 'proxy')
  })
})

/** Against the real Ceph RGW the suite starts (TEST_S3_URL): files answered by a redirect to a pre-signed URL. */
describe('serving media with MEDIA_REDIRECT=presigned (S3)', { skip: mediaSkip || s3Skip() }, () => {
  let stack: Stack
  let root: string
  let bucket: string
  let asset: any
  let segmentPath: string
  let playlistPath: string

  before(async () => {
    root = await makeScratchDir()
    bucket = uniqueBucketUrl()
    stack = await startStack(['api', 'cdn', 'worker'], { MEDIA_STORE_URL: bucket, MEDIA_REDIRECT: 'presigned' })
    const id = await upload(stack, await makeVideo(join(root, 'clip.mp4'), { width: 160, height: 120, seconds: 1 }))
    asset = await finished(stack, id)
    assert.equal(asset.status, 'live', asset.processing_error)
    const streams = await stack.call('GET', `/v2/assets/${id}/streams`)
    playlistPath = pathOf(streams.json.items[0].url)
    segmentPath = playlistPath.replace('index.m3u8', 'segment-00000.ts')
  })
  after(async () => {
    await stack?.close()
    if (bucket !== undefined) await dropBucket(bucket)
    await removeScratchDir(root)
  })

  it('redirects a segment to a pre-signed URL the bucket answers, ranges included; playlists stay ours', async () => {
    const redirect = await fetch(stack.cdn + segmentPath, { redirect: 'manual' })
    assert.equal(redirect.status, 302)
    assert.equal(redirect.headers.get('access-control-allow-origin'), '*')
    const location = redirect.headers.get('location') as string
    assert.match(location, /X-Amz-Signature=/)
    const whole = await fetch(location)
    assert.equal(whole.status, 200)
    assert.equal(whole.headers.get('content-type'), 'video/mp2t')
    assert.equal(whole.headers.get('cache-control'), 'public, max-age=31536000, immutable')
    const bytes = Buffer.from(await whole.arrayBuffer())
    assert.ok(bytes.length > 0 && bytes[0] === 0x47, 'an MPEG-TS segment')
    const ranged = await fetch(location, { headers: { range: 'bytes=0-187' } })
    assert.equal(ranged.status, 206)
    assert.deepEqual(Buffer.from(await ranged.arrayBuffer()), bytes.subarray(0, 188))
    // The signature is checked by the bucket: a changed one is refused.
    const forged = await fetch(location.replace(/X-Amz-Signature=([0-9a-f])/, (_m, c: string) => `X-Amz-Signature=${c === '0' ? '1' : '0'}`))
    assert.equal(forged.status, 403)
    // Followed as a player's XHR would: the same bytes as the bucket sent.
    const followed = await fetch(stack.api + segmentPath, { headers: { 'x-forwarded-proto': 'https' } })
    assert.deepEqual(Buffer.from(await followed.arrayBuffer()), bytes)
    for (const path of [pathOf(asset.stream_urls.iphone), playlistPath]) {
      const playlist = await fetch(stack.cdn + path, { redirect: 'manual' })
      assert.equal(playlist.status, 200, `${path} is served, so its relative URIs stay on our listener`)
      assert.match(await playlist.text(), /^#EXTM3U/)
    }
    const source = await fetch(stack.cdn + pathOf(asset.stream_urls.source_file), { redirect: 'manual' })
    assert.equal(source.status, 302)
    const original = await fetch(source.headers.get('location') as string)
    assert.match(original.headers.get('content-disposition') ?? '', /^attachment; filename="clip\.mp4"$/)
  })

  it('decides before redirecting: an unknown token is a 404, not a redirect; a missing segment is the bucket\'s 404', async () => {
    const unknown = await fetch(`${stack.cdn}/media/${'A'.repeat(32)}/${segmentPath.split('/').slice(3).join('/')}`, { redirect: 'manual' })
    assert.equal(unknown.status, 404)
    assert.equal((await unknown.json() as { code: string }).code, 'media_not_found')
    const missing = await fetch(stack.cdn + segmentPath.replace('segment-00000.ts', 'segment-09999.ts'), { redirect: 'manual' })
    assert.equal(missing.status, 302)
    assert.equal((await fetch(missing.headers.get('location') as string)).status, 404)
  })
})
