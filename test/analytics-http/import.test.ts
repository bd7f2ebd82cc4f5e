import assert from 'node:assert/strict'
import { PassThrough, Readable } from 'node:stream'
import { after, afterEach, before, beforeEach, describe, it } from 'node:test'
import { MAX_IMPORT_BYTES } from '../../src/analytics/http/index.ts'
import { signedPath } from '../../src/signing/index.ts'
import type { Caller } from '../support/app.ts'
import { analyticsCombos, buildAnalyticsApp, totals, type AnalyticsTestApp } from './support/harness.ts'

const PATH = '/v2/analytics/events/import'
const line = (asset: string, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ session_id: 's-1', asset_id: asset, name: 'display', time: '2025-05-01T12:00:00Z', ...extra })
const ndjson = (...lines: string[]): string => lines.join('\n') + '\n'
const MAY = { start_date: '2025-05-01', end_date: '2025-05-02', metrics: 'displays' }

/** The signed URL for `body`, sent as a stream of small chunks (or as given). */
function importRequest (t: AnalyticsTestApp, body: string | Buffer, options: { as?: Caller, params?: Record<string, string>, signedBody?: string, stream?: Readable } = {}) {
  const caller = options.as ?? t.admin
  const url = signedPath({
    apiKey: caller.apiKey, secret: caller.secret, method: 'POST', path: PATH, params: options.params,
    body: options.signedBody ?? body, expires: Math.floor(t.clock.now() / 1000) + 600
  })
  const payload = options.stream ?? Readable.from(chunksOf(Buffer.from(body), 1000))
  return t.app.inject({ method: 'POST', url, payload, headers: { 'content-type': 'application/x-ndjson' } })
}

function * chunksOf (bytes: Buffer, size: number): Generator<Buffer> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size)
}

for (const combo of analyticsCombos()) {
  describe(`POST ${PATH}, ${combo.name}`, { skip: combo.skip }, () => {
    let t: AnalyticsTestApp
    let asset: string
    // A JSON body limit far below the import: the route must stream, not buffer under BODY_LIMIT_BYTES.
    beforeEach(async () => {
      t = await buildAnalyticsApp(combo, { BODY_LIMIT_BYTES: '1024' })
      asset = await t.asset()
    })
    afterEach(async () => { await t.close() })

    it('streams a body larger than the JSON body limit into the store and answers the import result', async () => {
      const lines = Array.from({ length: 300 }, (_, i) => line(asset, { session_id: `s-${i}` }))
      const body = ndjson(...lines)
      assert.ok(body.length > 20 * 1024)
      const res = await importRequest(t, body, { params: { import_id: 'may-2025' } })
      assert.equal(res.statusCode, 200, res.body)
      assert.deepEqual(res.json(), { import_id: 'may-2025', imported: 300, duplicate: false })
      assert.deepEqual(totals(await t.report(MAY)), { displays: 300 })

      const again = await importRequest(t, body, { params: { import_id: 'may-2025' } })
      assert.deepEqual(again.json(), { import_id: 'may-2025', imported: 0, duplicate: true })
      assert.equal(await t.stored(), 300)
    })

    it('charges the account one credit once the signature is proven', async () => {
      const before = Number((await t.signed('GET', '/v2/remaining_credits_and_reset_time')).json().remaining_credits)
      const res = await importRequest(t, ndjson(line(asset)))
      assert.equal(res.statusCode, 200, res.body)
      assert.equal(Number(res.headers['x-ratelimit-credits']), before - 1)
    })

    it('stores nothing for a wrong signature, charges the client address and not the account', async () => {
      const body = ndjson(line(asset), line(asset))
      const res = await importRequest(t, body, { signedBody: ndjson(line(asset)) })
      assert.equal(res.statusCode, 401)
      assert.equal(res.json().message, 'Invalid signature.')
      assert.equal(await t.stored(), 0)
      const balance = (await t.signed('GET', '/v2/remaining_credits_and_reset_time')).json().remaining_credits
      assert.equal(balance, 1000 - 1) // only the asset creation
    })

    it('answers 401, not the line report, when the lines are bad and the signature is wrong', async () => {
      const body = ndjson(line(asset), line('no-such-asset'))
      const res = await importRequest(t, body, { signedBody: ndjson(line(asset)) })
      assert.equal(res.statusCode, 401)
      assert.equal(res.json().message, 'Invalid signature.')
      assert.equal(res.json().line_errors, undefined)
    })

    it("refuses another account's asset ids with a per-line report and stores nothing", async () => {
      const other = await t.otherAccount()
      const theirs = await t.asset(other)
      const res = await importRequest(t, ndjson(line(asset), line(theirs), line(asset)))
      assert.equal(res.statusCode, 400)
      assert.deepEqual(res.json().line_errors, [{ line: 2, message: `asset_id '${theirs}' does not exist.` }])
      assert.equal(await t.stored(), 0)
      // Imported by their own administrator, the same line is accepted and lands in their account only.
      const own = await importRequest(t, ndjson(line(theirs)), { as: other })
      assert.equal(own.statusCode, 200, own.body)
      assert.equal(await t.stored(other.accountId), 1)
      assert.equal(await t.stored(t.admin.accountId), 0)
    })

    const BAD: Array<{ name: string, body: () => string | Buffer, params?: Record<string, string>, status: number, message: string, lineErrors?: unknown }> = [
      { name: 'a line that is not JSON', body: () => ndjson(line(asset), '{"name":'), status: 400, message: '1 of 2 lines are invalid; nothing was imported.', lineErrors: [{ line: 2, message: 'line is not valid JSON.' }] },
      { name: 'an unknown event name', body: () => ndjson(line(asset, { name: 'click' })), status: 400, message: '1 of 1 lines are invalid; nothing was imported.' },
      { name: 'a time in the future', body: () => ndjson(line(asset, { time: '2026-11-23T00:00:00Z' })), status: 400, message: '1 of 1 lines are invalid; nothing was imported.', lineErrors: [{ line: 1, message: 'time is outside the accepted window (2000-01-01 to 10 minutes after the server time).' }] },
      { name: 'an unknown asset', body: () => ndjson(line('nope')), status: 400, message: '1 of 1 lines are invalid; nothing was imported.', lineErrors: [{ line: 1, message: "asset_id 'nope' does not exist." }] },
      { name: 'an empty body', body: () => '', status: 400, message: 'The import holds no events.' },
      { name: 'only blank lines', body: () => '\n\r\n \n', status: 400, message: 'The import holds no events.' },
      { name: 'a malformed import_id', body: () => ndjson(line(asset)), params: { import_id: 'has space' }, status: 400, message: "import_id must be 1 to 128 letters, digits, '.', '_', ':' or '-'." }
    ]
    for (const row of BAD) {
      it(`answers ${row.status} to ${row.name} and stores nothing`, async () => {
        const res = await importRequest(t, row.body(), { params: row.params })
        assert.equal(res.statusCode, row.status, res.body)
        assert.equal(res.json().message, row.message)
        if (row.lineErrors !== undefined) assert.deepEqual(res.json().line_errors, row.lineErrors)
        assert.equal(await t.stored(), 0)
      })
    }

    it('refuses missing signing parameters and an expired request before reading the body', async () => {
      const missing = await t.app.inject({ method: 'POST', url: PATH, payload: ndjson(line(asset)) })
      assert.deepEqual([missing.statusCode, missing.json().message], [400, 'These parameters are missing: api_key, signature, expires.'])
      const url = signedPath({ apiKey: t.admin.apiKey, secret: t.admin.secret, method: 'POST', path: PATH, body: ndjson(line(asset)), expires: Math.floor(t.clock.now() / 1000) - 1 })
      const expired = await t.app.inject({ method: 'POST', url, payload: ndjson(line(asset)) })
      assert.deepEqual([expired.statusCode, expired.json().message], [401, 'Request expired.'])
      assert.equal(await t.stored(), 0)
    })
  })
}

// The role matrix needs one store only: the refusal happens before the body or the store is touched.
describe(`POST ${PATH}: roles`, () => {
  let t: AnalyticsTestApp
  let asset: string
  before(async () => {
    t = await buildAnalyticsApp(analyticsCombos()[0])
    asset = await t.asset()
  })
  after(async () => { await t.close() })

  for (const role of ['manager', 'upload_only', 'analytics_only', 'read_only'] as const) {
    it(`refuses ${role} with 403 before reading the body`, async () => {
      const user = await t.userWithRole(role)
      // A body that never ends: the answer can only come before it is read.
      const stream = new PassThrough()
      stream.write(line(asset) + '\n')
      const res = await importRequest(t, ndjson(line(asset)), { as: user, stream })
      stream.destroy()
      assert.equal(res.statusCode, 403)
      assert.equal(res.json().message, `Role ${role} may not import analytics.`)
      assert.equal(await t.stored(), 0)
    })
  }

  it('refuses a body declared larger than 64 MiB with 413 before reading it', async () => {
    const stream = new PassThrough()
    stream.write(line(asset) + '\n')
    const url = signedPath({ apiKey: t.admin.apiKey, secret: t.admin.secret, method: 'POST', path: PATH, expires: Math.floor(t.clock.now() / 1000) + 600 })
    const res = await t.app.inject({ method: 'POST', url, payload: stream, headers: { 'content-type': 'application/x-ndjson', 'content-length': String(MAX_IMPORT_BYTES + 1) } })
    stream.destroy()
    assert.deepEqual([res.statusCode, res.json().message], [413, 'Request body is larger than 67108864 bytes.'])
  })

  it('stops reading a streamed body at 64 MiB and answers 413, storing nothing', async () => {
    // One endless line: cheap to pass through (it is only counted), so the test measures the limit, not parsing.
    const mib = Buffer.alloc(1024 * 1024, 'x')
    const res = await importRequest(t, '', { stream: Readable.from((function * () { for (let i = 0; i < 65; i++) yield mib })()) })
    assert.deepEqual([res.statusCode, res.json().message], [413, 'Request body is larger than 67108864 bytes.'])
    assert.equal(res.headers.connection, 'close')
    assert.equal(await t.stored(), 0)
  })

  it('lets an administrator import', async () => {
    const res = await importRequest(t, ndjson(line(asset)))
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.json().imported, 1)
  })
})
