import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { AuthenticationError, BadRequestError, ConflictError, type Label, type Reelhouse } from 'reelhouse/client'
import { databaseBackends } from '../support/backends.ts'
import { startClientServer, type ClientServer } from './support/client-server.ts'

for (const backend of databaseBackends()) {
  describe(`the client's resources against a real server on ${backend.name}`, { skip: backend.skip }, () => {
    let server: ClientServer
    let client: Reelhouse
    before(async () => {
      server = await startClientServer(backend.name)
      client = server.client()
    })
    after(async () => { await server?.close() })

    it('labels: the tree by full path, children, renames, roots, and a recursive delete', async () => {
      const [hockey] = await client.labels.createByFullPath('/Sports/Hockey')
      assert.equal(hockey?.full_name, '/Sports/Hockey')
      const [sports] = await client.labels.byFullPath(['/Sports'])
      assert.ok(sports !== undefined)
      await assert.rejects(client.labels.byFullPath(['/Sports', '/Nope']), (error: unknown) =>
        error instanceof BadRequestError && error.code === 'label_paths_missing' && (error.body?.missing_labels as string[])[0] === '/Nope')
      const tennis = await client.labels.create({ name: 'Tennis', parent_id: sports.id })
      const children: Label[] = []
      for await (const child of client.labels.children(sports.id)) children.push(child)
      assert.deepEqual(children.map((child) => child.name).sort(), ['Hockey', 'Tennis'])
      assert.equal((await client.labels.update(tennis.id, { name: 'Padel' })).full_name, '/Sports/Padel')
      assert.equal((await client.labels.replace(tennis.id, { name: 'Padel' })).full_name, '/Padel', 'PUT without parent_id moves it to the top')
      assert.equal((await client.labels.get(tennis.id)).parent_id, null)
      const roots = await client.labels.list({ isRoot: true }).toArray()
      assert.deepEqual(roots.map((label) => label.name).sort(), ['Padel', 'Sports'])
      await assert.rejects(client.labels.delete(sports.id), ConflictError)
      await client.labels.delete(sports.id, { recursive: true })
      assert.deepEqual((await client.labels.list().toArray()).map((label) => label.full_name), ['/Padel'])
    })

    it('players: create, read, patch, replace, metadata, list and delete', async () => {
      const player = await client.players.create({ name: 'Main', is_default: true, playback: { autoplay: true } })
      assert.equal(player.is_default, true)
      assert.equal((await client.players.update(player.id, { branding: { accent_color: '#112233' } })).branding.accent_color, '#112233')
      assert.equal((await client.players.get(player.id)).playback.autoplay, true)
      assert.equal((await client.players.replace(player.id, { name: 'Main' })).playback.autoplay, false)
      assert.deepEqual(await client.players.metadata.replace(player.id, { tier: 'gold' }), { tier: 'gold' })
      assert.deepEqual(await client.players.metadata.update(player.id, { tier: null, size: 'l' }), { size: 'l' })
      assert.deepEqual(await client.players.metadata.get(player.id), { size: 'l' })
      await client.players.metadata.clear(player.id)
      assert.deepEqual((await client.players.list().toArray()).map((one) => one.name), ['Main'])
      await client.players.delete(player.id)
      assert.deepEqual(await client.players.list().toArray(), [])
    })

    it('publishing rules: create, read, patch, replace, list and delete', async () => {
      const rule = await client.publishingRules.create({ name: 'EU', geographic_restrictions: { type: 'allow', countries: ['FR', 'DE'] } })
      assert.deepEqual(rule.geographic_restrictions, { type: 'allow', countries: ['FR', 'DE'] })
      assert.equal((await client.publishingRules.update(rule.id, { name: 'Europe' })).name, 'Europe')
      assert.deepEqual((await client.publishingRules.replace(rule.id, { name: 'Europe' })).geographic_restrictions.countries, [])
      assert.equal((await client.publishingRules.get(rule.id)).name, 'Europe')
      assert.deepEqual((await client.publishingRules.list().toArray()).map((one) => one.id), [rule.id])
      await client.publishingRules.delete(rule.id)
      assert.deepEqual(await client.publishingRules.list().toArray(), [])
    })

    it('syndications: CRUD, access keys, and the public feed through its URL', async () => {
      const feed = await client.syndications.create({ name: 'Podcast', type: 'itunes', require_access_key: true, title: 'Our shows' })
      assert.equal((await client.syndications.update(feed.id, { author: 'Us' })).author, 'Us')
      assert.equal((await client.syndications.get(feed.id)).title, 'Our shows')
      const key = await client.syndications.accessKeys.create(feed.id)
      assert.deepEqual((await client.syndications.accessKeys.list(feed.id)).map((one) => one.access_key), [key.access_key])
      const url = client.syndications.feedUrl(feed, { accessKey: key.access_key })
      assert.ok(url.startsWith(`${server.baseUrl}/v2/syndications/${feed.id}/feed?pcode=`), url)
      const xml = await client.syndications.feed(feed, { accessKey: key.access_key })
      assert.match(xml, /<rss[^>]*>/)
      assert.match(xml, /<title>Our shows<\/title>/)
      await assert.rejects(client.syndications.feed(feed), AuthenticationError)
      await client.syndications.accessKeys.delete(feed.id, key.access_key)
      assert.deepEqual(await client.syndications.accessKeys.list(feed.id), [])
      assert.equal((await client.syndications.replace(feed.id, { name: 'Podcast', type: 'mrss' })).require_access_key, false)
      assert.deepEqual((await client.syndications.list().toArray()).map((one) => one.type), ['mrss'])
      await client.syndications.delete(feed.id)
      assert.deepEqual(await client.syndications.list().toArray(), [])
    })

    it('users: me, create with its secret, patch, rotate (the old secret stops working), list and delete', async () => {
      const me = await client.users.me()
      const account = await client.account()
      assert.equal(account.id, me.account.id)
      assert.equal(account.credits_per_minute_source, 'server_default')
      assert.ok(Number.isInteger(account.credits_per_minute))
      assert.deepEqual([me.id, me.role, me.account.code], [server.admin.userId, 'administrator', server.admin.accountCode])
      const user = await client.users.create({ name: 'Reader', role: 'read_only' })
      const asReader = server.client({ apiKey: user.api_key, secret: user.secret })
      assert.equal((await asReader.users.me()).role, 'read_only')
      assert.equal((await client.users.update(user.id, { name: 'Reader 2' })).name, 'Reader 2')
      assert.equal((await client.users.get(user.id)).name, 'Reader 2')
      const rotated = await client.users.rotateSecret(user.id)
      assert.notEqual(rotated.secret, user.secret)
      await assert.rejects(asReader.users.me(), (error: unknown) => error instanceof AuthenticationError && error.code === 'signature_invalid')
      assert.equal((await server.client({ apiKey: user.api_key, secret: rotated.secret }).users.me()).name, 'Reader 2')
      assert.deepEqual((await client.users.list().toArray()).map((one) => one.id).sort(), [server.admin.userId, user.id].sort())
      await client.users.delete(user.id)
      assert.deepEqual((await client.users.list().toArray()).map((one) => one.id), [server.admin.userId])
    })

    it('credits, the last balance seen, and any route by path', async () => {
      const balance = await client.credits.remaining()
      assert.ok(balance.remaining_credits > 0 && balance.remaining_reset_time >= 1)
      assert.equal(client.rateLimit?.credits, balance.remaining_credits)
      const page = await client.request<{ items: unknown[] }>('GET', '/v2/labels?limit=1')
      assert.ok(Array.isArray(page.items))
      assert.deepEqual(await client.paginate('/v2/players').toArray(), [])
    })

    it('sends reads to the cached variant only when cacheBaseUrl is set, and never the balance', async () => {
      const hosts: string[] = []
      const cached = server.client({
        cacheBaseUrl: server.cdnUrl,
        fetch: async (url, init) => { hosts.push(new URL(url).origin); return await fetch(url, init) }
      })
      await cached.labels.list().toArray()
      await cached.labels.list().toArray()
      await cached.labels.list({}, { cache: false }).toArray()
      await cached.credits.remaining()
      const label = await cached.labels.create({ name: 'Written to the main service' })
      assert.deepEqual(hosts, [server.cdnUrl, server.cdnUrl, server.baseUrl, server.baseUrl, server.baseUrl])
      // A read that must see the write just made asks the main service.
      assert.ok((await cached.labels.list({}, { cache: false }).toArray()).some((one) => one.id === label.id))
    })
  })
}
