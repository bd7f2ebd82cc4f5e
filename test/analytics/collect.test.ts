import assert from 'node:assert/strict'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { EVENT_NAMES, type CollectContext } from '../../src/analytics/index.ts'
import { openTestAnalytics, storedCount, type TestAnalytics } from './support/harness.ts'

// The manual clock reads 2026-11-22T10:00:00Z.
const NOW = '2026-11-22T09:59:00Z'
const base = { account_code: 'code-a', session_id: 's-1', asset_id: 'asset-1' }
const ev = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({ name: 'display', time: NOW, ...extra })
const names = EVENT_NAMES.join(', ')

const BAD: Array<{ name: string, body: unknown, context?: CollectContext, code: string, status: number, message: string }> = [
  { name: 'a JSON array', body: [], code: 'bad_request', status: 400, message: 'The body must be a JSON object.' },
  { name: 'raw text that is not JSON', body: '{"account_code":', code: 'body_malformed', status: 400, message: 'The body is not valid JSON.' },
  { name: 'a raw body over 1 MiB', body: Buffer.alloc(1024 * 1024 + 1, 32), code: 'body_too_large', status: 413, message: 'The batch is larger than 1 MiB (1048576 bytes).' },
  { name: 'a parsed body said to be over 1 MiB', body: { ...base, events: [ev()] }, context: { bodyBytes: 2 * 1024 * 1024 }, code: 'body_too_large', status: 413, message: 'The batch is larger than 1 MiB (1048576 bytes).' },
  { name: 'no account_code', body: { session_id: 's', asset_id: 'asset-1', events: [ev()] }, code: 'validation_failed', status: 400, message: 'account_code is required.' },
  { name: 'a numeric account_code', body: { ...base, account_code: 12, events: [ev()] }, code: 'validation_failed', status: 400, message: 'account_code must be a non-empty string of at most 128 characters.' },
  { name: 'an unknown account', body: { ...base, account_code: 'nope', events: [ev()] }, code: 'validation_failed', status: 400, message: "Unknown account_code 'nope'." },
  { name: "an asset of no account's", body: { ...base, asset_id: 'asset-9', events: [ev()] }, code: 'validation_failed', status: 400, message: "Unknown asset_id 'asset-9'." },
  { name: "another account's asset", body: { ...base, account_code: 'code-b', asset_id: 'asset-2', events: [ev()] }, code: 'validation_failed', status: 400, message: "Unknown asset_id 'asset-2'." },
  { name: 'no session_id', body: { account_code: 'code-a', asset_id: 'asset-1', events: [ev()] }, code: 'validation_failed', status: 400, message: 'session_id is required.' },
  { name: 'an asset_id of 129 characters', body: { ...base, asset_id: 'a'.repeat(129), events: [ev()] }, code: 'validation_failed', status: 400, message: 'asset_id must be a non-empty string of at most 128 characters.' },
  { name: 'an empty player_id', body: { ...base, player_id: '', events: [ev()] }, code: 'validation_failed', status: 400, message: 'player_id must be a non-empty string of at most 128 characters.' },
  { name: 'device as a string', body: { ...base, device: 'tv', events: [ev()] }, code: 'validation_failed', status: 400, message: 'device must be an object.' },
  { name: 'a numeric device.id', body: { ...base, device: { id: 7 }, events: [ev()] }, code: 'validation_failed', status: 400, message: 'device.id must be a non-empty string of at most 128 characters.' },
  { name: 'a numeric user agent', body: { ...base, device: { user_agent: 5 }, events: [ev()] }, code: 'validation_failed', status: 400, message: 'device.user_agent must be a string of at most 1024 characters.' },
  { name: 'a domain with a space', body: { ...base, domain: 'bad domain', events: [ev()] }, code: 'validation_failed', status: 400, message: 'domain must be a host name.' },
  { name: 'an ftp page_url', body: { ...base, page_url: 'ftp://example.com/x', events: [ev()] }, code: 'validation_failed', status: 400, message: 'page_url must be an absolute http(s) URL.' },
  { name: 'a three-letter batch country', body: { ...base, country: 'USA', events: [ev()] }, code: 'validation_failed', status: 400, message: 'country must be a two-letter ISO 3166 country code.' },
  { name: 'no events', body: { ...base }, code: 'validation_failed', status: 400, message: 'events must be an array of 1 to 1000 events.' },
  { name: 'an empty events list', body: { ...base, events: [] }, code: 'validation_failed', status: 400, message: 'events must be an array of 1 to 1000 events.' },
  { name: '1,001 events', body: { ...base, events: Array.from({ length: 1001 }, () => ev()) }, code: 'validation_failed', status: 400, message: 'events must be an array of 1 to 1000 events.' },
  { name: 'an event that is a string', body: { ...base, events: [ev(), 'display'] }, code: 'validation_failed', status: 400, message: 'events[1] must be an object.' },
  { name: 'an unknown event name', body: { ...base, events: [ev({ name: 'click' })] }, code: 'validation_failed', status: 400, message: `events[0].name must be one of ${names}.` },
  { name: 'a camelCase (IQ) event name', body: { ...base, events: [ev(), ev(), ev({ name: 'playRequested' })] }, code: 'validation_failed', status: 400, message: `events[2].name must be one of ${names}.` },
  { name: 'a time in words', body: { ...base, events: [ev({ time: 'yesterday' })] }, code: 'validation_failed', status: 400, message: 'events[0].time must be an ISO 8601 time with a time zone or integer epoch milliseconds.' },
  { name: 'a time without a zone', body: { ...base, events: [ev({ time: '2026-11-22T09:00:00' })] }, code: 'validation_failed', status: 400, message: 'events[0].time must be an ISO 8601 time with a time zone or integer epoch milliseconds.' },
  { name: 'fractional epoch milliseconds', body: { ...base, events: [ev({ time: 1795341600000.5 })] }, code: 'validation_failed', status: 400, message: 'events[0].time must be an ISO 8601 time with a time zone or integer epoch milliseconds.' },
  { name: 'a time 8 days old', body: { ...base, events: [ev({ time: '2026-11-14T09:59:59Z' })] }, code: 'validation_failed', status: 400, message: 'events[0].time is outside the accepted window (7 days before to 10 minutes after the server time).' },
  { name: 'a time 11 minutes ahead', body: { ...base, events: [ev({ time: '2026-11-22T10:11:00Z' })] }, code: 'validation_failed', status: 400, message: 'events[0].time is outside the accepted window (7 days before to 10 minutes after the server time).' },
  { name: 'epoch seconds', body: { ...base, events: [ev({ time: 1795341600 })] }, code: 'validation_failed', status: 400, message: 'events[0].time must be milliseconds since the Unix epoch; this looks like seconds (in milliseconds: 1795341600000).' },
  { name: 'fractional epoch seconds (Date.now() / 1000)', body: { ...base, events: [ev({ time: 1795341600.25 })] }, code: 'validation_failed', status: 400, message: 'events[0].time must be milliseconds since the Unix epoch; this looks like seconds (in milliseconds: 1795341600250).' },
  { name: 'epoch milliseconds of 1970', body: { ...base, events: [ev({ time: 1 })] }, code: 'validation_failed', status: 400, message: 'events[0].time must be milliseconds since the Unix epoch; this looks like seconds (in milliseconds: 1000).' },
  { name: 'a playthrough of 30 %', body: { ...base, events: [ev({ name: 'playthrough', percent: 30 })] }, code: 'validation_failed', status: 400, message: 'events[0].percent must be 25, 50, 75 or 100.' },
  { name: 'a playthrough without percent', body: { ...base, events: [ev({ name: 'playthrough' })] }, code: 'validation_failed', status: 400, message: 'events[0].percent must be 25, 50, 75 or 100.' },
  { name: 'negative time watched', body: { ...base, events: [ev({ name: 'time_watched', value: -1 })] }, code: 'validation_failed', status: 400, message: 'events[0].value must be an integer number of milliseconds from 0 to 86400000.' },
  { name: 'fractional time watched', body: { ...base, events: [ev({ name: 'time_watched', value: 1.5 })] }, code: 'validation_failed', status: 400, message: 'events[0].value must be an integer number of milliseconds from 0 to 86400000.' },
  { name: 'time watched as text', body: { ...base, events: [ev({ name: 'time_watched', value: '100' })] }, code: 'validation_failed', status: 400, message: 'events[0].value must be an integer number of milliseconds from 0 to 86400000.' },
  { name: 'a video_start with a negative startup_ms', body: { ...base, events: [ev({ name: 'video_start', startup_ms: -1 })] }, code: 'validation_failed', status: 400, message: 'events[0].startup_ms must be an integer number of milliseconds from 0 to 600000.' },
  { name: 'a video_start with startup_ms over 10 minutes', body: { ...base, events: [ev({ name: 'video_start', startup_ms: 600001 })] }, code: 'validation_failed', status: 400, message: 'events[0].startup_ms must be an integer number of milliseconds from 0 to 600000.' },
  { name: 'a rebuffer_end without duration_ms', body: { ...base, events: [ev({ name: 'rebuffer_end' })] }, code: 'validation_failed', status: 400, message: 'events[0].duration_ms must be an integer number of milliseconds from 0 to 3600000.' },
  { name: 'a rebuffer_end of over an hour', body: { ...base, events: [ev({ name: 'rebuffer_end', duration_ms: 3600001 })] }, code: 'validation_failed', status: 400, message: 'events[0].duration_ms must be an integer number of milliseconds from 0 to 3600000.' },
  { name: 'a rebuffer_end of fractional milliseconds', body: { ...base, events: [ev({ name: 'rebuffer_end', duration_ms: 1.5 })] }, code: 'validation_failed', status: 400, message: 'events[0].duration_ms must be an integer number of milliseconds from 0 to 3600000.' },
  { name: 'a rendition_change without a bit rate', body: { ...base, events: [ev({ name: 'rendition_change', height: 720 })] }, code: 'validation_failed', status: 400, message: 'events[0].bitrate must be an integer number of bits per second from 1 to 1000000000.' },
  { name: 'a rendition_change of height 0', body: { ...base, events: [ev({ name: 'rendition_change', height: 0, bitrate: 1000 })] }, code: 'validation_failed', status: 400, message: 'events[0].height must be an integer number of pixels from 1 to 8640.' },
  { name: 'a rendition_change of height 9000', body: { ...base, events: [ev({ name: 'rendition_change', height: 9000, bitrate: 1000 })] }, code: 'validation_failed', status: 400, message: 'events[0].height must be an integer number of pixels from 1 to 8640.' },
  { name: 'an error without fatal', body: { ...base, events: [ev({ name: 'error', code: 'x' })] }, code: 'validation_failed', status: 400, message: 'events[0].fatal must be true or false.' },
  { name: 'an error with fatal as text', body: { ...base, events: [ev({ name: 'error', fatal: 'yes', code: 'x' })] }, code: 'validation_failed', status: 400, message: 'events[0].fatal must be true or false.' },
  { name: 'an error without a code', body: { ...base, events: [ev({ name: 'error', fatal: true })] }, code: 'validation_failed', status: 400, message: 'events[0].code must be an integer or a non-empty string of at most 64 characters.' },
  { name: 'an error code of 65 characters', body: { ...base, events: [ev({ name: 'error', fatal: true, code: 'c'.repeat(65) })] }, code: 'validation_failed', status: 400, message: 'events[0].code must be an integer or a non-empty string of at most 64 characters.' },
  { name: 'an error message of 257 characters', body: { ...base, events: [ev({ name: 'error', fatal: false, code: 1, message: 'm'.repeat(257) })] }, code: 'validation_failed', status: 400, message: 'events[0].message must be a string of at most 256 characters.' },
  { name: 'a heartbeat with a position and no duration', body: { ...base, events: [ev({ name: 'playhead_update', position_ms: 1000 })] }, code: 'validation_failed', status: 400, message: 'events[0].position_ms and events[0].duration_ms come together or not at all.' },
  { name: 'a heartbeat of duration 0', body: { ...base, events: [ev({ name: 'playhead_update', position_ms: 0, duration_ms: 0 })] }, code: 'validation_failed', status: 400, message: 'events[0].duration_ms must be an integer number of milliseconds from 1 to 86400000.' },
  { name: 'an event country of three letters', body: { ...base, events: [ev({ country: 'GBR' })] }, code: 'validation_failed', status: 400, message: 'events[0].country must be a two-letter ISO 3166 country code.' }
]

describe('POST /v2/analytics/events: collection', () => {
  let t: TestAnalytics
  before(async () => { t = await openTestAnalytics('duckdb') })
  after(async () => { await t?.close() })

  for (const row of BAD) {
    it(`refuses ${row.name} with ${row.status} and stores nothing`, async () => {
      await assert.rejects(t.analytics.collect(row.body, row.context), { name: 'ApiError', code: row.code, status: row.status, message: row.message })
      await t.analytics.flush()
      assert.equal(t.analytics.ingestor?.pendingRows, 0)
      assert.equal(await storedCount(t.analytics), 0)
    })
  }

  it('lists every problem of a batch by field, the first as the message', async () => {
    await assert.rejects(t.analytics.collect({ account_code: 'code-a', events: [{ name: 'x', time: 'y' }] }), {
      message: 'session_id is required.',
      extras: {
        errors: {
          session_id: ['session_id is required.'],
          asset_id: ['asset_id is required.'],
          'events[0].name': [`events[0].name must be one of ${names}.`],
          'events[0].time': ['events[0].time must be an ISO 8601 time with a time zone or integer epoch milliseconds.']
        }
      }
    })
  })

  it('accepts a full batch of 1,000 events, journals it before answering, and stores it on flush', async () => {
    const events = Array.from({ length: 1000 }, (_, i) => ev({ time: Date.parse(NOW) - i * 1000 }))
    const body = Buffer.from(JSON.stringify({ ...base, player_id: 'p', device: { id: 'd' }, events, future_field: true }))
    assert.equal(await t.analytics.collect(body, { userAgent: 'curl/8' }), undefined)
    // Accepted means on disk in the spool, whether or not the store has it yet.
    assert.equal(t.analytics.ingestor?.pendingRows, 1000)
    assert.ok(readdirSync(join(t.dir, 'analytics-spool')).some((f) => f.startsWith('segment-')))
    await t.analytics.flush()
    assert.equal(await storedCount(t.analytics), 1000)
  })
})
