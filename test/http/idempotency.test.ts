import assert from 'node:assert/strict'
import { setTimeout as sleep } from 'node:timers/promises'
import { after, before, describe, it } from 'node:test'
import { sql } from 'kysely'
import { CLAIM_LEASE_MS, createIdempotencyStore, KEY_TTL_MS } from '../../src/http/idempotency/index.ts'
import { requestFingerprint } from '../../src/http/idempotency/fingerprint.ts'
import { databaseBackends } from '../support/backends.ts'
import { twoAppsOnOneDatabase, type TwoApps } from './support/two-apps.ts'

const key = (name: string): Record<string, string> => ({ 'idempotency-key': name })

for (const backend of databaseBackends()) {
  describe(`Idempotency-Key across two processes on ${backend.name}`, { skip: backend.skip }, () => {
    let t: TwoApps
    before(async () => { t = await twoAppsOnOneDatabase(backend.name) })
    after(async () => { await t?.close() })

    const count = async (path: string): Promise<number> => (await t.send(t.a, 'GET', path)).json().items.length
    const owner = (idempotencyKey: string) => ({ accountId: t.admin.accountId, userId: t.admin.userId, key: idempotencyKey })

    it('answers a repeated request with the first answer, on another process, and writes once', async () => {
      const first = await t.send(t.a, 'POST', '/v2/labels', { body: { name: 'News' }, headers: key('k-news') })
      assert.equal(first.statusCode, 200)
      assert.equal(first.headers['idempotent-replayed'], undefined)
      const again = await t.send(t.b, 'POST', '/v2/labels', { body: { name: 'News' }, headers: key('k-news') })
      assert.equal(again.statusCode, 200)
      assert.equal(again.headers['idempotent-replayed'], 'true')
      assert.equal(again.headers['content-type'], 'application/json; charset=utf-8')
      assert.equal(again.body, first.body)
      assert.equal(await count('/v2/labels'), 1)
    })

    it('refuses the key for a different body, path or method with 409 and writes nothing', async () => {
      const otherBody = await t.send(t.b, 'POST', '/v2/labels', { body: { name: 'Sports' }, headers: key('k-news') })
      assert.equal(otherBody.statusCode, 409)
      assert.equal(otherBody.json().code, 'idempotency_key_reused')
      const otherPath = await t.send(t.a, 'POST', '/v2/players', { body: { name: 'News' }, headers: key('k-news') })
      assert.equal(otherPath.statusCode, 409)
      assert.equal(otherPath.json().code, 'idempotency_key_reused')
      assert.equal(await count('/v2/labels'), 1)
      assert.equal(await count('/v2/players'), 0)
    })

    it('keeps the keys of different users apart', async () => {
      const other = await t.a.ctx.services.users.createIn({ id: t.admin.accountId, code: t.admin.accountCode }, { name: 'Second admin', role: 'administrator' })
      const as = { ...t.admin, apiKey: other.api_key, secret: other.secret, userId: other.id }
      // The same key and body from another user is a request of its own: it runs, and the name is taken.
      const answer = await t.send(t.b, 'POST', '/v2/labels', { body: { name: 'News' }, headers: key('k-news'), as })
      assert.equal(answer.statusCode, 400)
      assert.equal(answer.json().code, 'label_name_taken')
    })

    it('gives the key back when the request fails, so the same request runs again later', async () => {
      const refused = await t.send(t.a, 'POST', '/v2/labels', { body: { name: 'News' }, headers: key('k-retry') })
      assert.equal(refused.json().code, 'label_name_taken')
      assert.equal(await createIdempotencyStore(t.a.database.db).find(owner('k-retry')), undefined)
      const news = (await t.send(t.a, 'GET', '/v2/labels')).json().items[0]
      assert.equal((await t.send(t.a, 'DELETE', `/v2/labels/${String(news.id)}`)).statusCode, 200)
      const retried = await t.send(t.b, 'POST', '/v2/labels', { body: { name: 'News' }, headers: key('k-retry') })
      assert.equal(retried.statusCode, 200)
      assert.equal(retried.headers['idempotent-replayed'], undefined)
    })

    it('answers 409 with Retry-After while another process holds the key, and takes over a claim whose lease ran out', async () => {
      const body = JSON.stringify({ name: 'Held' })
      const store = createIdempotencyStore(t.a.database.db)
      const held = await store.claim(owner('k-held'), requestFingerprint('POST', '/v2/labels', [], Buffer.from(body)), t.clock.now())
      assert.equal(held.kind, 'claimed')
      const busy = await t.send(t.b, 'POST', '/v2/labels', { body, headers: key('k-held') })
      assert.equal(busy.statusCode, 409)
      assert.equal(busy.json().code, 'idempotency_key_in_use')
      assert.equal(busy.headers['retry-after'], '1')
      assert.equal((await t.send(t.a, 'GET', '/v2/labels')).json().items.some((label: { name: string }) => label.name === 'Held'), false)

      t.clock.advance(CLAIM_LEASE_MS + 1)
      const taken = await t.send(t.b, 'POST', '/v2/labels', { body, headers: key('k-held') })
      assert.equal(taken.statusCode, 200)
      assert.equal(taken.json().name, 'Held')
      // The process that held the lapsed claim can no longer store an answer under it.
      if (held.kind !== 'claimed') return
      assert.equal(await store.complete(t.a.database.db, owner('k-held'), held.token, 200, 'x'), false)
    })

    it('forgets a key after 24 hours and purges it', async () => {
      const store = createIdempotencyStore(t.b.database.db)
      assert.notEqual(await store.find(owner('k-retry')), undefined)
      t.clock.advance(KEY_TTL_MS + 1)
      const reused = await t.send(t.a, 'POST', '/v2/labels', { body: { name: 'Much later' }, headers: key('k-news') })
      assert.equal(reused.statusCode, 200)
      assert.equal(reused.headers['idempotent-replayed'], undefined)
      assert.equal(await store.find(owner('k-retry')), undefined)
    })

    it('stores answers encrypted: a created user\'s secret is not readable in the table', async () => {
      const created = await t.send(t.a, 'POST', '/v2/users', { body: { name: 'Keyed', role: 'read_only' }, headers: key('k-user') })
      assert.equal(created.statusCode, 200)
      const row = await createIdempotencyStore(t.a.database.db).find(owner('k-user'))
      assert.equal(row?.state, 'completed')
      assert.ok(row?.response_body?.startsWith('v1.'))
      assert.equal(row?.response_body?.includes(created.json().secret), false)
      const replayed = await t.send(t.b, 'POST', '/v2/users', { body: { name: 'Keyed', role: 'read_only' }, headers: key('k-user') })
      assert.equal(replayed.json().secret, created.json().secret)
    })

    it('refuses a malformed key, and a key on a route that cannot honour it; other methods ignore it', async () => {
      for (const bad of ['', 'has space', 'é', 'x'.repeat(256)]) {
        const answer = await t.send(t.a, 'POST', '/v2/labels', { body: { name: 'Bad key' }, headers: key(bad) })
        assert.equal(answer.statusCode, 400, JSON.stringify(bad))
        assert.equal(answer.json().code, 'idempotency_key_invalid')
      }
      const imported = await t.send(t.a, 'POST', '/v2/analytics/events/import', { body: '', headers: key('k-import') })
      assert.equal(imported.statusCode, 400)
      assert.equal(imported.json().code, 'idempotency_not_supported')
      assert.equal((await t.send(t.a, 'GET', '/v2/labels', { headers: key('k-get') })).statusCode, 200)
      assert.equal(await createIdempotencyStore(t.a.database.db).find(owner('k-get')), undefined)
      assert.equal((await t.send(t.a, 'GET', '/v2/labels')).json().items.some((label: { name: string }) => label.name === 'Bad key'), false)
    })
  })
}

const postgres = databaseBackends().find((backend) => backend.name === 'postgres')

describe('Idempotency-Key with requests that really overlap (PostgreSQL)', { skip: postgres?.skip }, () => {
  let t: TwoApps
  before(async () => { t = await twoAppsOnOneDatabase('postgres') })
  after(async () => { await t?.close() })

  /** Holds the account's row lock from a third connection, so a write of that account waits inside its transaction. */
  async function holdAccountLock (): Promise<() => Promise<void>> {
    let release!: () => void
    let locked!: () => void
    const gate = new Promise<void>((resolve) => { release = resolve })
    const isLocked = new Promise<void>((resolve) => { locked = resolve })
    const done = t.a.database.db.transaction().execute(async (trx) => {
      await sql`SELECT id FROM accounts WHERE id = ${t.admin.accountId} FOR UPDATE`.execute(trx)
      locked()
      await gate
    })
    await isLocked
    return async () => { release(); await done }
  }

  async function claimed (idempotencyKey: string, token?: string): Promise<void> {
    const store = createIdempotencyStore(t.b.database.db)
    for (let i = 0; i < 500; i++) {
      const row = await store.find({ accountId: t.admin.accountId, userId: t.admin.userId, key: idempotencyKey })
      if (row?.state === 'in_progress' && (token === undefined || row.claim_token !== token)) return
      await sleep(10)
    }
    throw new Error(`no claim on ${idempotencyKey}`)
  }

  it('answers 409 with Retry-After while the first request waits inside its transaction, then replays its answer', async () => {
    const release = await holdAccountLock()
    const first = t.send(t.a, 'POST', '/v2/labels', { body: { name: 'Overlap' }, headers: key('k-overlap') })
    await claimed('k-overlap')
    const second = await t.send(t.b, 'POST', '/v2/labels', { body: { name: 'Overlap' }, headers: key('k-overlap') })
    assert.equal(second.statusCode, 409)
    assert.equal(second.headers['retry-after'], '1')
    await release()
    const answered = await first
    assert.equal(answered.statusCode, 200)
    const third = await t.send(t.b, 'POST', '/v2/labels', { body: { name: 'Overlap' }, headers: key('k-overlap') })
    assert.equal(third.headers['idempotent-replayed'], 'true')
    assert.equal(third.body, answered.body)
  })

  it('rolls back the write of a request whose claim was taken over while it waited: the player exists once', async () => {
    const release = await holdAccountLock()
    const store = createIdempotencyStore(t.b.database.db)
    const first = t.send(t.a, 'POST', '/v2/players', { body: { name: 'Fenced' }, headers: key('k-fenced') })
    await claimed('k-fenced')
    const firstToken = (await store.find({ accountId: t.admin.accountId, userId: t.admin.userId, key: 'k-fenced' }))?.claim_token
    t.clock.advance(CLAIM_LEASE_MS + 1)
    const second = t.send(t.b, 'POST', '/v2/players', { body: { name: 'Fenced' }, headers: key('k-fenced') })
    await claimed('k-fenced', firstToken)
    await release()
    const [lost, won] = await Promise.all([first, second])
    assert.equal(lost.statusCode, 409)
    assert.equal(lost.json().code, 'idempotency_key_in_use')
    assert.equal(won.statusCode, 200)
    const players = (await t.send(t.a, 'GET', '/v2/players')).json().items
    assert.deepEqual(players.map((player: { id: string }) => player.id), [won.json().id])
  })
})
