import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { cpSync, mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { makeScratchDir, makeVideo, mediaSkip, removeScratchDir } from '../../support/media-fixtures.ts'
import { finished, pathOf, startStack, upload, type Stack } from '../e2e/support.ts'

interface Answer { status: number, headers: Record<string, string>, body: Buffer }

/**
 * The file lane (MEDIA_FILE_SEND=lane, the default) answers exactly as the pipeline's reply does
 * (MEDIA_FILE_SEND=pipeline): an asset is processed once, its data directory copied (the media files
 * hard-linked, so inodes and times — the validators — stay the same), and one server on each copy is
 * asked the same requests; status, every header but Date, and the body bytes must match
 * (docs/media.md, "The request path").
 */
describe('media files: the file lane answers as the pipeline does', { skip: mediaSkip }, () => {
  let root: string
  let lane: Stack
  let pipeline: Stack
  const paths = { segment: '', missing: '', preview: '', source: '', playlist: '' }

  before(async () => {
    root = await makeScratchDir()
    const made = await startStack(['api', 'cdn', 'worker'])
    const id = await upload(made, await makeVideo(join(root, 'clip.mp4'), { width: 320, height: 240, seconds: 2 }))
    const asset = await finished(made, id)
    assert.equal(asset.status, 'live', asset.processing_error)
    paths.source = pathOf(asset.stream_urls.source_file)
    paths.preview = pathOf(asset.preview_image_url)
    const streams = await made.call('GET', `/v2/assets/${id}/streams`)
    paths.playlist = pathOf(streams.json.items[0].url)
    paths.segment = paths.playlist.replace('index.m3u8', 'segment-00000.ts')
    paths.missing = paths.playlist.replace('index.m3u8', 'segment-99999.ts')
    await made.server.close()
    const copy = mkdtempSync(join(tmpdir(), 'reelhouse-lane-'))
    for (const entry of readdirSync(made.dataDir)) {
      if (entry === 'reelhouse.pid') continue
      if (entry === 'media') execFileSync('cp', ['-al', join(made.dataDir, entry), join(copy, entry)])
      else cpSync(join(made.dataDir, entry), join(copy, entry), { recursive: true })
    }
    lane = await startStack(['api', 'cdn'], {}, made.dataDir)
    pipeline = await startStack(['api', 'cdn'], { MEDIA_FILE_SEND: 'pipeline' }, copy)
  })
  after(async () => {
    await pipeline?.close()
    await lane?.close()
    await removeScratchDir(root)
  })

  async function ask (base: string, path: string, method: string, headers: Record<string, string>): Promise<Answer> {
    const res = await fetch(base + path, { method, headers: { 'x-forwarded-proto': 'https', 'x-request-id': 'parity-request-0001', ...headers } })
    const body = Buffer.from(await res.arrayBuffer())
    const all = Object.fromEntries([...res.headers].filter(([name]) => name !== 'date'))
    return { status: res.status, headers: all, body }
  }

  for (const listener of ['api', 'cdn'] as const) {
    it(`${listener}: status, headers and bytes are the same both ways`, async () => {
      const base = (stack: Stack): string => listener === 'api' ? stack.api : stack.cdn
      const described = await ask(base(lane), paths.segment, 'HEAD', {})
      const etag = described.headers.etag as string
      const lastModified = described.headers['last-modified'] as string
      const table: Array<[keyof typeof paths, string, Record<string, string>, number]> = [
        // The first GET of the original describes it; the second answers from the kept description.
        ['source', 'GET', {}, 200],
        ['source', 'GET', {}, 200],
        ['source', 'GET', { range: 'bytes=100-1099' }, 206],
        ['segment', 'GET', {}, 200],
        ['segment', 'GET', { range: 'bytes=10-19' }, 206],
        ['segment', 'GET', { range: 'bytes=-5' }, 206],
        ['segment', 'GET', { range: 'bytes=5-' }, 206],
        ['segment', 'GET', { range: 'bytes=0-0,5-6' }, 200],
        ['segment', 'GET', { range: 'bytes=10-19', 'if-range': etag }, 206],
        ['segment', 'GET', { range: 'bytes=10-19', 'if-range': '"stale"' }, 200],
        ['segment', 'GET', { range: 'bytes=999999999-' }, 416],
        ['segment', 'GET', { 'if-none-match': etag }, 304],
        ['segment', 'GET', { 'if-none-match': '"other"' }, 200],
        ['segment', 'GET', { 'if-modified-since': lastModified }, 304],
        ['segment', 'HEAD', {}, 200],
        ['segment', 'HEAD', { range: 'bytes=-100' }, 206],
        ['missing', 'GET', {}, 404],
        ['preview', 'GET', {}, 200],
        ['preview', 'GET', { range: 'bytes=0-99' }, 206],
        ['playlist', 'GET', {}, 200]
      ]
      for (const [file, method, headers, status] of table) {
        const name = `${method} ${file} ${JSON.stringify(headers)}`
        const fromLane = await ask(base(lane), paths[file], method, headers)
        const fromPipeline = await ask(base(pipeline), paths[file], method, headers)
        assert.equal(fromLane.status, status, name)
        assert.equal(fromPipeline.status, status, name)
        assert.deepEqual(fromLane.headers, fromPipeline.headers, name)
        assert.ok(fromLane.body.equals(fromPipeline.body), `${name}: the same bytes`)
        if (status === 200 && method === 'GET') assert.equal(fromLane.body.length, Number(fromLane.headers['content-length']), name)
      }
    })
  }
})
