import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { databaseBackends } from '../support/backends.ts'
import { buildTestApp, type Caller, type TestApp } from '../support/app.ts'

const DEFAULT_BRANDING = {
  accent_color: '#ffbb00',
  show_share_button: true,
  twitter_sharing: true,
  facebook_sharing: true,
  email_sharing: true,
  url_sharing: true,
  show_embed_button: true,
  show_info_button: true,
  show_info_screen_title: true,
  show_info_screen_description: true,
  show_info_screen_homepage_link: false,
  show_ad_countdown: true,
  show_volume_button: true,
  show_bitrate_button: false,
  enable_error_screen: true,
  show_end_screen_replay_button: true,
  chromeless: false
}

for (const backend of databaseBackends()) {
  describe(`/v2/players on ${backend.name}`, { skip: backend.skip }, () => {
    let t: TestApp
    let as: Caller
    before(async () => { t = await buildTestApp(backend.name) })
    after(async () => { await t.close() })

    async function call (method: string, path: string, body?: object) {
      const res = await t.signed(method, path, { as, body })
      return { status: res.statusCode, json: res.json() }
    }
    async function create (body: object) {
      t.clock.advance(1)
      const res = await call('POST', '/v2/players', body)
      assert.equal(res.status, 200, JSON.stringify(res.json))
      return res.json
    }
    async function defaults (): Promise<string[]> {
      const items = (await call('GET', '/v2/players?limit=500')).json.items as Array<{ id: string, is_default: boolean }>
      return items.filter((p) => p.is_default).map((p) => p.id)
    }

    it('creates a player with every default filled in', async () => {
      as = await t.otherAccount()
      const player = await create({ name: 'Basic Player' })
      assert.match(player.id, /^[0-9a-f]{32}$/)
      assert.deepEqual(player, {
        id: player.id,
        name: 'Basic Player',
        is_default: false,
        provider_homepage_url: null,
        provider_name: '',
        default_closed_caption_language: '',
        branding: DEFAULT_BRANDING,
        watermark: { click_url: null, alpha: 1, position: 'bottom-right' },
        playback: { autoplay: false, loop: false, buffer_on_pause: true },
        created_at: '2026-11-22T10:00:00Z',
        updated_at: '2026-11-22T10:00:00Z'
      })
      assert.deepEqual((await call('GET', `/v2/players/${player.id}`)).json, player)
    })

    it('keeps at most one default player: setting it on one clears it on the others', async () => {
      as = await t.otherAccount()
      const a = await create({ name: 'A', is_default: true })
      const b = await create({ name: 'B', is_default: 'true' })
      assert.deepEqual(await defaults(), [b.id])
      await call('PATCH', `/v2/players/${a.id}`, { is_default: true })
      assert.deepEqual(await defaults(), [a.id])
      await call('PATCH', `/v2/players/${a.id}`, { is_default: false })
      assert.deepEqual(await defaults(), [], 'clearing it leaves the account without a default')
    })

    it('keeps one default when several players claim it at once', async () => {
      as = await t.otherAccount()
      const players = await Promise.all(['A', 'B', 'C', 'D', 'E'].map(async (name) => await create({ name })))
      const results = await Promise.all(players.map(async (p) => await call('PATCH', `/v2/players/${p.id}`, { is_default: true })))
      assert.deepEqual(results.map((r) => r.status), [200, 200, 200, 200, 200])
      assert.equal((await defaults()).length, 1)
    })

    it('PATCH changes only the fields given, nested objects field by field', async () => {
      as = await t.otherAccount()
      const p = await create({ name: 'P', watermark: { position: 'top-left', click_url: 'https://example.com/c' }, branding: { chromeless: true } })
      const res = await call('PATCH', `/v2/players/${p.id}`, { watermark: { alpha: 0.25 }, branding: { show_share_button: 'false', accent_color: '#00AA00' }, playback: { loop: true } })
      assert.equal(res.status, 200)
      assert.deepEqual(res.json.watermark, { click_url: 'https://example.com/c', alpha: 0.25, position: 'top-left' })
      assert.deepEqual(res.json.branding, { ...DEFAULT_BRANDING, chromeless: true, show_share_button: false, accent_color: '#00AA00' })
      assert.deepEqual(res.json.playback, { autoplay: false, loop: true, buffer_on_pause: true })
      assert.equal(res.json.name, 'P')
    })

    it('PUT replaces the player: omitted fields return to their defaults, the id and metadata stay', async () => {
      as = await t.otherAccount()
      const p = await create({ name: 'P', is_default: true, provider_name: 'Acme', watermark: { alpha: 0.5 }, playback: { autoplay: true } })
      await call('PUT', `/v2/players/${p.id}/metadata`, { k: 'v' })
      const res = await call('PUT', `/v2/players/${p.id}`, { name: 'Q', playback: { loop: true } })
      assert.equal(res.status, 200)
      assert.equal(res.json.id, p.id)
      assert.equal(res.json.name, 'Q')
      assert.equal(res.json.is_default, false)
      assert.equal(res.json.provider_name, '')
      assert.deepEqual(res.json.watermark, { click_url: null, alpha: 1, position: 'bottom-right' })
      assert.deepEqual(res.json.playback, { autoplay: false, loop: true, buffer_on_pause: true })
      assert.deepEqual((await call('GET', `/v2/players/${p.id}/metadata`)).json, { k: 'v' })
    })

    it('takes an absolute http(s) homepage URL, null or "" to clear it, and needs one for the homepage link', async () => {
      as = await t.otherAccount()
      const p = await create({ name: 'P', provider_homepage_url: 'https://example.com/home' })
      assert.equal(p.provider_homepage_url, 'https://example.com/home')
      const linked = await call('PATCH', `/v2/players/${p.id}`, { branding: { show_info_screen_homepage_link: true } })
      assert.equal(linked.status, 200)
      const cleared = await call('PATCH', `/v2/players/${p.id}`, { provider_homepage_url: '' })
      assert.equal(cleared.status, 400)
      assert.equal(cleared.json.message, 'Field provider_homepage_url is required when branding.show_info_screen_homepage_link is true.')
      const both = await call('PATCH', `/v2/players/${p.id}`, { provider_homepage_url: null, branding: { show_info_screen_homepage_link: false } })
      assert.equal(both.json.provider_homepage_url, null)
      assert.equal((await call('PATCH', `/v2/players/${p.id}`, { provider_homepage_url: 'http://example.org' })).json.provider_homepage_url, 'http://example.org')
    })

    it('reads, replaces, merges and deletes metadata', async () => {
      as = await t.otherAccount()
      const p = await create({ name: 'P' })
      const path = `/v2/players/${p.id}/metadata`
      assert.deepEqual((await call('GET', path)).json, {})
      assert.deepEqual((await call('PUT', path, { rating: 'R', director: 'Michel Gondry' })).json, { rating: 'R', director: 'Michel Gondry' })
      assert.deepEqual((await call('PUT', path, { year: '2004' })).json, { year: '2004' }, 'PUT replaces every pair')
      assert.deepEqual((await call('PATCH', path, { rating: 'PG', year: null })).json, { rating: 'PG' }, 'PATCH merges; null removes')
      assert.deepEqual((await call('GET', path)).json, { rating: 'PG' })
      assert.deepEqual((await call('DELETE', path)).json, {})
      assert.deepEqual((await call('GET', path)).json, {})
      const hundred = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, 'v'.repeat(2048)]))
      assert.equal((await call('PUT', path, hundred)).status, 200, '100 pairs of 2,048 characters fit')
      assert.equal((await call('PATCH', path, { k0: null, other: 'x' })).status, 200)
    })

    it('pages players oldest first, page_token last', async () => {
      as = await t.otherAccount()
      const made = [await create({ name: '1' }), await create({ name: '2' }), await create({ name: '3' })]
      const first = (await call('GET', '/v2/players?limit=2')).json
      assert.deepEqual(first.items.map((p: { id: string }) => p.id), [made[0].id, made[1].id])
      assert.match(first.next_page, /^\/v2\/players\?limit=2&page_token=[^&]+$/)
      const second = (await call('GET', first.next_page)).json
      assert.deepEqual(second, { items: [made[2]] })
    })

    it('deletes a player', async () => {
      as = await t.otherAccount()
      const p = await create({ name: 'P' })
      assert.deepEqual((await call('DELETE', `/v2/players/${p.id}`)).json, {})
      assert.equal((await call('GET', `/v2/players/${p.id}`)).status, 404)
    })
  })
}
