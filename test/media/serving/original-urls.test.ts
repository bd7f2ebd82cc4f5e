import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { databaseBackends } from '../../support/backends.ts'
import { buildTestApp, type Caller, type TestApp } from '../../support/app.ts'
import { assetPrefix } from '../../../src/media/store/index.ts'

/**
 * Private originals (docs/media.md, "Originals"): an uploaded asset made playable straight in the
 * database (no processing needed to show the URL rules), then its original asked for with and without
 * the signed URL its answers carry, as each role, and through its feeds.
 */
const DAY = 86_400

for (const backend of databaseBackends()) {
  describe(`originals (${backend.name})`, { skip: backend.skip }, () => {
    let t: TestApp
    let id: string
    let token: string
    const original = Buffer.from('an original, as uploaded')

    before(async () => {
      t = await buildTestApp(backend.name)
      const created = await t.signed('POST', '/v2/assets', { body: { asset_type: 'video', name: 'Private', file_name: 'final.mp4', file_size: original.length } })
      assert.equal(created.statusCode, 200, created.body)
      id = created.json().embed_code as string
      token = 'T'.repeat(32)
      const version = 'V'.repeat(22)
      const key = `${assetPrefix(t.admin.accountId, id)}original-1`
      await t.ctx.services.mediaStore.put(key, original)
      const now = new Date(t.clock.now()).toISOString()
      await t.ctx.db.insertInto('media_versions').values({
        account_id: t.admin.accountId, asset_id: id, version, job_id: 'j', state: 'current', original_key: key, probe: null, has_preview: 0,
        renditions: '[]', progress: 100, created_at: now, updated_at: now, encryption_keys: null
      }).execute()
      const source = `${t.config.publicApiUrl}/media/${token}/source`
      await t.ctx.db.updateTable('assets').set({
        status: 'live', media_token: token, media_version: version,
        stream_urls: JSON.stringify({ iphone: `${t.config.publicApiUrl}/media/${token}/master.m3u8`, ipad: `${t.config.publicApiUrl}/media/${token}/master.m3u8`, source_file: source })
      }).where('account_id', '=', t.admin.accountId).where('id', '=', id).execute()
    })
    after(async () => { await t?.close() })

    async function sourceUrlAs (caller?: Caller): Promise<{ status: number, url: string | undefined, info: string | undefined }> {
      const asset = await t.signed('GET', `/v2/assets/${id}`, { as: caller })
      const info = await t.signed('GET', `/v2/assets/${id}/source_file_info`, { as: caller })
      assert.equal(info.statusCode, asset.statusCode)
      return { status: asset.statusCode, url: asset.statusCode === 200 ? asset.json().stream_urls.source_file : undefined, info: info.statusCode === 200 ? info.json().source_file_url : undefined }
    }
    const pathOf = (url: string): string => { const u = new URL(url, t.config.publicApiUrl); return u.pathname + u.search }

    it('gives a signed URL expiring 48–72 h ahead at the start of a UTC day, the same all day', async () => {
      const first = await sourceUrlAs()
      assert.equal(first.info, first.url)
      const url = new URL(first.url as string)
      assert.equal(url.pathname, `/media/${token}/source`)
      const expires = Number(url.searchParams.get('expires'))
      const ahead = expires - t.clock.now() / 1000
      assert.ok(ahead > 48 * 3600 && ahead <= 72 * 3600, `${ahead} s ahead`)
      assert.equal(expires % DAY, 0)
      assert.match(url.searchParams.get('signature') ?? '', /^[A-Za-z0-9_-]{43}$/)
      t.clock.advance(3 * 3600 * 1000)
      assert.equal((await sourceUrlAs()).url, first.url, 'the same day, the same URL (a cached answer stays right)')
      const original = await t.app.inject({ method: 'GET', url: pathOf(first.url as string) })
      assert.equal(original.statusCode, 200)
      assert.equal(original.body, 'an original, as uploaded')
    })

    it('answers the original only to roles that read the asset', async () => {
      const expected: Record<string, number> = { administrator: 200, manager: 200, read_only: 200, upload_only: 404, analytics_only: 403 }
      for (const [role, status] of Object.entries(expected)) {
        const caller = await t.userWithRole(role as never)
        const seen = await sourceUrlAs(caller)
        assert.equal(seen.status, status, role)
        if (status === 200) assert.match(seen.url ?? '', /\?expires=\d+&signature=/, role)
        else assert.equal(seen.url, undefined, role)
      }
      const other = await t.otherAccount()
      assert.equal((await sourceUrlAs(other)).status, 404)
    })

    it('refuses the media token alone, a tampered, foreign or expired signature, and malformed parameters', async () => {
      const signed = new URL((await sourceUrlAs()).url as string)
      const expires = signed.searchParams.get('expires') as string
      const signature = signed.searchParams.get('signature') as string
      const flipped = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1)
      const rows: Array<[string, string, number, string]> = [
        ['the media token alone', `/media/${token}/source`, 403, 'media_url_invalid'],
        ['no signature', `/media/${token}/source?expires=${expires}`, 403, 'media_url_invalid'],
        ['another expiry', `/media/${token}/source?expires=${Number(expires) + DAY}&signature=${signature}`, 403, 'media_url_invalid'],
        ['a changed signature', `/media/${token}/source?expires=${expires}&signature=${flipped}`, 403, 'media_url_invalid'],
        ['a token nobody holds, with this signature', `/media/${'U'.repeat(32)}/source?expires=${expires}&signature=${signature}`, 404, 'media_not_found'],
        ['expires not a number', `/media/${token}/source?expires=soon&signature=${signature}`, 400, 'validation_failed'],
        ['a short signature', `/media/${token}/source?expires=${expires}&signature=abc`, 400, 'validation_failed']
      ]
      for (const [what, url, status, code] of rows) {
        const res = await t.app.inject({ method: 'GET', url })
        assert.equal(res.statusCode, status, `${what}: ${res.body}`)
        assert.equal(res.json().code, code, what)
      }
      t.clock.advance(Number(expires) * 1000 - t.clock.now())
      const expired = await t.app.inject({ method: 'GET', url: signed.pathname + signed.search })
      assert.equal(expired.statusCode, 403)
      assert.equal(expired.json().code, 'media_url_expired')
      const fresh = new URL((await sourceUrlAs()).url as string)
      assert.notEqual(fresh.search, signed.search)
      assert.equal((await t.app.inject({ method: 'GET', url: fresh.pathname + fresh.search })).statusCode, 200)
    })

    it('feeds carry the renditions; a source feed behind an access key carries the signed original', async () => {
      const feedOf = async (body: object): Promise<string> => {
        const syndication = (await t.signed('POST', '/v2/syndications', { body })).json()
        let url = pathOf(syndication.feed_url as string)
        if ((body as { require_access_key?: boolean }).require_access_key === true) {
          const key = (await t.signed('POST', `/v2/syndications/${syndication.id as string}/access_keys`)).json().access_key as string
          url += `&access_key=${key}`
        }
        const res = await t.app.inject({ method: 'GET', url })
        assert.equal(res.statusCode, 200, res.body)
        return res.body
      }
      const mrss = await feedOf({ name: 'Open', type: 'mrss' })
      assert.ok(mrss.includes(`/media/${token}/master.m3u8`) && !mrss.includes('/source'), mrss)
      const openSource = await feedOf({ name: 'Open source', type: 'source' })
      assert.ok(!openSource.includes('/source'), openSource)
      const lockedSource = await feedOf({ name: 'Locked source', type: 'source', require_access_key: true })
      const found = /url="([^"]+\/source\?[^"]+)"/.exec(lockedSource)?.[1]
      assert.ok(found !== undefined, lockedSource)
      const opened = await t.app.inject({ method: 'GET', url: pathOf(found.replaceAll('&amp;', '&')) })
      assert.equal(opened.statusCode, 200)
    })
  })
}
