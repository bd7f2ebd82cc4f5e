import assert from 'node:assert/strict'
import type { LightMyRequestResponse } from 'fastify'
import { Readable } from 'node:stream'
import { after, before, describe, it } from 'node:test'
import { snapshot, type TestApp } from '../../support/app.ts'
import { databaseBackends } from '../../support/backends.ts'
import { PUBLIC_API_URL, uploadApp } from '../uploads/support.ts'

const TUS = { 'tus-resumable': '1.0.0' }
const TABLES = ['direct_uploads', 'direct_upload_parts', 'assets', 'media_uploads', 'media_jobs']

/**
 * Every refusal of direct uploads and of their tus URLs, each with its exact status and code and
 * nothing written; a creator demoted before completion leaves no asset.
 */
for (const backend of databaseBackends()) {
  describe(`direct uploads refuse bad input (${backend.name})`, { skip: backend.skip }, () => {
    let t: TestApp
    before(async () => { t = await uploadApp(backend.name, 'file') })
    after(async () => { await t?.close() })

    const pathOf = (url: string): string => {
      assert.ok(url.startsWith(`${PUBLIC_API_URL}/`), url)
      return new URL(url).pathname
    }
    const tus = async (method: string, url: string, headers: Record<string, string> = {}, payload?: Buffer | Readable): Promise<LightMyRequestResponse> =>
      await t.app.inject({ method: method as 'POST', url: pathOf(url), headers: { ...TUS, ...headers }, ...(payload === undefined ? {} : { payload }) })
    const create = async (body: object = { new_asset_settings: { name: 'Clip' } }, as = t.admin): Promise<any> => {
      const res = await t.signed('POST', '/v2/direct_uploads', { as, body })
      assert.equal(res.statusCode, 200, res.body)
      return res.json()
    }
    const refused = (res: LightMyRequestResponse, status: number, code: string): void => {
      assert.equal(res.statusCode, status, res.body)
      if (res.body !== '') assert.equal(res.json().code, code, res.body)
    }
    const unchanged = async (work: () => Promise<void>): Promise<void> => {
      const before = await snapshot(t.ctx, TABLES)
      await work()
      assert.deepEqual(await snapshot(t.ctx, TABLES), before)
    }

    it('refuses bad creation bodies, naming the field', async () => {
      await unchanged(async () => {
        for (const [body, field] of [
          [{ new_asset_settings: { name: 'x' }, timeout: 59 }, 'timeout'],
          [{ new_asset_settings: { name: 'x' }, timeout: 604_801 }, 'timeout'],
          [{ new_asset_settings: {} }, 'new_asset_settings'],
          [{ new_asset_settings: { name: 'x' }, cors_origin: 'https://a.example/path' }, 'cors_origin'],
          [{ new_asset_settings: { name: 'x' }, cors_origin: 'https://a.example\u0007' }, 'cors_origin'],
          [{ new_asset_settings: { name: 'x' }, cors_origin: 'https://a.exa\u0000mple' }, 'cors_origin'],
          [{ new_asset_settings: { name: 'x' }, cors_origin: 'https://a.example\u007f' }, 'cors_origin'],
          [{ new_asset_settings: { name: 'x', player_id: 'nope' } }, 'new_asset_settings']
        ] as const) {
          const res = await t.signed('POST', '/v2/direct_uploads', { body })
          assert.equal(res.statusCode, 400, res.body)
          assert.ok(Object.keys(res.json().errors ?? {}).some((key) => key.includes(field)), `${field}: ${res.body}`)
          if (field === 'cors_origin') assert.match(res.body, /must be an origin: http\(s\), a host and a port, nothing after them/)
        }
        const reader = await t.userWithRole('read_only')
        refused(await t.signed('POST', '/v2/direct_uploads', { as: reader, body: { new_asset_settings: { name: 'x' } } }), 403, 'permission_denied')
      })
    })

    it('answers each bad tus request as the protocol says, with our error body', async () => {
      const direct = await create({ new_asset_settings: { name: 'Clip' }, cors_origin: 'https://app.example' })
      const url = direct.url as string
      await unchanged(async () => {
        // Not a tus request, a changed token, a wrong origin, a deferred length.
        refused(await t.app.inject({ method: 'POST', url: pathOf(url), headers: { 'upload-length': '10' } }), 412, 'tus_version_required')
        refused(await tus('POST', url.slice(0, -3) + 'AAA', { 'upload-length': '10' }), 404, 'direct_upload_not_found')
        refused(await tus('POST', url, { 'upload-length': '10', origin: 'https://evil.example' }), 403, 'tus_origin_not_allowed')
        refused(await tus('OPTIONS', url, { origin: 'https://evil.example', 'access-control-request-method': 'POST' }), 403, 'tus_origin_not_allowed')
        refused(await tus('POST', url, { 'upload-defer-length': '1' }), 400, 'tus_request_invalid')
        // A body longer than Upload-Length on creation-with-upload stores nothing.
        refused(await tus('POST', url, { 'upload-length': '4', 'content-type': 'application/offset+octet-stream' }, Buffer.from('123456')), 413, 'tus_body_too_large')
      })
      assert.equal((await tus('POST', url, { 'upload-length': '4' })).statusCode, 201)
      const state = (await t.signed('GET', `/v2/direct_uploads/${direct.id as string}`)).json()
      assert.equal(state.upload_offset, 0)
      const uploadUrl = state.upload_url as string
      assert.ok(uploadUrl.startsWith(url + '/'), uploadUrl)
      refused(await tus('POST', url, { 'upload-length': '10' }), 409, 'direct_upload_used')
      // The right origin gets CORS for itself alone.
      const preflight = await tus('OPTIONS', uploadUrl, { origin: 'https://app.example', 'access-control-request-method': 'PATCH' })
      assert.deepEqual([preflight.statusCode, preflight.headers['access-control-allow-origin']], [204, 'https://app.example'])
      const patch = (offset: number, body: Buffer) => tus('PATCH', uploadUrl, { 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' }, body)
      await unchanged(async () => {
        refused(await patch(2, Buffer.from('ab')), 409, 'tus_offset_mismatch')
        refused(await patch(0, Buffer.from('abcdef')), 413, 'tus_body_too_large')
        // The same without Content-Length (chunked): refused once the bytes pass Upload-Length.
        refused(await tus('PATCH', uploadUrl, { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, Readable.from([Buffer.from('abc'), Buffer.from('def')])), 413, 'tus_body_too_large')
        refused(await tus('PATCH', uploadUrl, { 'upload-offset': '0' }, Buffer.from('ab')), 415, 'tus_content_type_invalid')
        refused(await tus('GET', uploadUrl), 405, 'method_not_allowed')
        refused(await tus('HEAD', uploadUrl.slice(0, -4) + '0000'), 404, 'tus_upload_not_found')
      })
      const head = await tus('HEAD', uploadUrl)
      assert.deepEqual([head.statusCode, head.headers['upload-offset'], head.headers['upload-length'], head.headers['tus-resumable']], [200, '0', '4', '1.0.0'])
      assert.ok(head.headers['x-request-id'] !== undefined)

      // Cancelled: every tus URL of it is gone, and cancelling again answers the same.
      assert.equal((await t.signed('PUT', `/v2/direct_uploads/${direct.id as string}/cancel`)).json().status, 'cancelled')
      await unchanged(async () => {
        refused(await tus('HEAD', uploadUrl), 410, 'tus_upload_gone')
        refused(await patch(0, Buffer.from('ab')), 410, 'tus_upload_gone')
        refused(await tus('POST', url, { 'upload-length': '10' }), 410, 'tus_upload_gone')
      })
    })

    it('ends an expired direct upload: its URLs answer 410', async () => {
      const direct = await create({ new_asset_settings: { name: 'Clip' }, timeout: 60 })
      t.clock.advance(61_000)
      refused(await tus('POST', direct.url as string, { 'upload-length': '10' }), 410, 'tus_upload_gone')
      assert.equal((await t.signed('GET', `/v2/direct_uploads/${direct.id as string}`)).json().status, 'timed_out')
    })

    it('makes no asset when the creator was demoted to read_only before completion', async () => {
      const manager = await t.userWithRole('manager')
      const direct = await create({ new_asset_settings: { name: 'Clip' } }, manager)
      const created = await tus('POST', direct.url as string, { 'upload-length': '3' })
      assert.equal(created.statusCode, 201, created.body)
      const location = created.headers.location as string
      assert.ok(location.startsWith(`${PUBLIC_API_URL}/v2/tus/`), location)
      const demoted = await t.signed('PATCH', `/v2/users/${manager.userId}`, { body: { role: 'read_only' } })
      assert.equal(demoted.statusCode, 200, demoted.body)
      const assetsBefore = await snapshot(t.ctx, ['assets'])
      const last = await tus('PATCH', location, { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, Buffer.from('abc'))
      refused(last, 403, 'direct_upload_creator_revoked')
      assert.deepEqual(await snapshot(t.ctx, ['assets']), assetsBefore)
      const state = (await t.signed('GET', `/v2/direct_uploads/${direct.id as string}`)).json()
      assert.deepEqual([state.status, state.asset_id], ['cancelled', null])
    })
  })
}
