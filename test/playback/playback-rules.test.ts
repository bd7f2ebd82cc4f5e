import assert from 'node:assert/strict'
import type { AddressInfo } from 'node:net'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { countryMmdb } from '../analytics/support/mmdb.ts'
import { makeScratchDir, makeVideo, mediaSkip, removeScratchDir } from '../support/media-fixtures.ts'
import { finished, pathOf, stackEnv, startStack, upload, type Stack } from '../media/e2e/support.ts'
import { loadConfig } from '../../src/config/index.ts'
import { serve } from '../../src/server/serve.ts'

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.81 Mobile Safari/537.36'
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1'

/**
 * Every media URL answers only for a live asset and only as its publishing rules allow, on both
 * listeners, and a change of the asset or its rule applies to the next request.
 */
describe('playback access on media URLs', { skip: mediaSkip }, () => {
  let stack: Stack
  let root: string
  let geoDir: string
  let id: string
  const paths = { master: '', playlist: '', segment: '', preview: '', source: '' }

  before(async () => {
    root = await makeScratchDir()
    geoDir = mkdtempSync(join(tmpdir(), 'reelhouse-geo-'))
    const geo = join(geoDir, 'country.mmdb')
    writeFileSync(geo, countryMmdb([{ cidr: '81.2.69.0/24', country: 'GB' }, { cidr: '2.16.0.0/24', country: 'FR' }]))
    stack = await startStack(['api', 'cdn', 'worker'], { GEOIP_DB: geo, TRUST_PROXY: '1' })
    id = await upload(stack, await makeVideo(join(root, 'clip.mp4'), { width: 320, height: 240, seconds: 2 }))
    const asset = await finished(stack, id)
    assert.equal(asset.status, 'live', asset.processing_error)
    paths.master = pathOf(asset.stream_urls.iphone)
    paths.source = pathOf(asset.stream_urls.source_file)
    paths.preview = pathOf(asset.preview_image_url)
    paths.playlist = pathOf((await stack.call('GET', `/v2/assets/${id}/streams`)).json.items[0].url)
    paths.segment = paths.playlist.replace('index.m3u8', 'segment-00000.ts')
  })
  after(async () => {
    await stack?.close()
    await removeScratchDir(root)
    rmSync(geoDir, { recursive: true, force: true })
  })

  /** Each media URL on each listener: its status and error code. */
  async function answers (headers: Record<string, string> = {}): Promise<string[]> {
    const seen: string[] = []
    for (const base of [stack.api, stack.cdn]) {
      for (const path of [paths.master, paths.playlist, paths.segment, paths.preview, paths.source]) {
        const res = await fetch(base + path, { headers: { 'x-forwarded-proto': 'https', 'user-agent': CHROME, 'x-forwarded-for': '81.2.69.10', ...headers } })
        seen.push(res.ok ? String(res.status) : `${res.status} ${(await res.json() as { code: string }).code}`)
        if (res.ok) await res.arrayBuffer()
      }
    }
    return [...new Set(seen)]
  }

  /** The Cache-Control of the master, a playlist, a segment, the preview and the original, on the cdn listener. */
  async function cacheControls (): Promise<Array<string | null>> {
    return await Promise.all([paths.master, paths.playlist, paths.segment, paths.preview, paths.source].map(async (path) => {
      const res = await fetch(stack.cdn + path, { headers: { 'user-agent': CHROME, 'x-forwarded-for': '81.2.69.10' } })
      await res.arrayBuffer()
      return res.headers.get('cache-control')
    }))
  }

  async function withRule (body: Record<string, unknown>): Promise<void> {
    const rule = await stack.call('POST', '/v2/publishing_rules', { name: `rule ${Math.random()}`, ...body })
    assert.equal(rule.status, 200, JSON.stringify(rule.json))
    assert.equal((await stack.call('PUT', `/v2/assets/${id}/publishing_rule/${rule.json.id as string}`)).status, 200)
  }

  it('a live asset plays; paused it answers asset_paused everywhere, and live again it plays', async () => {
    assert.deepEqual(await answers(), ['200'])
    assert.equal((await stack.call('PATCH', `/v2/assets/${id}`, { status: 'paused' })).status, 200)
    assert.deepEqual(await answers(), ['403 asset_paused'])
    assert.equal((await stack.call('PATCH', `/v2/assets/${id}`, { status: 'live' })).status, 200)
    assert.deepEqual(await answers(), ['200'])
  })

  it('feeds carry an uploaded asset\'s renditions, never its original, and leave it out while paused', async () => {
    const feed = await stack.call('POST', '/v2/syndications', { name: 'All', type: 'mrss', include_all_content: true })
    assert.equal(feed.status, 200, JSON.stringify(feed.json))
    const read = async (): Promise<string> => await (await fetch(`${stack.api}${feed.json.feed_url as string}`, { headers: { 'x-forwarded-proto': 'https' } })).text()
    const xml = await read()
    assert.ok(xml.includes(paths.master), xml)
    assert.ok(!xml.includes('/source'), xml)
    assert.equal((await stack.call('PATCH', `/v2/assets/${id}`, { status: 'paused' })).status, 200)
    assert.ok(!(await read()).includes(paths.master))
    assert.equal((await stack.call('PATCH', `/v2/assets/${id}`, { status: 'live' })).status, 200)
  })

  it('the asset\'s own time restrictions: a future start refuses, a past one allows', async () => {
    assert.equal((await stack.call('PATCH', `/v2/assets/${id}`, { time_restrictions: { type: 'range', start_date: '2099-01-01T00:00:00Z' } })).status, 200)
    assert.deepEqual(await answers(), ['403 playback_time_refused'])
    assert.equal((await stack.call('PATCH', `/v2/assets/${id}`, { time_restrictions: { start_date: '2020-01-01T00:00:00Z' } })).status, 200)
    assert.deepEqual(await answers(), ['200'])
    assert.equal((await stack.call('PATCH', `/v2/assets/${id}`, { time_restrictions: { start_date: null } })).status, 200)
  })

  it('a rule\'s time window, then the same rule changed: the next request follows it', async () => {
    await withRule({ time_restrictions: { type: 'range', start_date: '2099-01-01T00:00:00Z' } })
    assert.deepEqual(await answers(), ['403 playback_time_refused'])
    const ruleId = (await stack.call('GET', `/v2/assets/${id}/publishing_rule`)).json.id as string
    assert.equal((await stack.call('PATCH', `/v2/publishing_rules/${ruleId}`, { time_restrictions: { type: 'recurring', all_day: true, recurring_days: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'], start_date: null, time_zone: 'Pacific/Auckland' } })).status, 200)
    assert.deepEqual(await answers(), ['200'])
  })

  it('devices from the user agent', async () => {
    await withRule({ allowed_devices: ['iphone'] })
    assert.deepEqual(await answers({ 'user-agent': ANDROID }), ['403 playback_device_refused'])
    assert.deepEqual(await answers({ 'user-agent': IPHONE }), ['200'])
    await withRule({ allowed_devices: ['mobile'] })
    assert.deepEqual(await answers(), ['403 playback_device_refused'])
    assert.deepEqual(await answers({ 'user-agent': ANDROID }), ['200'])
  })

  it('domains: Origin or Referer; no site refused unless allow_no_referrer', async () => {
    await withRule({ domain_restrictions: { type: 'allow', domains: ['*.example.com'] } })
    assert.deepEqual(await answers(), ['403 playback_domain_refused'])
    assert.deepEqual(await answers({ origin: 'https://www.example.com' }), ['200'])
    assert.deepEqual(await answers({ referer: 'https://videos.example.com/page' }), ['200'])
    assert.deepEqual(await answers({ origin: 'https://example.com' }), ['403 playback_domain_refused'])
    await withRule({ domain_restrictions: { type: 'allow', domains: ['*.example.com'], allow_no_referrer: true } })
    assert.deepEqual(await answers(), ['200'])
    // Under a rule an answer is the viewer's own: no shared cache keeps it.
    assert.deepEqual(await cacheControls(), ['private, no-cache', 'private, no-cache', 'private, max-age=60', 'private, max-age=60', 'private, max-age=60'])
  })

  it('countries through the GeoIP database, from the address the trusted proxy forwarded', async () => {
    await withRule({ geographic_restrictions: { type: 'deny', countries: ['GB'] } })
    assert.deepEqual(await answers(), ['403 playback_country_refused'])
    assert.deepEqual(await answers({ 'x-forwarded-for': '2.16.0.9' }), ['200'])
    await withRule({ geographic_restrictions: { type: 'allow', countries: ['FR'] } })
    assert.deepEqual(await answers({ 'x-forwarded-for': '2.16.0.9' }), ['200'])
    // Two hops named: only the nearest is trusted, so the viewer's own claim (the first) is not read.
    assert.deepEqual(await answers({ 'x-forwarded-for': '2.16.0.9, 81.2.69.10' }), ['403 playback_country_refused'])
  })

  it('X-Forwarded-For is ignored when the proxy is not trusted', async () => {
    // A second cdn listener on the same data, trusting only proxies in 10.0.0.0/8 (the test connects from 127.0.0.1).
    const other = await serve(loadConfig(stackEnv(stack.dataDir, { GEOIP_DB: join(geoDir, 'country.mmdb'), TRUST_PROXY: '10.0.0.0/8' })), ['cdn'], () => {})
    try {
      const cdn = `http://127.0.0.1:${(other.apps.cdn?.server.address() as AddressInfo).port}`
      const res = await fetch(cdn + paths.segment, { headers: { 'user-agent': CHROME, 'x-forwarded-for': '2.16.0.9' } })
      assert.equal(res.status, 403)
      assert.equal((await res.json() as { code: string }).code, 'playback_country_refused')
    } finally {
      await other.close()
    }
    assert.equal((await stack.call('DELETE', `/v2/assets/${id}/publishing_rule`)).status, 200)
    assert.deepEqual(await answers(), ['200'])
    assert.deepEqual(await cacheControls(), ['public, max-age=10', 'no-cache', 'public, max-age=31536000, immutable', 'public, max-age=10', 'public, max-age=10'])
  })
})
