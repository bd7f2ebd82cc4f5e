import assert from 'node:assert/strict'
import { connect, type Socket } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { after, before, describe, it } from 'node:test'
import { freePort, startClientServer, type ClientServer } from '../client/support/client-server.ts'

/** Opens a connection, sends the head of a request, and collects everything the server answers until it closes. */
async function openRequest (url: URL, head: string): Promise<{ socket: Socket, answer: Promise<string> }> {
  const socket = connect(Number(url.port), url.hostname)
  await new Promise<void>((resolve) => socket.once('connect', resolve))
  let received = ''
  socket.on('data', (data: Buffer) => { received += data.toString('utf8') })
  socket.on('error', () => {})
  const answer = new Promise<string>((resolve) => socket.once('close', () => { resolve(received) }))
  socket.write(head)
  return { socket, answer }
}

function statusOf (answer: string): number {
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1])
}

// A body's deadline is REQUEST_BODY_TIMEOUT_SECONDS plus its length at REQUEST_BODY_MIN_RATE; here
// 1 s plus 4 s for a 256 KiB chunk at 64 KiB/s.
describe('request bodies: a deadline that grows with the body', () => {
  let server: ClientServer
  const CHUNK = 256 * 1024
  before(async () => {
    const port = await freePort()
    server = await startClientServer('sqlite', {
      PUBLIC_API_URL: `http://127.0.0.1:${port}`, REQUEST_BODY_TIMEOUT_SECONDS: '1', REQUEST_BODY_MIN_RATE: String(64 * 1024)
    }, { apiPort: port })
  })
  after(async () => { await server?.close() })

  async function chunkUrl (): Promise<{ url: URL, embedCode: string }> {
    const asset = await server.client().assets.create({ asset_type: 'video', name: 'Slow link', file_name: 's.mp4', file_size: CHUNK })
    const [url] = await server.client().assets.uploads.chunkUrls(asset.embed_code)
    return { url: new URL(url as string), embedCode: asset.embed_code }
  }

  it('takes a chunk that arrives slower than the allowance but above the minimum rate', async () => {
    const { url, embedCode } = await chunkUrl()
    const { socket, answer } = await openRequest(url, `PUT ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Length: ${CHUNK}\r\nConnection: close\r\n\r\n`)
    // 32 KiB every 250 ms (128 KiB/s): 2 s in all, past the 1 s allowance, inside the 5 s deadline.
    for (let sent = 0; sent < CHUNK; sent += 32 * 1024) {
      socket.write(Buffer.alloc(32 * 1024, 7))
      await sleep(250)
    }
    const text = await answer
    assert.equal(statusOf(text), 200, text)
    assert.deepEqual(await server.client().request('PUT', `/v2/assets/${embedCode}/upload_status`, { body: { status: 'uploaded' } }), { status: 'uploaded' })
  })

  it('refuses a chunk that stalls past its deadline with our 408 and closes the connection; the chunk is not taken', async () => {
    const { url, embedCode } = await chunkUrl()
    const { socket, answer } = await openRequest(url, `PUT ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Length: ${CHUNK}\r\n\r\n`)
    socket.write(Buffer.alloc(10_000, 7))
    const text = await answer
    assert.equal(statusOf(text), 408, text)
    assert.match(text, /\r\nconnection: close\r\n/i)
    const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as { code: string, request_id: string }
    assert.equal(body.code, 'request_timeout')
    assert.match(text, new RegExp(`\\r\\nx-request-id: ${body.request_id}\\r\\n`, 'i'))
    const status = await server.client().request('PUT', `/v2/assets/${embedCode}/upload_status`, { body: { status: 'uploaded' } }).catch((error: { body?: unknown }) => error.body)
    assert.deepEqual((status as { missing_chunks: string[], bad_chunks: string[] }), { ...status as object, missing_chunks: ['chunk-000000'], bad_chunks: [] })
  })

  it('refuses a small JSON body that stalls after the allowance, and keeps serving', async () => {
    const { socket, answer } = await openRequest(new URL(server.baseUrl), 'POST /v2/labels HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":')
    const text = await answer
    socket.destroy()
    assert.equal(statusOf(text), 408, text)
    assert.equal((await server.client().labels.create({ name: 'After the slow one' })).name, 'After the slow one')
  })
})
