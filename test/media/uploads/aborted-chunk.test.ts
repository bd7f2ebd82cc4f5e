import assert from 'node:assert/strict'
import { connect } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { assetPrefix } from '../../../src/media/store/index.ts'
import { freePort, startClientServer, type ClientServer } from '../../client/support/client-server.ts'

describe('a chunk PUT whose client goes away mid-body', () => {
  let server: ClientServer
  before(async () => {
    const port = await freePort()
    server = await startClientServer('sqlite', { PUBLIC_API_URL: `http://127.0.0.1:${port}` }, { apiPort: port })
  })
  after(async () => { await server?.close() })

  it('stores nothing, records nothing, and the chunk is still missing', async () => {
    const client = server.client()
    const asset = await client.assets.create({ asset_type: 'video', name: 'Cut off', file_name: 'c.mp4', file_size: 200_000, chunk_size: 100_000 })
    const [url] = await client.assets.uploads.chunkUrls(asset.embed_code)
    const target = new URL(url as string)
    const socket = connect(Number(target.port), target.hostname)
    await new Promise<void>((resolve) => socket.once('connect', resolve))
    const closed = new Promise<void>((resolve) => socket.once('close', () => { resolve() }))
    socket.write(`PUT ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nContent-Length: 100000\r\nContent-Type: application/octet-stream\r\n\r\n`)
    socket.write(Buffer.alloc(40_000, 1))
    // Wait until the server has the first bytes (the upload row is touched only after the body), then go away.
    await new Promise<void>((resolve) => socket.write(Buffer.alloc(1000, 1), () => { resolve() }))
    socket.destroy()
    await closed

    // The server keeps answering; the cut chunk is neither good nor bad: it is missing.
    const status = await client.request('PUT', `/v2/assets/${asset.embed_code}/upload_status`, { body: { status: 'uploaded' } }).catch((error: { body?: unknown }) => error.body)
    assert.deepEqual((status as { missing_chunks: string[] }).missing_chunks, ['chunk-000000', 'chunk-000001'])
    const chunks = await server.ctx.db.selectFrom('media_upload_chunks').selectAll().execute()
    assert.deepEqual(chunks, [])
    const keys: string[] = []
    for await (const object of server.ctx.services.mediaStore.list(`${assetPrefix(server.admin.accountId, asset.embed_code)}`)) keys.push(object.key)
    assert.deepEqual(keys, [])
  })
})
