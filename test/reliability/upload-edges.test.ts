import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { freePort, startClientServer, type ClientServer } from '../client/support/client-server.ts'

// Every upload the API accepts can be completed, over real sockets: an input that could never be
// completed (an empty file, a file larger than the media store keeps) is refused when the upload is
// opened, with a message that says why, and creates nothing.

const EMPTY = 'Field file_size must be at least 1.'
const TOO_LARGE = 'Field file_size must be at most 5497558138880 (5 TiB, the largest file the media store keeps).'

describe('uploads at the edges of their sizes, over real sockets', () => {
  let server: ClientServer
  before(async () => {
    const port = await freePort()
    server = await startClientServer('sqlite', { PUBLIC_API_URL: `http://127.0.0.1:${port}` }, { apiPort: port })
  })
  after(async () => { await server?.close() })

  async function refusal (method: string, path: string, body: object): Promise<{ status: number, message: string }> {
    const error = await server.client().request(method, path, { body }).then(() => undefined, (thrown: { status: number, body?: { message?: string } }) => thrown)
    assert.ok(error !== undefined, `${method} ${path} ${JSON.stringify(body)} was accepted`)
    return { status: error.status, message: error.body?.message ?? '' }
  }

  async function assetCount (): Promise<number> {
    return (await server.client().request<{ items: unknown[] }>('GET', '/v2/assets?limit=500')).items.length
  }

  it('refuses an empty file when the asset is created (as a number and as a numeric string), creating nothing', async () => {
    const before = await assetCount()
    for (const fileSize of [0, '0', '0000']) {
      assert.deepEqual(await refusal('POST', '/v2/assets', { asset_type: 'video', name: 'zero', file_name: 'zero.mp4', file_size: fileSize }), { status: 400, message: EMPTY })
    }
    assert.deepEqual(await refusal('POST', '/v2/assets', { asset_type: 'audio', name: 'zero', file_name: 'zero.mp3', file_size: 0, chunk_size: 1000 }), { status: 400, message: EMPTY })
    assert.equal(await assetCount(), before)
  })

  it('refuses a file larger than the media store keeps', async () => {
    assert.deepEqual(await refusal('POST', '/v2/assets', { asset_type: 'video', name: 'huge', file_name: 'huge.mp4', file_size: 5497558138881, chunk_size: 100_000_000 }), { status: 400, message: TOO_LARGE })
    assert.deepEqual(await refusal('POST', '/v2/assets', { asset_type: 'video', name: 'huge', file_name: 'huge.mp4', file_size: '9007199254740991' }), { status: 400, message: TOO_LARGE })
  })

  // file_size, chunk_size: the smallest file, one chunk larger than the file, an exact multiple, a short
  // last chunk, one byte a chunk, numeric strings.
  const SHAPES: Array<[number | string, number | string | undefined]> = [[1, undefined], [1, 1], [5, 1000], [9, 3], [10, 3], ['7', '1'], ['00012', '5']]
  for (const [fileSize, chunkSize] of SHAPES) {
    it(`completes an upload of ${JSON.stringify(fileSize)} bytes in chunks of ${JSON.stringify(chunkSize ?? 'the whole file')}`, async () => {
      const client = server.client()
      const asset = await client.request<{ embed_code: string, status: string }>('POST', '/v2/assets', {
        body: { asset_type: 'video', name: 'edge', file_name: 'edge.mp4', file_size: fileSize, ...(chunkSize === undefined ? {} : { chunk_size: chunkSize }) }
      })
      assert.equal(asset.status, 'uploading')
      const urls = await client.assets.uploads.chunkUrls(asset.embed_code)
      const size = Number(fileSize)
      const each = chunkSize === undefined ? size : Number(chunkSize)
      assert.equal(urls.length, Math.ceil(size / each))
      for (const [index, url] of urls.entries()) {
        const bytes = Buffer.alloc(Math.min(each, size - index * each), index)
        const res = await fetch(url, { method: 'PUT', body: bytes })
        assert.equal(res.status, 200, await res.text())
      }
      assert.deepEqual(await client.request('PUT', `/v2/assets/${asset.embed_code}/upload_status`, { body: { status: 'uploaded' } }), { status: 'uploaded' })
      assert.equal((await client.request<{ status: string }>('GET', `/v2/assets/${asset.embed_code}`)).status, 'processing')
    })
  }
})
