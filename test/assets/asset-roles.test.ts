import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { USER_ROLES, type UserRole } from '../../src/auth/roles.ts'
import { databaseBackends } from '../support/backends.ts'
import { buildTestApp, type Caller, type TestApp } from '../support/app.ts'
import { ASSET_TABLES, createVia, remoteAsset, snapshotTables } from './support/assets.ts'

interface Fixture { asset: string, label: string, player: string, rule: string }
interface Call { method: string, path: string, body?: unknown, action: 'read' | 'write' }

/** Every asset route, reads first; run in order each succeeds for a role that may make it (DELETE last). */
function everyRoute (f: Fixture): Call[] {
  const a = `/v2/assets/${f.asset}`
  return [
    { action: 'read', method: 'GET', path: '/v2/assets' },
    { action: 'read', method: 'GET', path: a },
    { action: 'read', method: 'GET', path: `${a}/metadata` },
    { action: 'read', method: 'GET', path: `${a}/labels` },
    { action: 'read', method: 'GET', path: `${a}/player` },
    { action: 'read', method: 'GET', path: `${a}/publishing_rule` },
    { action: 'read', method: 'GET', path: '/v2/deleted_assets' },
    { action: 'read', method: 'GET', path: `/v2/labels/${f.label}/assets` },
    { action: 'write', method: 'POST', path: '/v2/assets', body: { asset_type: 'channel', name: 'new' } },
    { action: 'write', method: 'PATCH', path: a, body: { name: 'patched' } },
    { action: 'write', method: 'PUT', path: a, body: { name: 'replaced', stream_urls: null } },
    { action: 'write', method: 'PUT', path: `${a}/metadata`, body: { a: 'b' } },
    { action: 'write', method: 'PATCH', path: `${a}/metadata`, body: { c: 'd' } },
    { action: 'write', method: 'DELETE', path: `${a}/metadata` },
    { action: 'write', method: 'PUT', path: `${a}/labels/${f.label}` },
    { action: 'write', method: 'POST', path: `${a}/labels`, body: [f.label] },
    { action: 'write', method: 'PUT', path: `${a}/labels`, body: [f.label] },
    { action: 'write', method: 'DELETE', path: `${a}/labels/${f.label}` },
    { action: 'write', method: 'DELETE', path: `${a}/labels` },
    { action: 'write', method: 'PUT', path: `${a}/player/${f.player}` },
    { action: 'write', method: 'PUT', path: `${a}/publishing_rule/${f.rule}` },
    { action: 'write', method: 'DELETE', path: `${a}/publishing_rule` },
    { action: 'write', method: 'DELETE', path: a }
  ]
}

const ALLOWED: Record<UserRole, Array<'read' | 'write'>> = {
  administrator: ['read', 'write'],
  manager: ['read', 'write'],
  upload_only: ['read', 'write'],
  analytics_only: [],
  read_only: ['read']
}

for (const backend of databaseBackends()) {
  describe(`asset roles and accounts on ${backend.name}`, { skip: backend.skip }, () => {
    let t: TestApp
    let shared: Omit<Fixture, 'asset'>
    before(async () => {
      t = await buildTestApp(backend.name)
      shared = {
        label: (await createVia(t, '/v2/labels', { name: 'Shared' })).id,
        player: (await createVia(t, '/v2/players', { name: 'Shared' })).id,
        rule: (await createVia(t, '/v2/publishing_rules', { name: 'Shared' })).id
      }
    })
    after(async () => { await t.close() })

    /** An asset made by `owner`, with a player and a publishing rule so every read answers 200, carrying the shared label. */
    const fixtureAsset = async (owner: Caller): Promise<Fixture> => {
      const asset = await remoteAsset(t, { player_id: shared.player, publishing_rule_id: shared.rule }, owner)
      await t.signed('PUT', `/v2/assets/${asset.embed_code}/labels/${shared.label}`, { as: owner })
      return { ...shared, asset: asset.embed_code }
    }

    for (const role of USER_ROLES) {
      it(`${role}: ${ALLOWED[role].join(' and ') || 'nothing'} on every asset route, 403 naming the role otherwise`, async () => {
        const caller = await t.userWithRole(role)
        const owner = role === 'upload_only' ? caller : t.admin
        const calls = everyRoute(await fixtureAsset(owner))
        for (const call of calls) {
          const beforeRows = await snapshotTables(t.ctx, ASSET_TABLES)
          const res = await t.signed(call.method, call.path, { as: caller, body: call.body === undefined ? undefined : JSON.stringify(call.body) })
          if (ALLOWED[role].includes(call.action)) {
            assert.equal(res.statusCode, 200, `${call.method} ${call.path}: ${res.body}`)
          } else {
            assert.equal(res.statusCode, 403, `${call.method} ${call.path}`)
            assert.equal(res.json().message, `Role ${role} may not ${call.action} assets.`)
            assert.equal(await snapshotTables(t.ctx, ASSET_TABLES), beforeRows)
          }
        }
      })
    }

    it('upload_only: another user\'s asset answers 404 on every route and stays out of lists', async () => {
      const uploader = await t.userWithRole('upload_only')
      const theirs = await fixtureAsset(t.admin)
      const mine = await remoteAsset(t, { name: 'mine' }, uploader)
      const beforeRows = await snapshotTables(t.ctx, ASSET_TABLES)
      for (const call of everyRoute(theirs).filter((c) => c.path.includes(theirs.asset))) {
        const res = await t.signed(call.method, call.path, { as: uploader, body: call.body === undefined ? undefined : JSON.stringify(call.body) })
        assert.equal(res.statusCode, 404, `${call.method} ${call.path}`)
        assert.equal(res.json().message, `Asset ${theirs.asset} does not exist.`)
      }
      assert.equal(await snapshotTables(t.ctx, ASSET_TABLES), beforeRows)
      const listed = (await t.signed('GET', '/v2/assets?limit=500', { as: uploader })).json().items.map((a: { embed_code: string }) => a.embed_code)
      assert.deepEqual(listed, [mine.embed_code])
      const labelled = (await t.signed('GET', `/v2/labels/${shared.label}/assets?limit=500`, { as: uploader })).json()
      assert.deepEqual(labelled.items, [])
      await t.signed('DELETE', `/v2/assets/${theirs.asset}`)
      await t.signed('DELETE', `/v2/assets/${mine.embed_code}`, { as: uploader })
      const deleted = (await t.signed('GET', '/v2/deleted_assets?limit=500', { as: uploader })).json().items.map((a: { embed_code: string }) => a.embed_code)
      assert.deepEqual(deleted, [mine.embed_code])
      const whereTheirs = await t.signed('GET', `/v2/assets?where=${encodeURIComponent(`embed_code='${theirs.asset}'`)}`, { as: uploader })
      assert.deepEqual(whereTheirs.json().items, [])
    })

    it('answers 404 for another account\'s asset, label, player and rule on every route, and changes nothing', async () => {
      const other = await t.otherAccount()
      const foreign: Fixture = {
        asset: (await remoteAsset(t, { external_id: 'theirs' }, other)).embed_code,
        label: (await createVia(t, '/v2/labels', { name: 'Theirs' }, other)).id,
        player: (await createVia(t, '/v2/players', { name: 'Theirs' }, other)).id,
        rule: (await createVia(t, '/v2/publishing_rules', { name: 'Theirs' }, other)).id
      }
      const beforeRows = await snapshotTables(t.ctx, ASSET_TABLES)
      for (const call of everyRoute(foreign).filter((c) => c.path.includes(foreign.asset) || c.path.includes(foreign.label))) {
        const res = await t.signed(call.method, call.path, { body: call.body === undefined ? undefined : JSON.stringify(call.body) })
        assert.equal(res.statusCode, 404, `${call.method} ${call.path}: ${res.body}`)
      }
      assert.equal((await t.signed('GET', '/v2/assets/theirs')).statusCode, 404, 'external ids are per account')
      const mine = await remoteAsset(t)
      const afterCreate = await snapshotTables(t.ctx, ASSET_TABLES)
      for (const [path, message] of [
        [`/v2/assets/${mine.embed_code}/labels/${foreign.label}`, `Label ${foreign.label} does not exist.`],
        [`/v2/assets/${mine.embed_code}/player/${foreign.player}`, `Player ${foreign.player} does not exist.`],
        [`/v2/assets/${mine.embed_code}/publishing_rule/${foreign.rule}`, `Publishing rule ${foreign.rule} does not exist.`]
      ] as const) {
        const res = await t.signed('PUT', path)
        assert.equal(res.statusCode, 404, path)
        assert.equal(res.json().message, message)
      }
      const patch = await t.signed('PATCH', `/v2/assets/${mine.embed_code}`, { body: { publishing_rule_id: foreign.rule } })
      assert.equal(patch.statusCode, 400)
      assert.equal(await snapshotTables(t.ctx, ASSET_TABLES), afterCreate)
      assert.ok(beforeRows !== afterCreate)
      const list = (await t.signed('GET', '/v2/assets?limit=500')).json()
      assert.ok(!list.items.some((a: { embed_code: string }) => a.embed_code === foreign.asset))
    })
  })
}
