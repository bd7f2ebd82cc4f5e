import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { connect as connectTcp, type AddressInfo, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { after, before, describe, it } from 'node:test'
import { connect as connectTls, type TLSSocket } from 'node:tls'
import { loadConfig } from '../../src/config/index.ts'
import { serve, type RunningServer } from '../../src/server/serve.ts'
import { signedPath } from '../../src/signing/index.ts'
import { TEST_MASTER_KEY } from '../support/app.ts'

// Clients that connect and then stall, over real sockets to a server started as `reelhouse serve` starts
// it: each is cut within its configured limit (set short here, 1–2 s), and a shutdown is bounded by its
// grace period while a request in flight still gets its answer. The bounds asserted are generous (many
// times the configured value): they tell a limit that holds from one that does not, not how fast it is.

const LIMITS = { TLS_HANDSHAKE_TIMEOUT_SECONDS: '1', REQUEST_HEADERS_TIMEOUT_SECONDS: '1', SHUTDOWN_GRACE_SECONDS: '2' }
const BOUND_MS = 10_000

interface Started { server: RunningServer, dataDir: string, apiPort: number, cdnPort: number }

async function start (): Promise<Started> {
  const dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-slow-'))
  const config = loadConfig({
    REELHOUSE_DATA_DIR: dataDir, REELHOUSE_MASTER_KEY: TEST_MASTER_KEY, HOST: '127.0.0.1', API_PORT: '0', CDN_PORT: '0', LOG_LEVEL: 'silent', ...LIMITS
  })
  const server = await serve(config, ['api', 'cdn'], () => {})
  const portOf = (role: 'api' | 'cdn'): number => (server.apps[role]?.server.address() as AddressInfo).port
  return { server, dataDir, apiPort: portOf('api'), cdnPort: portOf('cdn') }
}

/** A socket that collects what it receives; `closed` resolves with it when the server closes the socket. */
interface Watched<S extends Socket> { socket: S, received: () => string, closed: Promise<string> }

function watch<S extends Socket> (socket: S): Watched<S> {
  let received = ''
  socket.on('data', (chunk: Buffer) => { received += chunk.toString('latin1') })
  socket.on('error', () => {})
  const closed = new Promise<string>((resolve) => socket.once('close', () => { resolve(received) }))
  return { socket, received: () => received, closed }
}

async function tcp (port: number): Promise<Watched<Socket>> {
  const socket = connectTcp(port, '127.0.0.1')
  const watched = watch(socket)
  await new Promise<void>((resolve, reject) => { socket.once('connect', resolve).once('error', reject) })
  return watched
}

/** A TLS connection that completed its handshake (the test trusts the generated certificate blindly). */
async function tls (port: number): Promise<Watched<TLSSocket>> {
  const socket = connectTls({ port, host: '127.0.0.1', servername: 'localhost', rejectUnauthorized: false })
  const watched = watch(socket)
  await new Promise<void>((resolve, reject) => { socket.once('secureConnect', resolve).once('error', reject) })
  return watched
}

/** What `promise` resolved with, or `undefined` when it had not within `ms`. */
async function within<T> (promise: Promise<T>, ms: number): Promise<T | undefined> {
  const timer = sleep(ms, undefined, { ref: false })
  return await Promise.race([promise, timer])
}

/** Resolves once `text` holds `wanted`, or fails after the bound. */
async function waitFor (watched: Watched<Socket>, wanted: string): Promise<void> {
  const deadline = Date.now() + BOUND_MS
  while (!watched.received().includes(wanted)) {
    assert.ok(Date.now() < deadline, `no ${JSON.stringify(wanted)} in ${JSON.stringify(watched.received())}`)
    await sleep(20)
  }
}

function statusOf (answer: string): number {
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1])
}

function bodyOf (answer: string): Record<string, unknown> {
  return JSON.parse(answer.slice(answer.lastIndexOf('\r\n\r\n') + 4)) as Record<string, unknown>
}

describe('connections that stall, on the listeners of `reelhouse serve`', () => {
  let s: Started
  const opened: Socket[] = []
  before(async () => { s = await start() })
  after(async () => {
    for (const socket of opened) socket.destroy()
    await s.server.close()
    rmSync(s.dataDir, { recursive: true, force: true })
  })

  it('closes a connection to the TLS port that never starts its handshake, stops in the middle of it, or speaks plain HTTP, within the handshake timeout', async () => {
    const silent = await tcp(s.apiPort)
    const halfway = await tcp(s.apiPort)
    const plain = await tcp(s.apiPort)
    opened.push(silent.socket, halfway.socket, plain.socket)
    // The first bytes of a TLS record carrying a ClientHello, and nothing after them.
    halfway.socket.write(Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01]))
    // Not TLS at all: the handshake fails at once, and the connection must not wait on an answer it cannot carry.
    plain.socket.write('GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n')
    const closed = await Promise.all([silent, halfway, plain].map(async (client) => await within(client.closed, BOUND_MS)))
    assert.deepEqual(closed.map((text) => text !== undefined), [true, true, true], `still open after ${BOUND_MS} ms (handshake timeout 1 s): silent, half a ClientHello, plain HTTP`)
    assert.doesNotMatch(closed.join(''), /HTTP\/1\.1/, 'no plain-text HTTP answer on the TLS port')
  })

  for (const [listener, open] of [['api (TLS)', async () => await tls(s.apiPort)], ['cdn (plain HTTP)', async () => await tcp(s.cdnPort)]] as const) {
    it(`answers headers that never complete with our 408 within the header timeout, and closes: ${listener}`, async () => {
      const partial = await open()
      const silent = await open()
      opened.push(partial.socket, silent.socket)
      partial.socket.write('GET /health HTTP/1.1\r\nHost: localhost\r\nX-Slow: ')
      const [answer, nothing] = await Promise.all([within(partial.closed, BOUND_MS), within(silent.closed, BOUND_MS)])
      assert.notEqual(answer, undefined, `incomplete headers were still open after ${BOUND_MS} ms (header timeout 1 s)`)
      assert.equal(statusOf(answer as string), 408, answer)
      assert.match(answer as string, /\r\nconnection: close\r\n/i)
      assert.equal(bodyOf(answer as string).code, 'request_timeout')
      assert.notEqual(nothing, undefined, `a connection that sent nothing was still open after ${BOUND_MS} ms`)
    })
  }

  it('keeps serving whole requests on new connections meanwhile', async () => {
    const client = await tls(s.apiPort)
    opened.push(client.socket)
    client.socket.write('GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n')
    assert.equal(statusOf(await client.closed), 200)
  })

  // Last: it stops the server the others used.
  it('stops within the grace period with idle, slow and busy connections open, finishing the request in flight', async () => {
    const clients: Socket[] = []
    let closing: Promise<void> | undefined
    try {
      const saved = JSON.parse(readFileSync(join(s.dataDir, 'admin-credentials.json'), 'utf8')) as { api_key: string, secret: string }
      const signed = async (method: string, path: string, body?: object): Promise<Record<string, unknown> | string[]> => {
        const text = body === undefined ? undefined : JSON.stringify(body)
        const client = await tls(s.apiPort)
        const url = signedPath({ apiKey: saved.api_key, secret: saved.secret, method, path, body: text })
        client.socket.end(`${method} ${url} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n` +
          (text === undefined ? '\r\n' : `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`))
        const answer = await client.closed
        assert.equal(statusOf(answer), 200, answer)
        return bodyOf(answer) as Record<string, unknown> | string[]
      }
      const SIZE = 200_000
      const asset = await signed('POST', '/v2/assets', { asset_type: 'video', name: 'In flight at shutdown', file_name: 'f.mp4', file_size: SIZE }) as { embed_code: string }
      const [chunkUrl] = await signed('GET', `/v2/assets/${asset.embed_code}/uploading_urls`) as string[]
      const chunk = new URL(chunkUrl as string)

      // Idle: one answered request, the connection kept alive.
      const idle = await tls(s.apiPort)
      idle.socket.write('GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n')
      await waitFor(idle, '"status"')
      // Before the handshake: a TCP connection that sends nothing.
      const silent = await tcp(s.apiPort)
      // A body that stalls: its headers are taken (100 Continue says so), a few bytes of the body follow, then nothing.
      const stalled = await tls(s.apiPort)
      stalled.socket.write('POST /v2/labels HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n')
      await waitFor(stalled, '100 Continue')
      stalled.socket.write('{"name":')
      // In flight: a chunk PUT whose body is half sent when the shutdown starts, the rest after.
      const busy = await tls(s.apiPort)
      busy.socket.write(`PUT ${chunk.pathname}${chunk.search} HTTP/1.1\r\nHost: localhost\r\nContent-Length: ${SIZE}\r\nExpect: 100-continue\r\n\r\n`)
      await waitFor(busy, '100 Continue')
      busy.socket.write(Buffer.alloc(SIZE / 2, 1))
      clients.push(idle.socket, silent.socket, stalled.socket, busy.socket)

      closing = s.server.close()
      await sleep(200)
      busy.socket.write(Buffer.alloc(SIZE / 2, 1))

      const done = await within(closing.then(() => true), BOUND_MS)
      assert.equal(done, true, `the server had not closed ${BOUND_MS} ms after close() (grace period 2 s)`)
      const received = await within(busy.closed, BOUND_MS) ?? busy.received()
      const answer = received.slice(received.lastIndexOf('HTTP/1.1 '))
      assert.equal(statusOf(answer), 200, `the request in flight: ${JSON.stringify(received)}`)
      assert.deepEqual(bodyOf(answer), { chunk: 'chunk-000000', size: SIZE })
      for (const [name, watched] of [['idle', idle], ['silent', silent], ['stalled', stalled]] as const) {
        assert.notEqual(await within(watched.closed, 1000), undefined, `the ${name} connection is still open`)
      }
    } finally {
      // Every client goes, those of the tests before too: a server that does not bound its stop waits for them.
      for (const socket of [...clients, ...opened]) socket.destroy()
      await closing
    }
  })
})
