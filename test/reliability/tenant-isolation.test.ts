import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { buildTestApp, snapshot, type Caller, type TestApp } from '../support/app.ts'

// Two accounts attacking each other on every route of the route table: a route added later is walked
// too. As account B, every id of account A answers 404 (never 403, never its data) and nothing of A changes;
// B's lists never show A's resources.
const TABLES = ['labels', 'players', 'publishing_rules', 'assets', 'asset_metadata', 'asset_labels', 'syndications', 'users']

/** The route parameters a walk fills with the victim's ids. */
interface Victim { ids: Record<string, string>, names: string[] }

describe('tenant isolation across two accounts on every route', () => {
  let t: TestApp
  let attacker: Caller
  const victim: Victim = { ids: {}, names: [] }
  before(async () => {
    t = await buildTestApp('sqlite')
    attacker = await t.otherAccount()
    const create = async (path: string, body: object): Promise<Record<string, any>> => {
      const res = await t.signed('POST', path, { body })
      assert.equal(res.statusCode, 200, `${path}: ${res.body}`)
      return res.json()
    }
    victim.ids.label_id = (await create('/v2/labels', { name: 'VictimLabel' })).id
    victim.ids.player_id = (await create('/v2/players', { name: 'VictimPlayer' })).id
    victim.ids.publishing_rule_id = (await create('/v2/publishing_rules', { name: 'VictimRule' })).id
    const asset = await create('/v2/assets', { asset_type: 'remote_asset', name: 'VictimAsset', external_id: 'victim-ext', stream_urls: { source_file: 'https://cdn.example.com/v.mp4' } })
    victim.ids.asset_id = asset.embed_code
    const syndication = await create('/v2/syndications', { name: 'VictimFeed', type: 'mrss' })
    victim.ids.syndication_id = syndication.id
    victim.ids.access_key = (await create(`/v2/syndications/${syndication.id}/access_keys`, {})).access_key ?? 'k'
    victim.ids.user_id = t.admin.userId
    victim.names = ['VictimLabel', 'VictimPlayer', 'VictimRule', 'VictimAsset', 'VictimFeed', ...Object.values(victim.ids)]
  })
  after(async () => { await t.close() })

  it('answers every route with an id of the other account exactly as for an id that exists nowhere, changing nothing of it', async () => {
    const routes = t.app.routeTable.filter((route) => route.url.startsWith('/v2/') && route.config?.public !== true && /[:*]/.test(route.url))
    assert.ok(routes.length > 40, `only ${routes.length} routes with ids`)
    const nowhere: Record<string, string> = Object.fromEntries(Object.keys(victim.ids).map((name, i) => [name, `${'f'.repeat(30)}${String(i).padStart(2, '0')}`]))
    const fill = (url: string, ids: Record<string, string>, label: string): string => url
      .replace(/:([a-z_]+)/g, (_, name: string) => ids[name] ?? `unknown-${name}`)
      .replace('*', url.startsWith('/v2/labels/by_full_path') ? `%2F${label}` : `asset/${ids.asset_id}/performance/total/2026-11-01`)
    // The answer with the ids (and the label name) written as placeholders, minus what differs per request.
    const shape = (body: string, ids: Record<string, string>, label: string): string => {
      let text = body.replace(/"request_id":"[^"]*"/, '')
      for (const [name, id] of Object.entries(ids)) text = text.split(id).join(`<${name}>`)
      return text.split(label).join('<label>')
    }
    const before = await snapshot(t.ctx, TABLES)
    let walked = 0
    for (const route of routes) {
      for (const method of [route.method].flat()) {
        // POST by_full_path creates the path in the caller's own account: nothing of the other's to reach.
        if (method === 'HEAD' || method === 'OPTIONS' || (method === 'POST' && route.url === '/v2/labels/by_full_path/*')) continue
        const body = method === 'GET' || method === 'DELETE' ? undefined : route.url.endsWith('/labels') ? [victim.ids.label_id] : {}
        const foreign = await t.signed(method, fill(route.url, victim.ids, 'VictimLabel'), { as: attacker, body })
        const absent = await t.signed(method, fill(route.url, nowhere, 'NoSuchLabel'), { as: attacker, body: Array.isArray(body) ? [nowhere.label_id] : body })
        const what = `${method} ${route.url} as another account: ${foreign.statusCode} ${foreign.body.slice(0, 300)}`
        assert.equal(foreign.statusCode, absent.statusCode, what)
        assert.equal(shape(foreign.body, victim.ids, 'VictimLabel'), shape(absent.body, nowhere, 'NoSuchLabel'), what)
        if (foreign.statusCode < 400) assert.equal(method, 'GET', `${what}: a write succeeded`)
        walked++
      }
    }
    assert.ok(walked >= 45, `only ${walked} requests walked`)
    const ofVictim = (text: string): string => text.split('\n').filter((line) => line.includes(t.admin.accountId)).join('\n')
    assert.equal(ofVictim(await snapshot(t.ctx, TABLES)), ofVictim(before), 'a row of the other account changed')
  })

  it('shows none of the other account\'s resources in any list the route table has', async () => {
    // An event stream never ends: test/webhooks/event-stream.test.ts reads it as another account.
    const lists = t.app.routeTable.filter((route) => route.url.startsWith('/v2/') && route.config?.public !== true && route.config?.eventStream !== true && !/[:*]/.test(route.url) && [route.method].flat().includes('GET'))
    assert.ok(lists.length >= 8, `only ${lists.length} lists`)
    for (const route of lists) {
      const res = await t.signed('GET', route.url, { as: attacker })
      for (const name of victim.names) assert.ok(!res.body.includes(name), `GET ${route.url} shows ${name}: ${res.body.slice(0, 300)}`)
    }
  })
})
