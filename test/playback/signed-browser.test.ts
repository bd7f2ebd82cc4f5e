import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { launchBrowser, NO_CHROMIUM, type Browser } from '../console/support/browser.ts'
import { makeScratchDir, makeVideo, mediaSkip, removeScratchDir } from '../support/media-fixtures.ts'
import { finished, pathOf, startStack, upload, type Stack } from '../media/e2e/support.ts'
import { HLS_JS, hlsPage } from '../media/e2e/hls-page.ts'
import { signPlaybackToken } from '../../packages/client/src/index.ts'
import { CLOCK_TOLERANCE_S } from '../../src/media/serving/playback-token.ts'

/** hls.js with no configuration at all: the master URL with `?token=` is all it is given. */
const PAGE = hlsPage('/player/hls.js')
const GENEROUS_MS = 60_000

/**
 * A signed asset in Chromium with hls.js: plays with a token, and only then; a site rule; a pause. Signed
 * media is HTTPS-only, so everything is played from the api listener's own HTTPS (TRUST_PROXY=false, its
 * self-signed certificate, which the browser accepts); the player page is served on either loopback name
 * of that listener, two sites: localhost and 127.0.0.1 (the media's own).
 */
describe('signed playback in Chromium with hls.js', { skip: mediaSkip || NO_CHROMIUM }, () => {
  let stack: Stack
  let root: string
  let browser: Browser
  let id: string
  let master: string

  before(async () => {
    root = await makeScratchDir()
    stack = await startStack(['api', 'worker'], { TRUST_PROXY: 'false' })
    id = await upload(stack, await makeVideo(join(root, 'clip.mp4'), { width: 320, height: 240, seconds: 4 }))
    const asset = await finished(stack, id)
    assert.equal(asset.status, 'live', asset.processing_error)
    master = stack.api + pathOf(asset.stream_urls.iphone)
    browser = await launchBrowser()
    // The player page, on either loopback name of the api listener. Chromium counts a page a route answers as
    // public, and refuses a public page's requests to a loopback address unless local network access is granted.
    await browser.context.grantPermissions(['local-network-access'])
    await browser.context.route(/\/player\//, async (route) => {
      if (route.request().url().includes('/hls.js')) await route.fulfill({ contentType: 'text/javascript', body: await readFile(HLS_JS) })
      else await route.fulfill({ contentType: 'text/html', body: PAGE })
    })
  })
  after(async () => {
    await browser?.close()
    await stack?.close()
    await removeScratchDir(root)
  })

  /** Opens the player page on `site` with `src`; answers 'plays' once currentTime advances, or the fatal error. */
  const site = (host: string): string => `https://${host}:${new URL(stack.api).port}`
  async function play (src: string, host = 'localhost'): Promise<{ outcome: string, segments: string[] }> {
    const page = await browser.tab()
    const segments: string[] = []
    page.on('request', (request) => { if (request.url().endsWith('.ts')) segments.push(request.url()) })
    await page.goto(`${site(host)}/player/page.html?src=${encodeURIComponent(src)}`)
    const outcome = await page.waitForFunction(() => (document.getElementById('v') as HTMLVideoElement).currentTime > 0.5 ? 'plays' : ((window as any).hlsErrors as string[])[0], undefined, { timeout: GENEROUS_MS })
    const result = await outcome.jsonValue() as string
    await page.close()
    return { outcome: result, segments }
  }
  /** Why the service refuses `src` to a page on `host`: its status and code (the page cannot read a refusal, which carries no CORS header). */
  async function refusal (src: string, host = 'localhost'): Promise<string> {
    const res = await stack.send(src.slice(stack.api.length), { headers: { origin: site(host), referer: `${site(host)}/` } })
    return `${res.status} ${JSON.parse(res.text).code as string}`
  }
  const token = async (): Promise<string> => (await stack.call('POST', `/v2/assets/${id}/playback_tokens`, { expires_in: 600 })).json.token as string

  it('a signed asset plays with a token, and not without one, with an expired one or with a revoked key', async () => {
    assert.equal((await stack.call('PATCH', `/v2/assets/${id}`, { playback_policy: 'signed' })).status, 200)
    const played = await play(`${master}?token=${await token()}`)
    assert.equal(played.outcome, 'plays')
    assert.ok(played.segments.every((url) => /\/t\/d1\.[^/]+\//.test(url)), 'every segment URL carries the derived token')
    assert.equal((await play(master)).outcome, 'manifestLoadError')
    assert.equal(await refusal(master), '403 playback_token_required')
    // A one-second token signed (with a key of the account's own) just longer ago than the clock tolerance.
    const key = (await stack.call('POST', '/v2/playback_keys')).json as { private_jwk: JsonWebKey & { kid: string } }
    const expiring = await signPlaybackToken(key.private_jwk, { embedCode: id, expiresIn: 1, now: Date.now() - (CLOCK_TOLERANCE_S + 2) * 1000 })
    assert.equal((await play(`${master}?token=${expiring}`)).outcome, 'manifestLoadError')
    assert.equal(await refusal(`${master}?token=${expiring}`), '403 playback_token_expired')
    const revoked = await token()
    const kid = (await stack.call('GET', '/v2/playback_keys')).json.items.find((k: { managed: boolean }) => k.managed).id as string
    assert.equal((await stack.call('DELETE', `/v2/playback_keys/${kid}`)).status, 200)
    assert.equal((await play(`${master}?token=${revoked}`)).outcome, 'manifestLoadError')
    assert.equal(await refusal(`${master}?token=${revoked}`), '403 playback_key_revoked')
    assert.equal((await stack.call('PATCH', `/v2/assets/${id}`, { playback_policy: null })).status, 200)
  })

  it('a domain-restricted asset plays from a page on an allowed site and not from another', async () => {
    const rule = await stack.call('POST', '/v2/publishing_rules', { name: 'Sites', domain_restrictions: { type: 'allow', domains: ['localhost'] } })
    assert.equal((await stack.call('PUT', `/v2/assets/${id}/publishing_rule/${rule.json.id as string}`)).status, 200)
    assert.equal((await play(master, 'localhost')).outcome, 'plays')
    assert.equal((await play(master, '127.0.0.1')).outcome, 'manifestLoadError')
    assert.equal(await refusal(master, '127.0.0.1'), '403 playback_domain_refused')
    assert.equal((await stack.call('DELETE', `/v2/assets/${id}/publishing_rule`)).status, 200)
  })

  it('after a pause, the next segment request from the page is refused', async () => {
    const page = await browser.tab()
    const segments: string[] = []
    page.on('request', (request) => { if (request.url().endsWith('.ts')) segments.push(request.url()) })
    // The media's own site, so the page reads the refusal's status (CORS aside).
    await page.goto(`${site('127.0.0.1')}/player/page.html?src=${encodeURIComponent(master)}`)
    await page.waitForFunction(() => (document.getElementById('v') as HTMLVideoElement).currentTime > 0.5, undefined, { timeout: GENEROUS_MS })
    assert.equal((await stack.call('PATCH', `/v2/assets/${id}`, { status: 'paused' })).status, 200)
    const segment = segments[0] as string
    // A request that reaches the service: the browser's cache may keep a segment it already has.
    await page.waitForFunction(async (url) => (await fetch(url, { cache: 'no-store' })).status === 403, segment, { timeout: GENEROUS_MS, polling: 50 })
    await page.close()
    assert.equal(await refusal(segment, '127.0.0.1'), '403 asset_paused')
    assert.equal((await stack.call('PATCH', `/v2/assets/${id}`, { status: 'live' })).status, 200)
  })
})
