import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { databaseBackends } from '../support/backends.ts'
import { type BadInputRow, itAnswersEachRow, LIMIT_MESSAGE, pagingRows } from '../support/bad-input.ts'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { ASSET_TABLES, createVia, remoteAsset, videoAsset } from './support/assets.ts'

const NONE = 'ffffffffffffffffffffffffffffffff'
const STREAM_SCHEMES = 'must be an absolute URL with the scheme http, https, rtmp, rtmps, rtmpe, rtmpt, rtmpte, rtsp, rtsps, mms or mmsh'
const LIVE_ONLY = (from: string, to: string): string => `The asset is ${from}; its status cannot change to ${to} (clients may only switch between live and paused).`

/** `body` and `message` may be functions when they name fixtures made in `before`. */

// Bad-input table (PeerTube's check-params style): each row a request, its exact status and message, and nothing written.
for (const backend of databaseBackends()) {
  describe(`/v2/assets bad input on ${backend.name}`, { skip: backend.skip }, () => {
    let t: TestApp
    let asset: string
    let video: string
    let label: string
    let foreignPlayer: string
    before(async () => {
      t = await buildTestApp(backend.name)
      asset = (await remoteAsset(t, { external_id: 'ext-bad' })).embed_code
      video = (await videoAsset(t)).embed_code
      label = (await createVia(t, '/v2/labels', { name: 'Sports' })).id
      const other = await t.otherAccount()
      foreignPlayer = (await createVia(t, '/v2/players', { name: 'Theirs' }, other)).id
    })
    after(async () => { await t.close() })

    const create = (body: unknown, status: number, message: string, name: string): BadInputRow => ({ name: `create ${name}`, method: 'POST', path: () => '/v2/assets', body, status, message })
    const remote = (fields: Record<string, unknown>): Record<string, unknown> => ({ asset_type: 'remote_asset', name: 'R', ...fields })
    const rows: BadInputRow[] = [
      create({ asset_type: 'remote_asset' }, 400, 'Field name is required.', 'without a name'),
      create({ name: 'x' }, 400, 'Field asset_type is required.', 'without a type'),
      create(remote({ asset_type: 'movie' }), 400, 'Field asset_type must be one of video, audio, ad, remote_asset, youtube, live_stream, channel.', 'with an unknown type'),
      create(remote({ colour: 'red' }), 400, 'Unknown fields: colour.', 'with an unknown field'),
      create(remote({ embed_code: 'x', created_at: 'y' }), 400, 'Unknown fields: created_at, embed_code.', 'with read-only fields'),
      create(remote({ name: 12 }), 400, 'Field name must be a string.', 'with a number as name'),
      create(remote({ name: '' }), 400, 'Field name must not be empty.', 'with an empty name'),
      create(remote({ name: 'x'.repeat(256) }), 400, 'Field name must be at most 255 characters long.', 'with an over-long name'),
      create(remote({ name: 'a\u0007b' }), 400, 'Field name must not contain control characters.', 'with control characters in the name'),
      create(remote({ description: 'a\u0000b' }), 400, 'Field description must not contain control characters other than tabs and line breaks.', 'with NUL in the description'),
      create(remote({ description: 'x'.repeat(8193) }), 400, 'Field description must be at most 8192 characters long.', 'with an over-long description'),
      create(remote({ duration: -1 }), 400, 'Field duration must be at least 0.', 'with a negative duration'),
      create(remote({ duration: '12' }), 400, 'Field duration must be an integer.', 'with a duration as text'),
      create(remote({ duration: 1.5 }), 400, 'Field duration must be an integer.', 'with a fractional duration'),
      create(remote({ external_id: '' }), 400, 'Field external_id must not be empty.', 'with an empty external_id'),
      create(remote({ external_id: 'a\nb' }), 400, 'Field external_id must not contain control characters.', 'with a control character in external_id'),
      create(remote({ external_id: 'ext-bad' }), 409, 'Another asset of this account already has external_id ext-bad.', 'with a taken external_id'),
      create(remote({ preview_image_url: 'javascript:alert(1)' }), 400, 'Field preview_image_url must be an absolute http(s) URL.', 'with a non-http URL'),
      create(remote({ preview_image_url: 'https://cdn.example.com/a\u0001b.jpg' }), 400, 'Field preview_image_url must be an absolute http(s) URL.', 'with a control character in a URL'),
      create(remote({ hosted_at: 'https://www.example.com/final\u007f' }), 400, 'Field hosted_at must be an absolute http(s) URL.', 'with DEL at the end of a URL'),
      create(remote({ closed_captions_url: 'https://cdn.example.com/\u001b[31m.dfxp' }), 400, 'Field closed_captions_url must be an absolute http(s) URL.', 'with an escape sequence in a URL'),
      create(remote({ hosted_at: 'https://www.example.com/\u3000page' }), 400, 'Field hosted_at must be an absolute http(s) URL.', 'with an ideographic space in a URL'),
      create({ asset_type: 'ad', name: 'a', file_name: 'a.mp4', file_size: 1, click_url: 'https://ads.example.com/\u0000' }, 400, 'Field click_url must be an absolute http(s) URL.', 'of an ad with NUL in click_url'),
      create({ asset_type: 'ad', name: 'a', file_name: 'a.mp4', file_size: 1, tracking_pixel_urls: ['https://ads.example.com/p?id=1', 'https://ads.example.com/p\u0008'] }, 400, 'Field tracking_pixel_urls.1 must be an absolute http(s) URL.', 'of an ad with a control character in a tracking pixel URL'),
      create(remote({ stream_urls: { iphone: 'https://media.example.com/clip\u0000.m3u8' } }), 400, `Field stream_urls.iphone ${STREAM_SCHEMES}.`, 'with NUL in a stream URL'),
      create(remote({ stream_urls: { hd: 'https://x/y.mp4' } }), 400, 'Unknown fields: stream_urls.hd.', 'with an unknown stream URL key'),
      create(remote({ stream_urls: 'https://x/y.mp4' }), 400, 'Field stream_urls must be an object.', 'with stream_urls as text'),
      create(remote({ stream_urls: { flash: 'ftp://media.example.com/clip.flv' } }), 400, `Field stream_urls.flash ${STREAM_SCHEMES}.`, 'with an ftp stream URL'),
      create(remote({ stream_urls: { iphone: 'javascript:alert(1)' } }), 400, `Field stream_urls.iphone ${STREAM_SCHEMES}.`, 'with a javascript: stream URL'),
      create(remote({ stream_urls: { flash: 'rtmp:/live.example.com/app' } }), 400, `Field stream_urls.flash ${STREAM_SCHEMES}.`, 'with an RTMP URL missing its //'),
      create(remote({ stream_urls: { smooth: '/clip.ism' } }), 400, `Field stream_urls.smooth ${STREAM_SCHEMES}.`, 'with a relative stream URL'),
      create(remote({ stream_urls: { flash: 'rtmp://live.example.com/app stream' } }), 400, `Field stream_urls.flash ${STREAM_SCHEMES}.`, 'with a space in a stream URL'),
      create(remote({ time_restrictions: { type: 'range', start_date: '2026-12-01T00:00:00Z', end_date: '2026-11-01T00:00:00Z' } }), 400, 'Field time_restrictions.end_date must be later than time_restrictions.start_date.', 'with a time range ending before it starts'),
      create(remote({ time_restrictions: { type: 'recurring', all_day: true } }), 400, 'Field time_restrictions.recurring_days must name at least one day when type is recurring.', 'with a recurring restriction on no day'),
      create(remote({ time_restrictions: { type: 'recurring', recurring_days: ['MON'], start_time: '08:00' } }), 400, 'Field time_restrictions.end_time is required when type is recurring and all_day is false.', 'with a recurring restriction without an end time'),
      create(remote({ time_restrictions: { type: 'recurring', recurring_days: ['MON'], start_time: '25:00:00' } }), 400, 'Field time_restrictions.start_time has an invalid format.', 'with the time 25:00:00'),
      create(remote({ time_restrictions: { time_zone: 'Europe/Atlantis' } }), 400, 'Field time_restrictions.time_zone must be an IANA time zone name, such as Europe/Lisbon.', 'with an unknown time zone'),
      create(remote({ time_restrictions: { type: 'range', start_date: 'tomorrow' } }), 400, 'Field time_restrictions.start_date must be a valid date-time.', 'with a start date that is no date'),
      create(remote({ time_restrictions: { type: 'weekly' } }), 400, 'Field time_restrictions.type must be one of range, recurring.', 'with an unknown restriction type'),
      create(remote({ time_restrictions: { type: 'recurring', recurring_days: ['SUNDAY'] } }), 400, 'Field time_restrictions.recurring_days.0 must be one of monday, tuesday, wednesday, thursday, friday, saturday, sunday, MON, TUE, WED, THU, FRI, SAT, SUN.', 'with an unknown weekday'),
      create(remote({ player_id: NONE }), 400, `Field player_id: player ${NONE} does not exist.`, 'with an unknown player'),
      create(remote({ player_id: '' }), 400, 'Field player_id: player  does not exist.', 'with an empty player id'),
      create(remote({ publishing_rule_id: NONE }), 400, `Field publishing_rule_id: publishing rule ${NONE} does not exist.`, 'with an unknown publishing rule'),
      create(remote({ status: 'processing' }), 409, LIVE_ONLY('live', 'processing'), 'with a status clients may not set'),
      create(remote({ status: 'done' }), 400, 'Field status must be one of uploading, processing, live, paused, error.', 'with an unknown status'),
      create({ asset_type: 'video', name: 'v', file_name: 'v.mp4', file_size: 1, status: 'live' }, 409, LIVE_ONLY('uploading', 'live'), 'of a video that is live at once'),
      create({ asset_type: 'video', name: 'v', file_size: 1 }, 400, 'Field file_name is required for video assets.', 'of a video without file_name'),
      create({ asset_type: 'audio', name: 'v', file_name: 'a.mp3' }, 400, 'Field file_size is required for audio assets.', 'of an audio asset without file_size'),
      create({ asset_type: 'video', name: 'v', file_name: 'zero.mp4', file_size: 0 }, 400, 'Field file_size must be at least 1.', 'of a video of an empty file'),
      create({ asset_type: 'audio', name: 'v', file_name: 'zero.mp3', file_size: '0' }, 400, 'Field file_size must be at least 1.', 'of an audio asset with file_size "0"'),
      create(remote({ file_name: 'x.mp4' }), 400, 'Field file_name applies only to video, audio, ad assets.', 'of a remote asset with file_name'),
      create({ asset_type: 'video', name: 'v', file_name: 'v.mp4', file_size: 1, stream_urls: {} }, 400, 'Field stream_urls is set by processing on video assets and cannot be sent.', 'of a video with stream_urls'),
      create(remote({ click_url: 'https://ads.example.com' }), 400, 'Field click_url applies only to ad assets.', 'of a remote asset with click_url'),
      create({ asset_type: 'youtube', name: 'y' }, 400, 'Field youtube_id is required for youtube assets.', 'of a YouTube asset without youtube_id'),
      create({ asset_type: 'youtube', name: 'y', youtube_id: 'a b' }, 400, 'Field youtube_id has an invalid format.', 'with a malformed youtube_id'),
      create([], 400, 'Request body must be an object.', 'with a JSON array'),
      create('{"name":', 400, 'Request body is not valid JSON.', 'with invalid JSON'),

      { name: 'patch an unknown asset', method: 'PATCH', path: () => '/v2/assets/nope', body: { name: 'x' }, status: 404, message: 'Asset nope does not exist.' },
      { name: 'patch the asset type', method: 'PATCH', path: () => `/v2/assets/${asset}`, body: { asset_type: 'video' }, status: 400, message: 'Field asset_type cannot change (the asset is a remote_asset).' },
      { name: 'patch a preview URL with a control character', method: 'PATCH', path: () => `/v2/assets/${asset}`, body: { preview_image_url: 'https://cdn.example.com/\u001fclip.jpg' }, status: 400, message: 'Field preview_image_url must be an absolute http(s) URL.' },
      { name: 'choose a remote preview URL with a control character', method: 'PUT', path: () => `/v2/assets/${asset}/primary_preview_image`, body: { type: 'remote_url', url: 'https://images.example.com/p\u0007.jpg' }, status: 400, message: 'Field url must be an absolute http(s) URL.' },
      { name: 'patch the name to null', method: 'PATCH', path: () => `/v2/assets/${asset}`, body: { name: null }, status: 400, message: 'Field name must be a string.' },
      { name: 'patch a status to error', method: 'PATCH', path: () => `/v2/assets/${asset}`, body: { status: 'error' }, status: 409, message: LIVE_ONLY('live', 'error') },
      { name: 'patch an uploading video live', method: 'PATCH', path: () => `/v2/assets/${video}`, body: { status: 'live' }, status: 409, message: LIVE_ONLY('uploading', 'live') },
      { name: 'patch a video with file_name', method: 'PATCH', path: () => `/v2/assets/${video}`, body: { file_name: 'b.mp4' }, status: 400, message: 'Unknown fields: file_name.' },
      { name: 'patch a player of another account', method: 'PATCH', path: () => `/v2/assets/${asset}`, body: () => ({ player_id: foreignPlayer }), status: 400, message: () => `Field player_id: player ${foreignPlayer} does not exist.` },
      { name: 'put without a name', method: 'PUT', path: () => `/v2/assets/${asset}`, body: { description: 'x' }, status: 400, message: 'Field name is required.' },
      { name: 'delete an unknown asset', method: 'DELETE', path: () => '/v2/assets/nope', status: 404, message: 'Asset nope does not exist.' },
      { name: 'get a malformed id', method: 'GET', path: () => '/v2/assets/not%20an%20id', status: 404, message: 'Asset not an id does not exist.' },

      ...pagingRows('/v2/assets'),
      { name: 'list with a where missing its value', method: 'GET', path: () => `/v2/assets?where=${encodeURIComponent('name=')}`, status: 400, message: 'Expected a value after \'=\' at position 5.' },
      { name: 'list with OR', method: 'GET', path: () => `/v2/assets?where=${encodeURIComponent('status=\'live\' OR name=\'x\'')}`, status: 400, message: 'OR is not supported (only AND can join clauses) at position 14.' },
      { name: 'list with a dangling AND', method: 'GET', path: () => `/v2/assets?where=${encodeURIComponent('status=\'live\' AND')}`, status: 400, message: 'Expected a field name after AND at position 17.' },
      { name: 'list with an unterminated string', method: 'GET', path: () => `/v2/assets?where=${encodeURIComponent('name=\'abc')}`, status: 400, message: 'Unterminated string starting at position 5.' },
      { name: 'list with an unknown where field', method: 'GET', path: () => `/v2/assets?where=${encodeURIComponent('colour=\'red\'')}`, status: 400, message: 'Unknown field \'colour\' (fields: embed_code, external_id, name, description, transcript, asset_type, status, duration, original_file_name, player_id, publishing_rule_id, created_at, updated_at, time_restrictions.start_date, time_restrictions.end_date, labels, metadata.<name>) at position 0.' },
      { name: 'list with a text duration', method: 'GET', path: () => `/v2/assets?where=${encodeURIComponent('duration>\'long\'')}`, status: 400, message: 'duration takes a number, not \'long\' at position 9.' },
      { name: 'list with an unknown status', method: 'GET', path: () => `/v2/assets?where=${encodeURIComponent('status=\'gone\'')}`, status: 400, message: 'status takes one of uploading, processing, live, paused, error, not \'gone\' at position 7.' },
      { name: 'list ordered by an unknown field', method: 'GET', path: () => '/v2/assets?orderby=colour', status: 400, message: 'Cannot order by \'colour\'; orderby takes one of name, duration, asset_type, created_at, updated_at, optionally followed by ascending or descending.' },
      { name: 'list with an unknown direction', method: 'GET', path: () => '/v2/assets?orderby=name+sideways', status: 400, message: 'Unknown sort direction \'sideways\'; orderby takes one of name, duration, asset_type, created_at, updated_at, optionally followed by ascending or descending.' },
      { name: 'list with an unknown include', method: 'GET', path: () => '/v2/assets?include=thumbnails', status: 400, message: 'Unknown include value \'thumbnails\'; include takes metadata, labels, player.' },
      { name: 'get with an unknown include', method: 'GET', path: () => `/v2/assets/${asset}?include=streams`, status: 400, message: 'Unknown include value \'streams\'; include takes metadata, labels, player.' },
      { name: 'deleted assets with limit 0', method: 'GET', path: () => '/v2/deleted_assets?limit=0', status: 400, message: LIMIT_MESSAGE },
      { name: 'deleted assets with a garbage page token', method: 'GET', path: () => '/v2/deleted_assets?page_token=x.y', status: 400, message: 'Parameter page_token is not a valid page token.' },
      { name: 'assets of an unknown label', method: 'GET', path: () => `/v2/labels/${NONE}/assets`, status: 404, message: `Label ${NONE} does not exist.` },
      { name: 'assets of a label with limit 501', method: 'GET', path: () => `/v2/labels/${label}/assets?limit=501`, status: 400, message: LIMIT_MESSAGE },

      { name: 'metadata with a number value', method: 'PUT', path: () => `/v2/assets/${asset}/metadata`, body: { year: 2004 }, status: 400, message: 'Field year must be a string.' },
      { name: 'metadata with a name outside the alphabet', method: 'PUT', path: () => `/v2/assets/${asset}/metadata`, body: { 'a b': 'x' }, status: 400, message: 'Metadata name \'a b\' is invalid: use 1 to 128 of the characters A-Z a-z 0-9 - _ ! @ # $ % & ^ * ( ) . ?.' },
      { name: 'metadata with an over-long name', method: 'PATCH', path: () => `/v2/assets/${asset}/metadata`, body: { ['n'.repeat(129)]: 'x' }, status: 400, message: `Metadata name '${'n'.repeat(129)}' is invalid: use 1 to 128 of the characters A-Z a-z 0-9 - _ ! @ # $ % & ^ * ( ) . ?.` },
      { name: 'metadata with an over-long value', method: 'PATCH', path: () => `/v2/assets/${asset}/metadata`, body: { k: 'v'.repeat(2049) }, status: 400, message: 'Field k must be at most 2048 characters long.' },
      { name: 'metadata with a control character', method: 'PUT', path: () => `/v2/assets/${asset}/metadata`, body: { k: 'a\u001bb' }, status: 400, message: 'Field k must not contain control characters other than tabs and line breaks.' },
      { name: 'metadata with 101 entries', method: 'PUT', path: () => `/v2/assets/${asset}/metadata`, body: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, 'v'])), status: 400, message: 'An asset holds at most 100 metadata entries.' },
      { name: 'metadata as an array', method: 'PUT', path: () => `/v2/assets/${asset}/metadata`, body: ['a'], status: 400, message: 'Request body must be an object.' },
      { name: 'metadata of an unknown asset', method: 'PUT', path: () => '/v2/assets/nope/metadata', body: { a: 'b' }, status: 404, message: 'Asset nope does not exist.' },

      { name: 'labels as an object', method: 'POST', path: () => `/v2/assets/${asset}/labels`, body: () => ({ labels: [label] }), status: 400, message: 'Request body must be an array.' },
      { name: 'labels with a number', method: 'POST', path: () => `/v2/assets/${asset}/labels`, body: [12], status: 400, message: 'Field 0 must be a string.' },
      { name: 'an unknown label', method: 'POST', path: () => `/v2/assets/${asset}/labels`, body: () => [label, NONE], status: 404, message: `Label ${NONE} does not exist.` },
      { name: 'two unknown labels', method: 'PUT', path: () => `/v2/assets/${asset}/labels`, body: ['a', 'b'], status: 404, message: 'Labels a, b do not exist.' },
      { name: 'put one unknown label', method: 'PUT', path: () => `/v2/assets/${asset}/labels/${NONE}`, status: 404, message: `Label ${NONE} does not exist.` },
      { name: 'put one label with a body', method: 'PUT', path: () => `/v2/assets/${asset}/labels/${label}`, body: () => ({ label_id: label }), status: 400, message: 'Unknown fields: label_id.' },
      { name: 'delete an unknown label', method: 'DELETE', path: () => `/v2/assets/${asset}/labels/${NONE}`, status: 404, message: `Label ${NONE} does not exist.` },
      { name: 'put an unknown player', method: 'PUT', path: () => `/v2/assets/${asset}/player/${NONE}`, status: 404, message: `Player ${NONE} does not exist.` },
      { name: 'get a player when there is none', method: 'GET', path: () => `/v2/assets/${asset}/player`, status: 404, message: () => `Asset ${asset} has no player and the account has no default player.` },
      { name: 'put an unknown publishing rule', method: 'PUT', path: () => `/v2/assets/${asset}/publishing_rule/${NONE}`, status: 404, message: `Publishing rule ${NONE} does not exist.` },
      { name: 'get a publishing rule when there is none', method: 'GET', path: () => `/v2/assets/${asset}/publishing_rule`, status: 404, message: () => `Asset ${asset} has no publishing rule.` }
    ]
    itAnswersEachRow(() => t, rows, ASSET_TABLES)

    it('refuses a forged page token and one from another query, and writes nothing', async () => {
      await remoteAsset(t)
      const first = (await t.signed('GET', '/v2/assets?limit=1&where=status%3D%27live%27')).json()
      const token = new URLSearchParams(first.next_page.split('?')[1]).get('page_token') as string
      const forged = token.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))
      const bad = await t.signed('GET', `/v2/assets?limit=1&where=status%3D%27live%27&page_token=${encodeURIComponent(forged)}`)
      assert.equal(bad.statusCode, 400)
      assert.equal(bad.json().message, 'Parameter page_token is not a valid page token.')
      for (const other of ['where=status%3D%27paused%27', 'where=status%3D%27live%27&orderby=name', 'where=status%3D%27live%27&include=labels']) {
        const res = await t.signed('GET', `/v2/assets?limit=1&${other}&page_token=${encodeURIComponent(token)}`)
        assert.equal(res.statusCode, 400, other)
        assert.equal(res.json().message, 'Parameter page_token belongs to a different query.')
      }
      const foreign = await t.otherAccount()
      const theirs = await t.signed('GET', `/v2/assets?limit=1&where=status%3D%27live%27&page_token=${encodeURIComponent(token)}`, { as: foreign })
      assert.equal(theirs.statusCode, 200, 'a token carries a position, not access: another account sees only its own assets')
      assert.deepEqual(theirs.json().items, [])
      const labelled = await t.signed('GET', `/v2/labels/${label}/assets?limit=1&where=status%3D%27live%27&page_token=${encodeURIComponent(token)}`)
      assert.equal(labelled.json().message, 'Parameter page_token belongs to a different query.')
    })
  })
}
