import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { databaseBackends } from '../support/backends.ts'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { allPages, createAsset, remoteAsset, videoAsset } from './support/assets.ts'

for (const backend of databaseBackends()) {
  describe(`/v2/assets on ${backend.name}`, { skip: backend.skip }, () => {
    let t: TestApp
    before(async () => { t = await buildTestApp(backend.name) })
    after(async () => { await t.close() })

    it('creates each type: uploaded types start uploading, the others live', async () => {
      const bodies: Record<string, Record<string, unknown>> = {
        video: { file_name: 'a.mp4', file_size: 10, chunk_size: 5 },
        audio: { file_name: 'a.mp3', file_size: 10 },
        ad: { file_name: 'ad.mp4', file_size: 10, click_url: 'https://ads.example.com/x' },
        remote_asset: { stream_urls: { iphone: 'https://cdn.example.com/a.m3u8' }, duration: 5000 },
        youtube: { youtube_id: 'dQw4w9WgXcQ' },
        live_stream: {},
        channel: {}
      }
      for (const [type, fields] of Object.entries(bodies)) {
        const asset = await createAsset(t, { asset_type: type, name: `A ${type}`, ...fields })
        assert.match(asset.embed_code, /^[A-Za-z0-9_-]{32}$/)
        assert.equal(asset.asset_type, type)
        assert.equal(asset.status, ['video', 'audio', 'ad'].includes(type) ? 'uploading' : 'live', type)
        assert.equal(asset.created_at, '2026-11-22T10:00:00Z')
        // Remote assets carry the client's stream URLs; uploaded types those processing fills (null until then).
        assert.equal('stream_urls' in asset, ['remote_asset', 'video', 'audio', 'ad'].includes(type), `${type} stream_urls`)
        assert.equal('youtube_id' in asset, type === 'youtube', `${type} youtube_id`)
        assert.equal('click_url' in asset, type === 'ad', `${type} click_url`)
      }
      const video = await videoAsset(t, { file_name: 'honeybadger.avi', file_size: 398422 })
      assert.equal(video.original_file_name, 'honeybadger.avi')
      assert.equal(video.file_size, 398422)
      assert.equal(video.duration, 0)
    })

    it('accepts, stores and returns every property real clients send', async () => {
      const common = { hosted_at: 'https://www.example.com/final', closed_captions_url: 'https://cdn.example.com/final.dfxp', vr360type: 'monoscopic' }
      const video = await createAsset(t, { asset_type: 'video', name: 'V', file_name: 'v.mp4', file_size: '14691458', chunk_size: '100000', ...common })
      assert.deepEqual([video.file_size, video.hosted_at, video.closed_captions_url, video.vr360type, video.stream_urls], [14691458, common.hosted_at, common.closed_captions_url, 'monoscopic', null])
      const ad = await createAsset(t, { asset_type: 'ad', name: 'A', file_name: 'a.mp4', file_size: 10, click_url: 'https://ads.example.com/x', tracking_pixel_urls: ['https://ads.example.com/p?1', 'https://ads.example.com/p?2'], disable_seek_for_standalone: 'true', hosted_at: null })
      assert.deepEqual([ad.tracking_pixel_urls, ad.disable_seek_for_standalone, ad.hosted_at], [['https://ads.example.com/p?1', 'https://ads.example.com/p?2'], true, null])
      const remote = await createAsset(t, { asset_type: 'remote_asset', name: 'R', is_live_stream: true, stream_urls: { smooth: 'https://cdn.example.com/a.ism', iphone: 'https://cdn.example.com/a.m3u8' } })
      assert.equal(remote.is_live_stream, true)
      assert.equal((remote.stream_urls as Record<string, string>).smooth, 'https://cdn.example.com/a.ism')
      const patched = await t.signed('PATCH', `/v2/assets/${ad.embed_code}`, { body: { disable_seek_for_standalone: false, vr360type: null, closed_captions_url: 'https://cdn.example.com/b.vtt' } })
      assert.equal(patched.statusCode, 200, patched.body)
      const read = (await t.signed('GET', `/v2/assets/${ad.embed_code}`)).json()
      assert.deepEqual([read.disable_seek_for_standalone, read.vr360type, read.closed_captions_url, read.tracking_pixel_urls], [false, null, 'https://cdn.example.com/b.vtt', ['https://ads.example.com/p?1', 'https://ads.example.com/p?2']])
    })

    it('reads, changes and deletes an asset by its external_id as well as its embed code', async () => {
      const asset = await remoteAsset(t, { external_id: 'site:58:vid:622717' })
      const byExternal = await t.signed('GET', '/v2/assets/site:58:vid:622717')
      assert.equal(byExternal.statusCode, 200, byExternal.body)
      assert.equal(byExternal.json().embed_code, asset.embed_code)
      const patched = await t.signed('PATCH', '/v2/assets/site:58:vid:622717', { body: { name: 'Renamed' } })
      assert.equal(patched.json().name, 'Renamed')
      assert.equal((await t.signed('GET', `/v2/assets/${asset.embed_code}/metadata`)).statusCode, 200)
      assert.equal((await t.signed('DELETE', '/v2/assets/site:58:vid:622717')).json().constructor, Object)
      assert.equal((await t.signed('GET', `/v2/assets/${asset.embed_code}`)).statusCode, 404)
    })

    it('keeps external_id unique per account only, and frees it when cleared', async () => {
      const first = await remoteAsset(t, { external_id: 'shared-id' })
      const other = await t.otherAccount()
      await remoteAsset(t, { external_id: 'shared-id' }, other)
      const clash = await t.signed('POST', '/v2/assets', { body: { asset_type: 'channel', name: 'c', external_id: 'shared-id' } })
      assert.equal(clash.statusCode, 409)
      assert.equal((await t.signed('PATCH', `/v2/assets/${first.embed_code}`, { body: { external_id: 'shared-id' } })).statusCode, 200, 'keeping its own id is no clash')
      assert.equal((await t.signed('PATCH', `/v2/assets/${first.embed_code}`, { body: { external_id: null } })).json().external_id, null)
      assert.equal((await t.signed('POST', '/v2/assets', { body: { asset_type: 'channel', name: 'c', external_id: 'shared-id' } })).statusCode, 200)
    })

    it('refuses a youtube_id another asset of the account already has', async () => {
      await createAsset(t, { asset_type: 'youtube', name: 'y', youtube_id: 'abc123' })
      const res = await t.signed('POST', '/v2/assets', { body: { asset_type: 'youtube', name: 'y2', youtube_id: 'abc123' } })
      assert.equal(res.statusCode, 409)
      assert.equal(res.json().message, 'Another asset of this account already has youtube_id abc123.')
    })

    it('patches only the given fields and moves updated_at', async () => {
      const asset = await remoteAsset(t, { description: 'Line one\nline two', preview_image_url: 'https://img.example.com/p.jpg' })
      t.clock.advance(60_000)
      const res = await t.signed('PATCH', `/v2/assets/${asset.embed_code}`, { body: { duration: 264428, asset_type: 'remote_asset' } })
      assert.equal(res.statusCode, 200, res.body)
      const patched = res.json()
      assert.equal(patched.duration, 264428)
      assert.equal(patched.description, 'Line one\nline two')
      assert.equal(patched.preview_image_url, 'https://img.example.com/p.jpg')
      assert.equal(patched.created_at, '2026-11-22T10:00:00Z')
      assert.equal(patched.updated_at, '2026-11-22T10:01:00Z')
      assert.deepEqual((await t.signed('GET', `/v2/assets/${asset.embed_code}`)).json(), patched)
    })

    it('normalises time restrictions like publishing rules\' and accepts "true"/"false" for booleans', async () => {
      const asset = await remoteAsset(t, {
        time_restrictions: { type: 'recurring', start_date: '2026-12-01T00:00:00.250+01:00', start_time: '08:30', end_time: '17:00:00', all_day: 'false', recurring_days: ['FRI', 'monday', 'MON'] }
      })
      assert.deepEqual(asset.time_restrictions, {
        type: 'recurring', start_date: '2026-11-30T23:00:00Z', end_date: null, start_time: '08:30:00', end_time: '17:00:00', all_day: false, recurring_days: ['monday', 'friday'], time_zone: 'UTC'
      })
      const range = await remoteAsset(t, { time_restrictions: { end_date: '2027-01-01T00:00:00Z' } })
      assert.deepEqual(range.time_restrictions, { type: 'range', start_date: null, end_date: '2027-01-01T00:00:00Z', start_time: null, end_time: null, all_day: false, recurring_days: [], time_zone: 'UTC' })
    })

    it('takes the stream URLs real clients send: RTMP for flash, RTSP, MMS, HDS over HTTP', async () => {
      const urls = {
        flash: 'rtmp://live.example.com/app/clip',
        iphone: 'https://cdn.example.com/clip.m3u8',
        ipad: 'rtsp://cam.example.com:554/stream1',
        itunes: 'mms://wm.example.com/clip',
        source_file: 'http://cdn.example.com/clip.f4m',
        smooth: 'https://cdn.example.com/clip.ism/Manifest'
      }
      const created = await t.signed('POST', '/v2/assets', { body: { asset_type: 'remote_asset', name: 'Live', stream_urls: urls } })
      assert.equal(created.statusCode, 200, created.body)
      assert.deepEqual(created.json().stream_urls, urls)
      const path = `/v2/assets/${created.json().embed_code as string}`
      const patched = await t.signed('PATCH', path, { body: { stream_urls: { flash: 'rtmps://live.example.com:443/app/clip', ipad: 'rtmpt://live.example.com/app/clip' } } })
      assert.equal(patched.statusCode, 200, patched.body)
      assert.deepEqual((await t.signed('GET', path)).json().stream_urls, { ...urls, flash: 'rtmps://live.example.com:443/app/clip', ipad: 'rtmpt://live.example.com/app/clip' })
    })

    it('merges time_restrictions and stream_urls member by member on PATCH; null clears them', async () => {
      const asset = await remoteAsset(t, {
        stream_urls: { source_file: 'https://cdn.example.com/s.mp4', ipad: 'https://cdn.example.com/i.mp4' },
        time_restrictions: { type: 'range', start_date: '2026-01-01T00:00:00Z', end_date: '2026-02-01T00:00:00Z' }
      })
      const path = `/v2/assets/${asset.embed_code}`
      const patched = (await t.signed('PATCH', path, { body: { stream_urls: { ipad: null, iphone: 'https://cdn.example.com/p.mp4' }, time_restrictions: { end_date: '2026-03-01T00:00:00Z' } } })).json()
      assert.equal(patched.stream_urls.source_file, 'https://cdn.example.com/s.mp4')
      assert.equal(patched.stream_urls.ipad, null)
      assert.equal(patched.stream_urls.iphone, 'https://cdn.example.com/p.mp4')
      assert.equal(patched.time_restrictions.start_date, '2026-01-01T00:00:00Z')
      assert.equal(patched.time_restrictions.end_date, '2026-03-01T00:00:00Z')
      const early = await t.signed('PATCH', path, { body: { time_restrictions: { end_date: '2025-12-31T00:00:00Z' } } })
      assert.equal(early.statusCode, 400, 'the merged value is checked')
      assert.equal((await t.signed('PATCH', path, { body: { time_restrictions: null } })).json().time_restrictions, null)
    })

    it('replaces with PUT: fields not given return to their defaults, the embed code and status stay', async () => {
      const player = (await t.signed('POST', '/v2/players', { body: { name: 'P' } })).json()
      const asset = await remoteAsset(t, { description: 'd', external_id: 'put-me', player_id: player.id, duration: 900, status: 'paused' })
      const res = await t.signed('PUT', '/v2/assets/put-me', { body: { name: 'Replaced', stream_urls: { source_file: 'https://cdn.example.com/b.mp4' } } })
      assert.equal(res.statusCode, 200, res.body)
      const replaced = res.json()
      assert.equal(replaced.embed_code, asset.embed_code)
      assert.equal(replaced.name, 'Replaced')
      assert.equal(replaced.description, '')
      assert.equal(replaced.external_id, null)
      assert.equal(replaced.player_id, null)
      assert.equal(replaced.duration, 0)
      assert.equal(replaced.status, 'paused')
      assert.equal(replaced.stream_urls.source_file, 'https://cdn.example.com/b.mp4')
      const video = await videoAsset(t)
      await t.ctx.db.updateTable('assets').set({ duration: 5000 }).where('id', '=', video.embed_code).execute()
      assert.equal((await t.signed('PUT', `/v2/assets/${video.embed_code}`, { body: { name: 'v' } })).json().duration, 5000, 'a measured duration stays')
      const yt = await createAsset(t, { asset_type: 'youtube', name: 'y', youtube_id: 'keep-me' })
      const noId = await t.signed('PUT', `/v2/assets/${yt.embed_code}`, { body: { name: 'y' } })
      assert.equal(noId.statusCode, 400)
      assert.equal(noId.json().message, 'Field youtube_id is required for youtube assets.')
    })

    it('answers {} to DELETE and lists the asset in deleted_assets, newest first and paged', async () => {
      const other = await t.otherAccount()
      const names: string[] = []
      for (let i = 0; i < 5; i++) {
        const asset = await remoteAsset(t, { name: `gone ${i}`, external_id: `gone-${i}` }, other)
        t.clock.advance(1000)
        const res = await t.signed('DELETE', `/v2/assets/${asset.embed_code}`, { as: other })
        assert.equal(res.statusCode, 200)
        assert.deepEqual(res.json(), {})
        names.unshift(`gone ${i}`)
      }
      const { items, pages } = await allPages<{ name: string, external_id: string, deleted_at: string, asset_type: string }>(t, '/v2/deleted_assets?limit=2', other)
      assert.deepEqual(items.map((item) => item.name), names)
      assert.equal(pages.length, 3)
      assert.match(pages[1] as string, /^\/v2\/deleted_assets\?limit=2&page_token=[^&]+$/)
      assert.equal(items[0]?.external_id, 'gone-4')
      assert.equal(items[0]?.asset_type, 'remote_asset')
      assert.equal(items[0]?.deleted_at, `${new Date(t.clock.now()).toISOString().slice(0, 19)}Z`)
      const mine = (await t.signed('GET', '/v2/deleted_assets?limit=500')).json()
      assert.ok(!mine.items.some((item: { name: string }) => item.name.startsWith('gone')), 'deleted assets are per account')
      assert.equal((await t.signed('DELETE', `/v2/assets/${'x'.repeat(32)}`, { as: other })).statusCode, 404)
    })
  })
}
