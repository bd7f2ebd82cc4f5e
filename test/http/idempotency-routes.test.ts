import assert from 'node:assert/strict'
import { deflateSync } from 'node:zlib'
import { after, before, describe, it } from 'node:test'
import type { RouteOptions } from 'fastify'
import { databaseBackends } from '../support/backends.ts'
import { buildTestApp, type TestApp } from '../support/app.ts'

/** What a keyed request of one route needs: a path (ids filled in) and a body. */
type Fixture = (t: TestApp, ids: Ids) => { path: string, body: object | string | undefined }
interface Ids { user: string, label: string, player: string, rule: string, asset: string, syndication: string, uploaded: string, live: string, spoken: string, webhook: string, delivery: string }

/**
 * One valid request for every signed POST and PATCH route. A new keyed route fails the coverage test
 * below until it has a fixture here, so its answer is known to be stored with its write.
 */
const FIXTURES: Record<string, Fixture> = {
  'POST /v2/users': () => ({ path: '/v2/users', body: { name: 'Keyed user', role: 'read_only' } }),
  'PATCH /v2/users/:user_id': (_t, ids) => ({ path: `/v2/users/${ids.user}`, body: { name: 'Renamed user' } }),
  'POST /v2/users/:user_id/secret': (_t, ids) => ({ path: `/v2/users/${ids.user}/secret`, body: undefined }),
  'POST /v2/labels/by_full_path/*': () => ({ path: '/v2/labels/by_full_path/%2FKeyed%2FPath', body: undefined }),
  'POST /v2/labels': () => ({ path: '/v2/labels', body: { name: 'Keyed label' } }),
  'PATCH /v2/labels/:label_id': (_t, ids) => ({ path: `/v2/labels/${ids.label}`, body: { name: 'Renamed label' } }),
  'POST /v2/players': () => ({ path: '/v2/players', body: { name: 'Keyed player', is_default: true } }),
  'PATCH /v2/players/:player_id': (_t, ids) => ({ path: `/v2/players/${ids.player}`, body: { playback: { autoplay: true } } }),
  'PATCH /v2/players/:player_id/metadata': (_t, ids) => ({ path: `/v2/players/${ids.player}/metadata`, body: { season: '2' } }),
  'POST /v2/publishing_rules': () => ({ path: '/v2/publishing_rules', body: { name: 'Keyed rule', allowed_devices: ['ipad'] } }),
  'PATCH /v2/publishing_rules/:publishing_rule_id': (_t, ids) => ({ path: `/v2/publishing_rules/${ids.rule}`, body: { name: 'Renamed rule' } }),
  'POST /v2/assets': () => ({ path: '/v2/assets', body: { asset_type: 'remote_asset', name: 'Keyed asset', stream_urls: { iphone: 'https://example.com/a.m3u8' } } }),
  'PATCH /v2/assets/:asset_id': (_t, ids) => ({ path: `/v2/assets/${ids.asset}`, body: { description: 'Patched' } }),
  'PATCH /v2/assets/:asset_id/metadata': (_t, ids) => ({ path: `/v2/assets/${ids.asset}/metadata`, body: { director: 'Varda' } }),
  'POST /v2/assets/:asset_id/labels': (_t, ids) => ({ path: `/v2/assets/${ids.asset}/labels`, body: [ids.label] }),
  'POST /v2/assets/:asset_id/process': (_t, ids) => ({ path: `/v2/assets/${ids.uploaded}/process`, body: { initiation_type: 'original_ingest' } }),
  'POST /v2/assets/:asset_id/preview_image_files': (_t, ids) => ({ path: `/v2/assets/${ids.live}/preview_image_files`, body: onePixelPng() }),
  'POST /v2/assets/:asset_id/captions': (_t, ids) => ({ path: `/v2/assets/${ids.asset}/captions?language=en`, body: 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nKeyed\n' }),
  'POST /v2/assets/:asset_id/captions/generate': (_t, ids) => ({ path: `/v2/assets/${ids.spoken}/captions/generate`, body: { language: 'en' } }),
  'POST /v2/assets/:asset_id/replacement': (_t, ids) => ({ path: `/v2/assets/${ids.live}/replacement`, body: { file_name: 'new.mp4', file_size: '1000' } }),
  'POST /v2/syndications': () => ({ path: '/v2/syndications', body: { name: 'Keyed feed', type: 'mrss' } }),
  'PATCH /v2/syndications/:syndication_id': (_t, ids) => ({ path: `/v2/syndications/${ids.syndication}`, body: { include_all_content: false, include_labels: [ids.label] } }),
  'POST /v2/syndications/:syndication_id/access_keys': (_t, ids) => ({ path: `/v2/syndications/${ids.syndication}/access_keys`, body: undefined }),
  'POST /v2/direct_uploads': () => ({ path: '/v2/direct_uploads', body: { cors_origin: 'https://app.example.com', new_asset_settings: { name: 'Keyed direct upload' } } }),
  'PATCH /v2/webhooks/:webhook_id': (_t, ids) => ({ path: `/v2/webhooks/${ids.webhook}`, body: { description: 'Renamed endpoint' } }),
  'POST /v2/webhooks/:webhook_id/test': (_t, ids) => ({ path: `/v2/webhooks/${ids.webhook}/test`, body: undefined }),
  'POST /v2/webhooks/:webhook_id/deliveries/:delivery_id/retry': (_t, ids) => ({ path: `/v2/webhooks/${ids.webhook}/deliveries/${ids.delivery}/retry`, body: undefined }),
  'POST /v2/assets/:asset_id/playback_tokens': (_t, ids) => ({ path: `/v2/assets/${ids.live}/playback_tokens`, body: { expires_in: 600, aud: 'v' } })
}

/** Signed POST and PATCH routes whose body the pipeline reads: the ones that honour Idempotency-Key. */
function keyedRoutes (routes: readonly RouteOptions[]): string[] {
  return routes.flatMap((route) => {
    const config = route.config as { public?: boolean, streamBody?: boolean, idempotencyKey?: false } | undefined
    // Routes that answer a secret once refuse the key (test/webhooks covers the refusal).
    if (config?.public === true || config?.streamBody === true || config?.idempotencyKey === false) return []
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    return methods.filter((method) => method === 'POST' || method === 'PATCH').map((method) => `${method} ${route.url}`)
  })
}

for (const backend of databaseBackends()) {
  describe(`every keyed route replays its first answer on ${backend.name}`, { skip: backend.skip }, () => {
    let t: TestApp
    let ids: Ids
    before(async () => {
      t = await buildTestApp(backend.name)
      const create = async (path: string, body: object): Promise<Record<string, string>> => (await t.signed('POST', path, { body })).json()
      ids = {
        user: (await create('/v2/users', { name: 'Fixture user', role: 'read_only' })).id as string,
        label: (await create('/v2/labels', { name: 'Fixture label' })).id as string,
        player: (await create('/v2/players', { name: 'Fixture player' })).id as string,
        rule: (await create('/v2/publishing_rules', { name: 'Fixture rule' })).id as string,
        asset: (await create('/v2/assets', { asset_type: 'youtube', name: 'Fixture asset', youtube_id: 'abc' })).embed_code as string,
        syndication: (await create('/v2/syndications', { name: 'Fixture feed', type: 'itunes' })).id as string,
        uploaded: await uploadedVideo(),
        live: await uploadedVideo(),
        spoken: await uploadedVideo(),
        webhook: (await create('/v2/webhooks', { url: 'https://hooks.example.com/reelhouse' })).id as string,
        delivery: ''
      }
      await create(`/v2/webhooks/${ids.webhook}/test`, {})
      const deliveries = (await t.signed('GET', `/v2/webhooks/${ids.webhook}/deliveries`)).json() as { items: Array<{ id: string }> }
      ids.delivery = deliveries.items[0]?.id as string
      // What processing does once done; no worker runs here.
      await t.ctx.db.updateTable('assets').set({ status: 'live', media_version: 'fixtureVersion0000000', media_token: 'fixtureToken0000000000000' }).where('id', '=', ids.live).execute()
      // An uploaded original to transcribe (its processing job stays queued).
      await t.signed('PUT', `/v2/assets/${ids.spoken}/upload_status`, { body: { status: 'uploaded' } })

      /** A video whose one chunk is uploaded, waiting for upload_status or process. */
      async function uploadedVideo (): Promise<string> {
        const id = (await create('/v2/assets', { asset_type: 'video', name: 'Fixture video', file_name: 'v.mp4', file_size: 3 })).embed_code as string
        const [url] = (await t.signed('GET', `/v2/assets/${id}/uploading_urls`)).json() as string[]
        const parsed = new URL(url as string)
        await t.app.inject({ method: 'PUT', url: parsed.pathname + parsed.search, payload: Buffer.from('abc') })
        return id
      }
    })
    after(async () => { await t?.close() })

    it('has a fixture for every signed POST and PATCH route', () => {
      assert.deepEqual(keyedRoutes(t.app.routeTable).filter((route) => FIXTURES[route] === undefined), [])
    })

    for (const [route, fixture] of Object.entries(FIXTURES)) {
      it(`${route}: the same request with the same key answers the same status and bytes, without running again`, async () => {
        const { path, body } = fixture(t, ids)
        const method = route.split(' ', 1)[0] as string
        const headers = { 'idempotency-key': `k:${route.replace(/ /g, '_')}` }
        const first = await t.signed(method, path, { body, headers })
        assert.ok([200, 201, 202].includes(first.statusCode), `${first.statusCode} ${first.body}`)
        const again = await t.signed(method, path, { body, headers })
        assert.equal(again.statusCode, first.statusCode)
        assert.equal(again.headers['idempotent-replayed'], 'true')
        assert.equal(again.body, first.body)
      })
    }
  })
}

/** A 1×1 grey PNG, built here (a preview image file the route decodes whole). */
function onePixelPng (): Buffer {
  const table = Array.from({ length: 256 }, (_, n) => {
    let c = n
    for (let k = 0; k < 8; k++) c = (c & 1) !== 0 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    return c >>> 0
  })
  const crc = (bytes: Buffer): number => {
    let c = 0xffffffff
    for (const b of bytes) c = (table[(c ^ b) & 0xff] as number) ^ (c >>> 8)
    return (c ^ 0xffffffff) >>> 0
  }
  const chunk = (type: string, data: Buffer): Buffer => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
    const out = Buffer.alloc(body.length + 8)
    out.writeUInt32BE(data.length, 0)
    body.copy(out, 4)
    out.writeUInt32BE(crc(body), body.length + 4)
    return out
  }
  const header = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0])
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.from([0, 128]))), chunk('IEND', Buffer.alloc(0))
  ])
}
