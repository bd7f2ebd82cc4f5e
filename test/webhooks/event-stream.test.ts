import assert from 'node:assert/strict'
import type { Readable } from 'node:stream'
import { after, before, describe, it } from 'node:test'
import { signedPath } from '../../src/signing/index.ts'
import { databaseBackends } from '../support/backends.ts'
import { buildTestApp, type Caller, type TestApp } from '../support/app.ts'

interface StreamEvent { id: string, event: string, data: string }

/** Opens the event stream as `caller` and reads its events as they come (the answer never ends by itself). */
async function openStream (t: TestApp, caller: Caller, after?: string): Promise<{ status: number, type: string, next: () => Promise<StreamEvent>, close: () => void }> {
  const url = signedPath({ apiKey: caller.apiKey, secret: caller.secret, method: 'GET', path: '/v2/webhook_events', params: after === undefined ? undefined : { after }, expires: Math.floor(Date.now() / 1000) + 300 })
  const res = await t.app.inject({ method: 'GET', url, payloadAsStream: true })
  const stream = res.stream() as Readable
  const queue: StreamEvent[] = []
  const waiters: Array<() => void> = []
  let buffer = ''
  stream.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8')
    let end: number
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, end)
      buffer = buffer.slice(end + 2)
      const fields = Object.fromEntries(block.split('\n').filter((line) => !line.startsWith(':')).map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]))
      if (fields.id !== undefined) queue.push({ id: fields.id, event: fields.event, data: fields.data })
    }
    for (const wake of waiters.splice(0)) wake()
  })
  return {
    status: res.statusCode,
    type: String(res.headers['content-type']),
    next: async () => {
      while (queue.length === 0) await new Promise<void>((resolve) => waiters.push(resolve))
      return queue.shift() as StreamEvent
    },
    close: () => { stream.destroy() }
  }
}

for (const backend of databaseBackends()) {
  describe(`GET /v2/webhook_events on ${backend.name}`, { skip: backend.skip, timeout: 20_000 }, () => {
    let t: TestApp
    let other: Caller
    before(async () => {
      t = await buildTestApp(backend.name)
      other = await t.otherAccount()
    })
    after(async () => { await t.close() })

    it('streams the account\'s own events from now on, bodies as deliveries send them, never another account\'s; after= resumes', async () => {
      const earlier = (await t.signed('POST', '/v2/assets', { body: { asset_type: 'channel', name: 'before' } })).json()
      const stream = await openStream(t, t.admin)
      assert.equal(stream.status, 200)
      assert.equal(stream.type, 'text/event-stream; charset=utf-8')
      // The other account's change comes first; the stream must skip it.
      await t.signed('POST', '/v2/assets', { body: { asset_type: 'channel', name: 'not yours' }, as: other })
      const created = (await t.signed('POST', '/v2/assets', { body: { asset_type: 'channel', name: 'mine' } })).json()
      const updated = (await t.signed('PATCH', `/v2/assets/${created.embed_code}`, { body: { name: 'mine, renamed' } })).json()
      const first = await stream.next()
      const second = await stream.next()
      stream.close()
      assert.deepEqual([first.event, second.event], ['asset.created', 'asset.updated'])
      const body = JSON.parse(first.data)
      assert.equal(body.id, first.id)
      assert.equal(body.account_id, t.admin.accountId)
      assert.deepEqual(body.data, created, 'not the asset as it is now, nor an earlier one')
      assert.deepEqual(JSON.parse(second.data).data, updated)
      assert.notEqual(body.data.embed_code, earlier.embed_code)
      // The body is byte for byte the stored event's, as a delivery sends it.
      const row = await t.ctx.database.db.selectFrom('webhook_events').selectAll().where('id', '=', first.id).executeTakeFirstOrThrow()
      assert.equal(first.data, `{"id":"${row.id}","type":"asset.created","created_at":"${row.created_at.slice(0, 19)}Z","account_id":"${t.admin.accountId}","data":${row.data}}`)

      const resumed = await openStream(t, t.admin, first.id)
      assert.equal((await resumed.next()).id, second.id, 'after= starts right after the event named')
      resumed.close()
    })

    it('refuses another account\'s event as after=, exactly like one that exists nowhere', async () => {
      await t.signed('POST', '/v2/assets', { body: { asset_type: 'channel', name: 'theirs' }, as: other })
      const theirs = await t.ctx.database.db.selectFrom('webhook_events').select('id').where('account_id', '=', other.accountId).executeTakeFirstOrThrow()
      const res = await t.signed('GET', '/v2/webhook_events', { params: { after: theirs.id } })
      assert.equal(res.statusCode, 404)
      assert.equal(res.json().message, `Event ${theirs.id} does not exist.`)
    })
  })
}
