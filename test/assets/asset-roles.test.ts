import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { USER_ROLES } from '../../src/auth/roles.ts'
import { databaseBackends } from '../support/backends.ts'
import { buildTestApp, type Caller, type TestApp } from '../support/app.ts'
import { assertAbsent, assertRoleMatrix, roleTitle, type RouteCall } from '../support/role-matrix.ts'
import { ASSET_TABLES, createVia, remoteAsset, snapshotTables } from './support/assets.ts'

interface Fixture { asset: string, label: string, player: string, rule: string }

/** Every asset route, reads first; run in order each succeeds for a role that may make it (DELETE last). */
function everyRoute (f: Fixture): RouteCall[] {
  const a = `/v2/assets/${f.asset}`
  return [
    { method: 'GET', path: '/v2/assets' },
    { method: 'GET', path: a },
    { method: 'GET', path: `${a}/metadata` },
    { method: 'GET', path: `${a}/labels` },
    { method: 'GET', path: `${a}/player`, reads: 'players' },
    { method: 'GET', path: `${a}/publishing_rule`, reads: 'publishing rules' },
    { method: 'GET', path: '/v2/assets?include=player', reads: 'players' },
    { method: 'GET', path: `${a}?include=metadata,player`, reads: 'players' },
    { method: 'GET', path: '/v2/deleted_assets' },
    { method: 'GET', path: `/v2/labels/${f.label}/assets` },
    { method: 'POST', path: '/v2/assets', body: { asset_type: 'channel', name: 'new' } },
    { method: 'PATCH', path: a, body: { name: 'patched' } },
    { method: 'PUT', path: a, body: { name: 'replaced', stream_urls: null } },
    { method: 'PUT', path: `${a}/metadata`, body: { a: 'b' } },
    { method: 'PATCH', path: `${a}/metadata`, body: { c: 'd' } },
    { method: 'DELETE', path: `${a}/metadata` },
    { method: 'PUT', path: `${a}/labels/${f.label}` },
    { method: 'POST', path: `${a}/labels`, body: [f.label] },
    { method: 'PUT', path: `${a}/labels`, body: [f.label] },
    { method: 'DELETE', path: `${a}/labels/${f.label}` },
    { method: 'DELETE', path: `${a}/labels` },
    { method: 'PUT', path: `${a}/player/${f.player}`, reads: 'players' },
    { method: 'PUT', path: `${a}/publishing_rule/${f.rule}`, reads: 'publishing rules' },
    { method: 'DELETE', path: `${a}/publishing_rule`, reads: 'publishing rules' },
    { method: 'DELETE', path: a }
  ]
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
      // upload_only may not name a player or a rule (below): an administrator gives the asset both.
      const asset = await remoteAsset(t, {}, owner)
      assert.equal((await t.signed('PATCH', `/v2/assets/${asset.embed_code}`, { body: { player_id: shared.player, publishing_rule_id: shared.rule } })).statusCode, 200)
      await t.signed('PUT', `/v2/assets/${asset.embed_code}/labels/${shared.label}`, { as: owner })
      return { ...shared, asset: asset.embed_code }
    }

    for (const role of USER_ROLES) {
      it(roleTitle('assets', role), async () => {
        const caller = await t.userWithRole(role)
        const owner = role === 'upload_only' ? caller : t.admin
        await assertRoleMatrix(t, 'assets', role, caller, everyRoute(await fixtureAsset(owner)), ASSET_TABLES)
      })
    }

    it('upload_only: another user\'s asset answers 404 on every route and stays out of lists', async () => {
      const uploader = await t.userWithRole('upload_only')
      const theirs = await fixtureAsset(t.admin)
      const mine = await remoteAsset(t, { name: 'mine' }, uploader)
      // Routes that show a player or a rule are a 403 for upload_only whoever owns the asset (the matrix above).
      await assertAbsent(t, everyRoute(theirs).filter((c) => c.path.includes(theirs.asset) && c.reads === undefined), ASSET_TABLES, `Asset ${theirs.asset} does not exist.`, uploader)
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

    it('upload_only: naming a player or a publishing rule in an asset\'s body answers 403 and changes nothing', async () => {
      const uploader = await t.userWithRole('upload_only')
      const mine = await remoteAsset(t, { name: 'Mine, plain' }, uploader)
      const attempts: Array<[string, string, Record<string, unknown>, string]> = [
        ['POST', '/v2/assets', { asset_type: 'remote_asset', name: 'With player', player_id: shared.player }, 'Role upload_only may not read players.'],
        ['POST', '/v2/assets', { asset_type: 'remote_asset', name: 'With rule', publishing_rule_id: shared.rule }, 'Role upload_only may not read publishing rules.'],
        ['PATCH', `/v2/assets/${mine.embed_code}`, { player_id: shared.player }, 'Role upload_only may not read players.'],
        ['PATCH', `/v2/assets/${mine.embed_code}`, { publishing_rule_id: 'f'.repeat(32) }, 'Role upload_only may not read publishing rules.']
      ]
      const before = (await t.signed('GET', '/v2/assets?limit=500', { as: uploader })).json().items
      for (const [method, path, body, message] of attempts) {
        const res = await t.signed(method, path, { as: uploader, body })
        assert.equal(res.statusCode, 403, `${method} ${path} ${JSON.stringify(body)}: ${res.body}`)
        assert.equal(res.json().message, message)
      }
      assert.deepEqual((await t.signed('GET', '/v2/assets?limit=500', { as: uploader })).json().items, before)
      assert.equal((await t.signed('PATCH', `/v2/assets/${mine.embed_code}`, { as: uploader, body: { player_id: null, name: 'Renamed' } })).statusCode, 200)
    })

    it('upload_only: a taken external_id answers 409 without saying another user holds it', async () => {
      const uploader = await t.userWithRole('upload_only')
      await remoteAsset(t, { name: 'Admin asset', external_id: 'admin-secret-id' })
      const res = await t.signed('POST', '/v2/assets', { as: uploader, body: { asset_type: 'remote_asset', name: 'Probe', external_id: 'admin-secret-id' } })
      assert.equal(res.statusCode, 409, res.body)
      assert.equal(res.json().message, 'Field external_id admin-secret-id cannot be used; choose another.')
      assert.doesNotMatch(res.json().detail, /another asset/i)
      const mine = await remoteAsset(t, { name: 'Mine', external_id: 'mine-1' }, uploader)
      const own = await t.signed('PATCH', `/v2/assets/${mine.embed_code}`, { as: uploader, body: { external_id: 'admin-secret-id' } })
      assert.equal(own.json().message, 'Field external_id admin-secret-id cannot be used; choose another.')
      const adminSees = await t.signed('POST', '/v2/assets', { body: { asset_type: 'remote_asset', name: 'Dup', external_id: 'mine-1' } })
      assert.equal(adminSees.json().message, 'Another asset of this account already has external_id mine-1.')
    })

    it('answers 404 for another account\'s asset, label, player and rule on every route, and changes nothing', async () => {
      const other = await t.otherAccount()
      const foreign: Fixture = {
        asset: (await remoteAsset(t, { external_id: 'theirs' }, other)).embed_code,
        label: (await createVia(t, '/v2/labels', { name: 'Theirs' }, other)).id,
        player: (await createVia(t, '/v2/players', { name: 'Theirs' }, other)).id,
        rule: (await createVia(t, '/v2/publishing_rules', { name: 'Theirs' }, other)).id
      }
      await assertAbsent(t, everyRoute(foreign).filter((c) => c.path.includes(foreign.asset) || c.path.includes(foreign.label)), ASSET_TABLES)
      const beforeRows = await snapshotTables(t.ctx, ASSET_TABLES)
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
