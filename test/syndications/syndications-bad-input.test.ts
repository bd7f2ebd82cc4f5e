import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { databaseBackends } from '../support/backends.ts'
import { type BadInputRow, itAnswersEachRow, pagingRows } from '../support/bad-input.ts'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { createVia, SYNDICATION_TABLES } from '../assets/support/assets.ts'

const NONE = 'ffffffffffffffffffffffffffffffff'

/** `body` and `message` may be functions when they name fixtures made in `before`. */

for (const backend of databaseBackends()) {
  describe(`/v2/syndications bad input on ${backend.name}`, { skip: backend.skip }, () => {
    let t: TestApp
    let syndication: string
    let foreignLabel: string
    before(async () => {
      t = await buildTestApp(backend.name)
      syndication = (await createVia(t, '/v2/syndications', { name: 'S', type: 'mrss' })).id
      foreignLabel = (await createVia(t, '/v2/labels', { name: 'Theirs' }, await t.otherAccount())).id
    })
    after(async () => { await t.close() })

    const create = (fields: Record<string, unknown>, status: number, message: string | (() => string), name: string, bare = false): BadInputRow =>
      ({ name: `create ${name}`, method: 'POST', path: () => '/v2/syndications', body: bare ? fields : () => ({ name: 'n', type: 'mrss', ...fields }), status, message })
    const rows: BadInputRow[] = [
      create({ type: 'mrss' }, 400, 'Field name is required.', 'without a name', true),
      create({ name: 'n' }, 400, 'Field type is required.', 'without a type', true),
      create({ type: 'rss' }, 400, 'Field type must be one of mrss, source, mp4, itunes, roku, google, youtube.', 'with an unknown type'),
      create({ colour: 'red' }, 400, 'Unknown fields: colour.', 'with an unknown field'),
      create({ feed_url: '/x' }, 400, 'Unknown fields: feed_url.', 'with the read-only feed_url'),
      create({ name: 7 }, 400, 'Field name must be a string.', 'with a number as name'),
      create({ name: 'x'.repeat(256) }, 400, 'Field name must be at most 255 characters long.', 'with an over-long name'),
      create({ name: 'tab\there' }, 400, 'Field name must not contain control characters.', 'with a control character in the name'),
      create({ title: 'a\u001f' }, 400, 'Field title must not contain control characters.', 'with a control character in the title'),
      create({ title: 't'.repeat(256) }, 400, 'Field title must be at most 255 characters long.', 'with an over-long title'),
      create({ description: 'a\u0000' }, 400, 'Field description must not contain control characters other than tabs and line breaks.', 'with NUL in the description'),
      create({ keywords: 'k'.repeat(1025) }, 400, 'Field keywords must be at most 1024 characters long.', 'with over-long keywords'),
      create({ author: 3 }, 400, 'Field author must be a string.', 'with a number as author'),
      create({ include_all_content: 'yes' }, 400, 'Field include_all_content must be a boolean.', 'with a non-boolean include_all_content'),
      create({ require_access_key: 1 }, 400, 'Field require_access_key must be a boolean.', 'with 1 for require_access_key'),
      create({ include_labels: 'all' }, 400, 'Field include_labels must be an array.', 'with include_labels as text'),
      create({ include_labels: [NONE] }, 400, `Field include_labels: label ${NONE} does not exist.`, 'with an unknown label'),
      create({ include_labels: ['a', 'b'] }, 400, 'Field include_labels: labels a, b do not exist.', 'with two unknown labels'),
      { ...create({}, 400, () => `Field include_labels: label ${foreignLabel} does not exist.`, 'with a label of another account'), body: () => ({ name: 'n', type: 'mrss', include_labels: [foreignLabel] }) },
      create({ include_labels: Array.from({ length: 101 }, (_, i) => String(i)) }, 400, 'Field include_labels must have at most 100 items.', 'with 101 labels'),
      create({ asset_types: ['film'] }, 400, 'Field asset_types.0 must be one of video, audio, ad, remote_asset, youtube, live_stream, channel.', 'with an unknown asset type'),
      { name: 'create with a JSON array', method: 'POST', path: () => '/v2/syndications', body: [], status: 400, message: 'Request body must be an object.' },
      { name: 'create with invalid JSON', method: 'POST', path: () => '/v2/syndications', body: '{', status: 400, message: 'Request body is not valid JSON.' },
      { name: 'patch an unknown syndication', method: 'PATCH', path: () => `/v2/syndications/${NONE}`, body: { name: 'x' }, status: 404, message: `Syndication ${NONE} does not exist.` },
      { name: 'patch with an unknown type', method: 'PATCH', path: () => `/v2/syndications/${syndication}`, body: { type: 'podcast' }, status: 400, message: 'Field type must be one of mrss, source, mp4, itunes, roku, google, youtube.' },
      { name: 'patch the id', method: 'PATCH', path: () => `/v2/syndications/${syndication}`, body: { id: NONE }, status: 400, message: 'Unknown fields: id.' },
      { name: 'put without a type', method: 'PUT', path: () => `/v2/syndications/${syndication}`, body: { name: 'x' }, status: 400, message: 'Field type is required.' },
      { name: 'get a malformed id', method: 'GET', path: () => '/v2/syndications/not-an-id', status: 404, message: 'Syndication not-an-id does not exist.' },
      { name: 'delete an unknown syndication', method: 'DELETE', path: () => `/v2/syndications/${NONE}`, status: 404, message: `Syndication ${NONE} does not exist.` },
      ...pagingRows('/v2/syndications'),
      { name: 'an access key for an unknown syndication', method: 'POST', path: () => `/v2/syndications/${NONE}/access_keys`, status: 404, message: `Syndication ${NONE} does not exist.` },
      { name: 'an access key with fields', method: 'POST', path: () => `/v2/syndications/${syndication}/access_keys`, body: { access_key: 'mine' }, status: 400, message: 'Unknown fields: access_key.' },
      { name: 'deleting an unknown access key', method: 'DELETE', path: () => `/v2/syndications/${syndication}/access_keys/nope`, status: 404, message: 'Access key nope does not exist.' },
      { name: 'the access keys of an unknown syndication', method: 'GET', path: () => `/v2/syndications/${NONE}/access_keys`, status: 404, message: `Syndication ${NONE} does not exist.` }
    ]
    itAnswersEachRow(() => t, rows, SYNDICATION_TABLES)

    it('refuses a forged page token and one from another query', async () => {
      await createVia(t, '/v2/syndications', { name: 'S2', type: 'mrss' })
      const first = (await t.signed('GET', '/v2/syndications?limit=1')).json()
      const token = new URLSearchParams(first.next_page.split('?')[1]).get('page_token') as string
      const forged = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`
      assert.equal((await t.signed('GET', `/v2/syndications?limit=1&page_token=${encodeURIComponent(forged)}`)).json().message, 'Parameter page_token is not a valid page token.')
      const other = await t.signed('GET', `/v2/assets?limit=1&page_token=${encodeURIComponent(token)}`)
      assert.equal(other.statusCode, 400)
      assert.equal(other.json().message, 'Parameter page_token belongs to a different query.')
    })
  })
}
