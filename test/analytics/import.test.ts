import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { EVENT_NAMES, type LineError } from '../../src/analytics/index.ts'
import { chunks, openTestAnalytics, storedCount, STORES, type TestAnalytics } from './support/harness.ts'

// The manual clock reads 2026-11-22T10:00:00Z; imports accept times from 2000-01-01 to ten minutes ahead.
const line = (extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ session_id: 's-1', asset_id: 'asset-1', name: 'display', time: '2019-05-01T12:00:00Z', ...extra })
const ndjson = (...lines: string[]): string => lines.join('\n') + '\n'
const names = EVENT_NAMES.join(', ')

const BAD: Array<{ name: string, body: string | Buffer, message: string, lineErrors: LineError[] }> = [
  { name: 'a line that is not JSON', body: ndjson(line(), '{"name":', line()), message: '1 of 3 lines are invalid; nothing was imported.', lineErrors: [{ line: 2, message: 'line is not valid JSON.' }] },
  { name: 'a line that is an array', body: ndjson(line(), '[1]'), message: '1 of 2 lines are invalid; nothing was imported.', lineErrors: [{ line: 2, message: 'line must be a JSON object.' }] },
  { name: 'an unknown event name', body: ndjson(line({ name: 'click' })), message: '1 of 1 lines are invalid; nothing was imported.', lineErrors: [{ line: 1, message: `name must be one of ${names}.` }] },
  { name: 'a line without session_id', body: ndjson(line(), line({ session_id: undefined })), message: '1 of 2 lines are invalid; nothing was imported.', lineErrors: [{ line: 2, message: 'session_id is required.' }] },
  { name: 'a time before 2000', body: ndjson(line({ time: '1999-12-31T23:59:59Z' })), message: '1 of 1 lines are invalid; nothing was imported.', lineErrors: [{ line: 1, message: 'time is outside the accepted window (2000-01-01 to 10 minutes after the server time).' }] },
  { name: 'a time in the future', body: ndjson(line({ time: '2026-11-23T00:00:00Z' })), message: '1 of 1 lines are invalid; nothing was imported.', lineErrors: [{ line: 1, message: 'time is outside the accepted window (2000-01-01 to 10 minutes after the server time).' }] },
  { name: 'a time in epoch seconds', body: ndjson(line(), line({ time: 1795341000 })), message: '1 of 2 lines are invalid; nothing was imported.', lineErrors: [{ line: 2, message: 'time must be milliseconds since the Unix epoch; this looks like seconds (in milliseconds: 1795341000000).' }] },
  { name: 'an unknown asset', body: ndjson(line(), line({ asset_id: 'asset-9' })), message: '1 of 2 lines are invalid; nothing was imported.', lineErrors: [{ line: 2, message: "asset_id 'asset-9' does not exist." }] },
  { name: 'an ip that is not an address', body: ndjson(line({ ip: '300.1.1.1' })), message: '1 of 1 lines are invalid; nothing was imported.', lineErrors: [{ line: 1, message: 'ip must be an IPv4 or IPv6 address.' }] },
  { name: 'bytes that are not UTF-8', body: Buffer.concat([Buffer.from(line() + '\n{"name":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}\n')]), message: '1 of 2 lines are invalid; nothing was imported.', lineErrors: [{ line: 2, message: 'line is not valid UTF-8.' }] },
  { name: 'a line over 64 KiB', body: ndjson(line({ padding: 'x'.repeat(70_000) }), line()), message: '1 of 2 lines are invalid; nothing was imported.', lineErrors: [{ line: 1, message: 'line is longer than 65536 bytes.' }] },
  {
    name: 'several problems on several lines (blank lines keep their number)',
    body: ndjson('{"name":"x"}', '', line({ name: 'playthrough', percent: 10 })),
    message: '2 of 2 lines are invalid; nothing was imported.',
    lineErrors: [
      { line: 1, message: 'session_id is required.' }, { line: 1, message: 'asset_id is required.' },
      { line: 1, message: `name must be one of ${names}.` }, { line: 1, message: 'time must be an ISO 8601 time with a time zone or integer epoch milliseconds.' },
      { line: 3, message: 'percent must be 25, 50, 75 or 100.' }
    ]
  }
]

for (const store of STORES) {
  describe(`POST /v2/analytics/events/import on ${store.name}`, { skip: store.skip }, () => {
    let t: TestAnalytics
    before(async () => { t = await openTestAnalytics(store.name) })
    after(async () => { await t?.close() })

    for (const row of BAD) {
      it(`refuses ${row.name}, lists the line errors and stores nothing`, async () => {
        const errors: Record<string, string[]> = {}
        for (const e of row.lineErrors) (errors[`line ${e.line}`] ??= []).push(e.message)
        await assert.rejects(t.analytics.importEvents('acc-a', chunks(row.body, 5)), { name: 'ApiError', status: 400, code: 'validation_failed', message: row.message, extras: { errors, line_errors: row.lineErrors } })
        assert.equal(await storedCount(t.analytics), 0)
      })
    }

    it('refuses an import with no events and a malformed import id', async () => {
      await assert.rejects(t.analytics.importEvents('acc-a', ['\n', '  \r\n']), { code: 'validation_failed', message: 'The import holds no events.' })
      await assert.rejects(t.analytics.importEvents('acc-a', [line()], { importId: 'has space' }),
        { code: 'validation_failed', message: "import_id must be 1 to 128 letters, digits, '.', '_', ':' or '-'." })
      assert.equal(await storedCount(t.analytics), 0)
    })

    it('rolls back rows already written when a late line fails', async () => {
      const lines = Array.from({ length: 12_000 }, (_, i) => line({ session_id: `s-${i}` }))
      lines.push(line({ name: 'nope' }))
      await assert.rejects(t.analytics.importEvents('acc-a', chunks(ndjson(...lines), 65_536)), { message: '1 of 12001 lines are invalid; nothing was imported.' })
      assert.equal(await storedCount(t.analytics), 0)
    })

    it('stores nothing when the check before the commit fails (a signature found wrong at the end)', async () => {
      await assert.rejects(t.analytics.importEvents('acc-a', chunks(ndjson(line(), line())), {
        beforeCommit: () => { throw new Error('Invalid signature.') }
      }), /Invalid signature/)
      assert.equal(await storedCount(t.analytics), 0)
    })

    it('imports valid NDJSON years back, once per import id', async () => {
      const body = ndjson(line(), line({ name: 'play_requested', device: { id: 'tv-1' } }), line({ name: 'time_watched', value: 1234, time: Date.parse('2019-05-01T12:01:00Z') }))
      const first = await t.analytics.importEvents('acc-a', chunks(body, 3), { importId: 'backfill-2019-05' })
      assert.deepEqual(first, { import_id: 'backfill-2019-05', imported: 3, duplicate: false })
      const again = await t.analytics.importEvents('acc-a', chunks(body), { importId: 'backfill-2019-05' })
      assert.deepEqual(again, { import_id: 'backfill-2019-05', imported: 0, duplicate: true })
      assert.equal(await storedCount(t.analytics), 3)
      const report = await t.analytics.report('acc-a', { start_date: '2019-05-01', end_date: '2019-05-02', metrics: 'displays,plays_requested,time_watched,uniq_plays_requested' })
      assert.deepEqual(report.results[0].data, [{ group: {}, metrics: { displays: 1, plays_requested: 1, time_watched: 1234, uniq_plays_requested: 1 } }])
    })
  })
}
