import assert from 'node:assert/strict'
import { createHmac, generateKeyPairSync } from 'node:crypto'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { importPKCS8, SignJWT, type JWTHeaderParameters } from 'jose'
import { makeScratchDir, makeVideo, mediaSkip, removeScratchDir } from '../support/media-fixtures.ts'
import { finished, pathOf, startStack, upload, type Stack } from '../media/e2e/support.ts'
import { adminOf } from '../support/app.ts'
import { signedPath } from '../../src/signing/index.ts'
import { signPlaybackToken } from '../../packages/client/src/index.ts'

const HTTPS = { 'x-forwarded-proto': 'https' }
const b64 = (value: object | string): string => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url')

/**
 * Signed playback (docs/playback.md): the customer's JWT on the master URL, the derived token in the
 * path of every child URL, and every way a token is refused, each row's answer asserted.
 */
describe('signed playback', { skip: mediaSkip }, () => {
  let stack: Stack
  let root: string
  let id: string
  let other: string
  let key: { id: string, private_key: string, private_jwk: JsonWebKey & { kid: string }, public_jwk: { x: string } }
  const paths = { master: '', otherMaster: '', storyboard: '' }

  before(async () => {
    root = await makeScratchDir()
    stack = await startStack(['api', 'worker'])
    const video = await makeVideo(join(root, 'clip.mp4'), { width: 320, height: 240, seconds: 2 })
    ;[id, other] = await Promise.all([upload(stack, video), upload(stack, video, { name: 'Other' })])
    for (const asset of [await finished(stack, id), await finished(stack, other)]) assert.equal(asset.status, 'live', asset.processing_error)
    paths.master = pathOf((await stack.call('GET', `/v2/assets/${id}`)).json.stream_urls.iphone)
    paths.storyboard = pathOf((await stack.call('GET', `/v2/assets/${id}`)).json.stream_urls.storyboard)
    paths.otherMaster = pathOf((await stack.call('GET', `/v2/assets/${other}`)).json.stream_urls.iphone)
    for (const asset of [id, other]) assert.equal((await stack.call('PATCH', `/v2/assets/${asset}`, { playback_policy: 'signed' })).status, 200)
    const created = await stack.call('POST', '/v2/playback_keys')
    assert.equal(created.status, 200, JSON.stringify(created.json))
    key = created.json
  })
  after(async () => {
    await stack?.close()
    await removeScratchDir(root)
  })

  async function sign (claims: Record<string, unknown>, header: Partial<JWTHeaderParameters> = {}, pem = key.private_key, kid = key.id): Promise<string> {
    const exp = Math.floor(Date.now() / 1000) + 600
    return await new SignJWT({ sub: id, aud: 'v', exp, ...claims }).setProtectedHeader({ alg: 'EdDSA', kid, ...header }).sign(await importPKCS8(pem, 'EdDSA'))
  }

  async function get (path: string, headers: Record<string, string> = {}): Promise<{ status: number, code: string | undefined, text: string, cacheControl: string | null }> {
    const res = await fetch(stack.api + path, { headers: { ...HTTPS, ...headers } })
    const text = await res.text()
    return { status: res.status, code: res.ok ? undefined : (JSON.parse(text) as { code: string }).code, text, cacheControl: res.headers.get('cache-control') }
  }
  const answer = async (path: string, headers?: Record<string, string>): Promise<string> => {
    const res = await get(path, headers)
    return res.code === undefined ? String(res.status) : `${res.status} ${res.code}`
  }
  /** The master's first child URL (with its derived token) and the segment next to it. */
  async function children (token: string, master = paths.master, headers: Record<string, string> = {}): Promise<{ playlist: string, segment: string }> {
    const res = await get(`${master}?token=${token}`, headers)
    assert.equal(res.status, 200, res.text)
    const uri = res.text.split('\n').find((line) => line.startsWith('t/')) as string
    assert.match(uri, /^t\/d1\.[0-9a-f]{32}\.v\.\d+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]{22}\/[^/]+\/[^/]+\/index\.m3u8$/)
    const playlist = master.replace('master.m3u8', uri)
    return { playlist, segment: playlist.replace('index.m3u8', 'segment-00000.ts') }
  }

  it('a signed asset plays with a token (every child URL carries the derived token) and not without one', async () => {
    assert.equal(await answer(paths.master), '403 playback_token_required')
    const { playlist, segment } = await children(await sign({}))
    const media = await get(playlist)
    assert.equal(media.status, 200, media.text)
    assert.equal(media.cacheControl, 'private, no-cache')
    assert.match(media.text, /^segment-00000\.ts$/m)
    const seg = await get(segment)
    assert.equal(seg.status, 200)
    assert.match(seg.cacheControl ?? '', /^private, max-age=\d+$/)
    // The same file without the derived token in its path is refused.
    assert.equal(await answer(segment.replace(/t\/[^/]+\//, '')), '403 playback_token_required')
  })

  it('the bad-token table: every row refused with its own answer', async () => {
    const { privateKey: foreign } = generateKeyPairSync('ed25519')
    const foreignPem = foreign.export({ format: 'pem', type: 'pkcs8' }).toString()
    const otherAccount = adminOf(await stack.server.ctx.services.accounts.create('Other account'))
    const otherKey = await fetch(stack.api + signedPath({ apiKey: otherAccount.apiKey, secret: otherAccount.secret, method: 'POST', path: '/v2/playback_keys' }), { method: 'POST', headers: HTTPS }).then(async (r) => await r.json() as { id: string, private_key: string })
    const publicPem = `-----BEGIN PUBLIC KEY-----\n${Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(key.public_jwk.x, 'base64url')]).toString('base64')}\n-----END PUBLIC KEY-----\n`
    const hs256 = (() => {
      const head = b64({ alg: 'HS256', kid: key.id, typ: 'JWT' })
      const body = b64({ sub: id, aud: 'v', exp: Math.floor(Date.now() / 1000) + 600 })
      return `${head}.${body}.${createHmac('sha256', publicPem).update(`${head}.${body}`).digest('base64url')}`
    })()
    const none = `${b64({ alg: 'none', kid: key.id })}.${b64({ sub: id, aud: 'v', exp: Math.floor(Date.now() / 1000) + 600 })}.`
    const now = Math.floor(Date.now() / 1000)
    const revokedKey = (await stack.call('POST', '/v2/playback_keys')).json as { id: string, private_key: string }
    const revokedToken = await sign({}, {}, revokedKey.private_key, revokedKey.id)
    assert.equal((await stack.call('DELETE', `/v2/playback_keys/${revokedKey.id}`)).status, 200)
    const rows: Array<[string, string, string]> = [
      ['malformed', 'not-a-jwt', '403 playback_token_invalid'],
      ['alg none', none, '403 playback_token_invalid'],
      ['HS256 signed with the public key as the secret', hs256, '403 playback_token_invalid'],
      ['jwk header', await sign({}, { jwk: { kty: 'OKP', crv: 'Ed25519', x: key.public_jwk.x } }), '403 playback_token_invalid'],
      ['jku header', await sign({}, { jku: 'https://evil.test/keys' }), '403 playback_token_invalid'],
      ['x5u header', await sign({}, { x5u: 'https://evil.test/cert' } as Partial<JWTHeaderParameters>), '403 playback_token_invalid'],
      ['x5c header', await sign({}, { x5c: ['MIIB'] }), '403 playback_token_invalid'],
      ['no kid', await sign({}, {}, key.private_key, ''), '403 playback_token_invalid'],
      ['wrong sub', await sign({ sub: other }), '403 playback_token_invalid'],
      ['wrong aud', await sign({ aud: 't' }), '403 playback_token_invalid'],
      ['expired beyond the tolerance', await sign({ exp: now - 31 }), '403 playback_token_expired'],
      ['nbf ahead', await sign({ nbf: now + 120 }), '403 playback_token_invalid'],
      ['exp more than 7 days ahead', await sign({ exp: now + 8 * 86400 }), '403 playback_token_invalid'],
      ['unknown kid', await sign({}, {}, foreignPem, 'f'.repeat(32)), '403 playback_token_invalid'],
      ['signed by another key than its kid', await sign({}, {}, foreignPem), '403 playback_token_invalid'],
      ['revoked key', revokedToken, '403 playback_key_revoked'],
      ['another account\'s key', await sign({}, {}, otherKey.private_key, otherKey.id), '403 playback_token_invalid']
    ]
    const seen: string[] = []
    for (const [, token] of rows) seen.push(await answer(`${paths.master}?token=${encodeURIComponent(token)}`))
    assert.deepEqual(rows.map(([name, , code], i) => `${name}: ${seen[i]}`), rows.map(([name, , code]) => `${name}: ${code}`))
    // Within the tolerance still plays.
    assert.equal(await answer(`${paths.master}?token=${await sign({ exp: now - 5 })}`), '200')
  })

  it('signPlaybackToken in the TypeScript client signs tokens that play, from the PEM or the JWK', async () => {
    const fromPem = await signPlaybackToken(key.private_key, { embedCode: id, keyId: key.id, expiresIn: 600 })
    const fromJwk = await signPlaybackToken(key.private_jwk, { embedCode: id, expiresIn: 600, aud: 'v' })
    assert.equal(await answer(`${paths.master}?token=${fromPem}`), '200')
    assert.equal(await answer(`${paths.master}?token=${fromJwk}`), '200')
    const narrowed = await signPlaybackToken(key.private_jwk, { embedCode: id, allowedDomains: ['allowed.test'] })
    assert.equal(await answer(`${paths.master}?token=${narrowed}`, { referer: 'https://elsewhere.test/page' }), '403 playback_domain_refused')
  })

  it('a derived token is bound to its asset, version, audience and narrowing claims', async () => {
    const { playlist, segment } = await children(await sign({}))
    const derived = /\/t\/([^/]+)\//.exec(playlist)?.[1] as string
    const otherChildren = await children(await sign({ sub: other }), paths.otherMaster)
    // Another asset: this asset's derived token on the other asset's segment.
    assert.equal(await answer(otherChildren.segment.replace(/\/t\/[^/]+\//, `/t/${derived}/`)), '403 playback_token_invalid')
    // Another version: the same token under another version's path.
    assert.equal(await answer(segment.replace(/\/t\/([^/]+)\/[^/]+\//, `/t/$1/${'A'.repeat(22)}/`)), '403 playback_token_invalid')
    // Another audience: the storyboard's derived token (aud s) on a segment.
    const storyboard = await get(`${paths.storyboard}?token=${await sign({ aud: 's' })}`)
    assert.equal(storyboard.status, 200, storyboard.text)
    const sDerived = /t\/(d1\.[^/]+)\//.exec(storyboard.text)?.[1] as string
    assert.equal(await answer(segment.replace(/\/t\/[^/]+\//, `/t/${sDerived}/`)), '403 playback_token_invalid')
    // A sprite sheet opens with it.
    const sprite = /^(t\/\S+\.jpg)/m.exec(storyboard.text)?.[1] as string
    assert.equal(await answer(paths.storyboard.replace('storyboard.vtt', sprite)), '200')
    // Narrowing claims only restrict: the token's sites apply, and a widened claim breaks the derived token.
    const narrowed = await children(await sign({ allowed_domains: ['allowed.test'] }), paths.master, { origin: 'https://allowed.test' })
    assert.equal(await answer(narrowed.segment, { origin: 'https://allowed.test' }), '200')
    assert.equal(await answer(narrowed.segment, { origin: 'https://elsewhere.test' }), '403 playback_domain_refused')
    const widened = narrowed.segment.replace(/(d1\.[0-9a-f]{32}\.v\.\d+\.)([A-Za-z0-9_-]+)/, (_, head: string) => `${head}${b64({ allowed_domains: ['allowed.test', 'elsewhere.test'] })}`)
    assert.equal(await answer(widened, { origin: 'https://elsewhere.test' }), '403 playback_token_invalid')
    // A token cannot widen a publishing rule either.
    const rule = await stack.call('POST', '/v2/publishing_rules', { name: 'Allowed site', domain_restrictions: { type: 'allow', domains: ['allowed.test'] } })
    assert.equal((await stack.call('PUT', `/v2/assets/${id}/publishing_rule/${rule.json.id as string}`)).status, 200)
    const wide = await sign({ allowed_domains: ['elsewhere.test'] })
    assert.equal(await answer(`${paths.master}?token=${wide}`, { origin: 'https://elsewhere.test' }), '403 playback_domain_refused')
    assert.equal((await stack.call('DELETE', `/v2/assets/${id}/publishing_rule`)).status, 200)
  })

  it('a revoked key, a pause and a rule change refuse derived URLs already handed out', async () => {
    const fresh = (await stack.call('POST', '/v2/playback_keys')).json as { id: string, private_key: string }
    const { segment } = await children(await sign({}, {}, fresh.private_key, fresh.id))
    assert.equal(await answer(segment), '200')
    assert.equal((await stack.call('DELETE', `/v2/playback_keys/${fresh.id}`)).status, 200)
    assert.equal(await answer(segment), '403 playback_key_revoked')
    const handed = (await children(await sign({}))).segment
    assert.equal((await stack.call('PATCH', `/v2/assets/${id}`, { status: 'paused' })).status, 200)
    assert.equal(await answer(handed), '403 asset_paused')
    assert.equal((await stack.call('PATCH', `/v2/assets/${id}`, { status: 'live' })).status, 200)
    assert.equal(await answer(handed), '200')
    const rule = await stack.call('POST', '/v2/publishing_rules', { name: 'Nowhere', geographic_restrictions: { type: 'allow', countries: ['PT'] } })
    assert.equal((await stack.call('PUT', `/v2/assets/${id}/publishing_rule/${rule.json.id as string}`)).status, 200)
    assert.equal(await answer(handed), '403 playback_country_refused')
    assert.equal((await stack.call('DELETE', `/v2/assets/${id}/publishing_rule`)).status, 200)
  })

  it('playback tokens from the managed key; the key is listed as managed and revocable', async () => {
    const issued = await stack.call('POST', `/v2/assets/${id}/playback_tokens`, { expires_in: 3600 })
    assert.equal(issued.status, 200, JSON.stringify(issued.json))
    assert.equal(await answer(`${paths.master}?token=${issued.json.token as string}`), '200')
    const listed = (await stack.call('GET', '/v2/playback_keys')).json.items as Array<{ id: string, managed: boolean, private_key?: string }>
    const managed = listed.find((k) => k.managed)
    assert.ok(managed !== undefined)
    assert.equal(managed?.id, issued.json.kid)
    assert.ok(listed.every((k) => k.private_key === undefined))
    assert.equal((await stack.call('DELETE', `/v2/playback_keys/${managed.id}`)).status, 200)
    assert.equal(await answer(`${paths.master}?token=${issued.json.token as string}`), '403 playback_key_revoked')
    // A new managed key is made on next use.
    const again = await stack.call('POST', `/v2/assets/${id}/playback_tokens`, { expires_in: 60, aud: 'v' })
    assert.notEqual(again.json.kid, managed.id)
    assert.equal(await answer(`${paths.master}?token=${again.json.token as string}`), '200')
  })

  it('bad requests to the new endpoints change nothing', async () => {
    const before = (await stack.call('GET', '/v2/playback_keys')).json.items.length as number
    const rows: Array<[string, string, object | undefined, string]> = [
      ['POST', '/v2/playback_keys', { algorithm: 'HS256' }, '400 validation_failed'],
      ['GET', '/v2/playback_keys/nothex', undefined, '404 playback_key_not_found'],
      ['DELETE', `/v2/playback_keys/${'0'.repeat(32)}`, undefined, '404 playback_key_not_found'],
      ['POST', `/v2/assets/${id}/playback_tokens`, {}, '400 validation_failed'],
      ['POST', `/v2/assets/${id}/playback_tokens`, { expires_in: 86_401 }, '400 validation_failed'],
      ['POST', `/v2/assets/${id}/playback_tokens`, { expires_in: 0 }, '400 validation_failed'],
      ['POST', `/v2/assets/${id}/playback_tokens`, { expires_in: 60, aud: 'x' }, '400 validation_failed'],
      ['POST', `/v2/assets/${id}/playback_tokens`, { expires_in: 60, sub: 'other' }, '400 validation_failed'],
      ['POST', '/v2/assets/nope/playback_tokens', { expires_in: 60 }, '404 asset_not_found'],
      ['PATCH', `/v2/assets/${id}`, { playback_policy: 'private' }, '400 validation_failed'],
      ['POST', '/v2/publishing_rules', { name: 'x', playback_policy: 'secret' }, '400 validation_failed']
    ]
    const seen: string[] = []
    for (const [method, path, body] of rows) {
      const res = await stack.call(method, path, body)
      seen.push(`${method} ${path} ${JSON.stringify(body)}: ${res.status} ${res.json?.code as string}`)
    }
    assert.deepEqual(seen, rows.map(([method, path, body, code]) => `${method} ${path} ${JSON.stringify(body)}: ${code}`))
    assert.equal((await stack.call('GET', '/v2/playback_keys')).json.items.length, before)
    // Idempotency-Key is refused on key creation (no replay store may keep the private key).
    const url = signedPath({ apiKey: stack.admin.api_key, secret: stack.admin.secret, method: 'POST', path: '/v2/playback_keys' })
    const replayed = await fetch(stack.api + url, { method: 'POST', headers: { ...HTTPS, 'idempotency-key': 'k1' } })
    assert.equal(replayed.status, 400)
  })
})
