import assert from 'node:assert/strict'
import { createServer, type AddressInfo, type Socket } from 'node:net'
import { inspect } from 'node:util'
import { after, before, describe, it } from 'node:test'
import {
  APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError, AuthenticationError, BadRequestError, ConflictError,
  NotFoundError, PermissionDeniedError, ReelhouseError, type Reelhouse
} from 'reelhouse/client'
import { startClientServer, type ClientServer } from './support/client-server.ts'

describe('the client\'s errors', () => {
  let server: ClientServer
  let client: Reelhouse
  before(async () => {
    server = await startClientServer('sqlite')
    client = server.client()
  })
  after(async () => { await server?.close() })

  /** The error a call rejects with. */
  async function failure (call: Promise<unknown>): Promise<APIError> {
    try {
      await call
    } catch (error) {
      assert.ok(error instanceof APIError, String(error))
      assert.ok(error instanceof ReelhouseError)
      assert.match(error.requestId ?? '', /^[\w-]{8,}$/)
      assert.equal(error.requestId, error.body?.request_id)
      return error
    }
    throw new Error('the call succeeded')
  }

  it('one class per status family, each with the server\'s code, message and request id', async () => {
    const invalid = await failure(client.labels.create({ name: '' }))
    assert.ok(invalid instanceof BadRequestError)
    assert.equal(invalid.code, 'validation_failed')
    assert.deepEqual(invalid.errors, { name: ['must not be empty'] })

    const wrongSecret = await failure(server.client({ secret: 'x'.repeat(40) }).users.me())
    assert.ok(wrongSecret instanceof AuthenticationError)
    assert.equal(wrongSecret.message, 'Invalid signature.')

    const reader = await client.users.create({ name: 'Reader', role: 'read_only' })
    const refused = await failure(server.client({ apiKey: reader.api_key, secret: reader.secret }).labels.create({ name: 'No' }))
    assert.ok(refused instanceof PermissionDeniedError)
    assert.equal(refused.code, 'permission_denied')

    const missing = await failure(client.players.get('f'.repeat(32)))
    assert.ok(missing instanceof NotFoundError)
    assert.equal(missing.status, 404)
    assert.equal(missing.code, 'player_not_found')

    const video = await client.assets.create({ asset_type: 'video', name: 'Not uploaded', file_name: 'a.mp4', file_size: 10 })
    const conflict = await failure(client.assets.update(video.embed_code, { status: 'live' }))
    assert.ok(conflict instanceof ConflictError)
    assert.equal(conflict.code, 'asset_status_conflict')
  })

  it('no answer: a refused connection, a timeout and an abort, each its own class', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const deadPort = (closed.address() as AddressInfo).port
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    await assert.rejects(server.client({ baseUrl: `http://127.0.0.1:${deadPort}`, maxRetries: 0 }).users.me(), (error: unknown) =>
      error instanceof APIConnectionError && !(error instanceof APIConnectionTimeoutError) && !String(error).includes('signature'))

    const sockets: Socket[] = []
    const silent = createServer((socket) => { sockets.push(socket) })
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`
    try {
      await assert.rejects(server.client({ baseUrl: silentUrl, timeout: 100, maxRetries: 0 }).users.me(), APIConnectionTimeoutError)
      const controller = new AbortController()
      const pending = server.client({ baseUrl: silentUrl }).users.me({ signal: controller.signal })
      controller.abort()
      await assert.rejects(pending, APIUserAbortError)
    } finally {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => silent.close(() => resolve()))
    }
  })

  it('never shows the secret: not in JSON, not in inspect, not in an error', async () => {
    const { secret } = server.admin
    assert.equal(JSON.stringify(client).includes(secret), false)
    assert.equal(inspect(client, { depth: 5, showHidden: true }).includes(secret), false)
    const error = await failure(client.players.get('f'.repeat(32)))
    assert.equal(inspect(error, { depth: 5 }).includes(secret), false)
  })
})
