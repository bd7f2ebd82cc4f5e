import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { databaseBackends } from '../support/backends.ts'
import { type BadInputRow, forge, itAnswersEachRow, LIMIT_MESSAGE, pagingRows, tokenOf } from '../support/bad-input.ts'
import { buildTestApp, type TestApp } from '../support/app.ts'

const UNKNOWN = 'ffffffffffffffffffffffffffffffff'

/** One request and the exact answer it must get; `body` may be a function of the fixtures made in `before`. */

for (const backend of databaseBackends()) {
  describe(`/v2/labels bad input on ${backend.name}`, { skip: backend.skip }, () => {
    let t: TestApp
    let parent: { id: string }
    let child: { id: string }
    let rootsToken: string
    let childrenToken: string
    before(async () => {
      t = await buildTestApp(backend.name)
      parent = (await t.signed('POST', '/v2/labels', { body: { name: 'A' } })).json()
      child = (await t.signed('POST', '/v2/labels', { body: { name: 'B', parent_id: parent.id } })).json()
      await t.signed('POST', '/v2/labels', { body: { name: 'C' } })
      await t.signed('POST', '/v2/labels', { body: { name: 'D', parent_id: parent.id } })
      rootsToken = tokenOf((await t.signed('GET', '/v2/labels?is_root=true&limit=1')).json().next_page)
      childrenToken = tokenOf((await t.signed('GET', `/v2/labels/${parent.id}/children?limit=1`)).json().next_page)
    })
    after(async () => { await t.close() })

    const rows: BadInputRow[] = [
      { name: 'create without a name', method: 'POST', path: () => '/v2/labels', body: {}, status: 400, message: 'Field name is required.' },
      { name: 'create with an unknown field', method: 'POST', path: () => '/v2/labels', body: { name: 'x', color: 'red' }, status: 400, message: 'Unknown fields: color.' },
      { name: 'create with a number as name', method: 'POST', path: () => '/v2/labels', body: { name: 12 }, status: 400, message: 'Field name must be a string.' },
      { name: 'create with an empty name', method: 'POST', path: () => '/v2/labels', body: { name: '' }, status: 400, message: 'Field name must not be empty.' },
      { name: 'create with an over-long name', method: 'POST', path: () => '/v2/labels', body: { name: 'x'.repeat(256) }, status: 400, message: 'Field name must be at most 255 characters long.' },
      { name: 'create with control characters', method: 'POST', path: () => '/v2/labels', body: { name: 'a\u0007b' }, status: 400, message: 'Field name must not contain control characters.' },
      { name: 'create with a newline', method: 'POST', path: () => '/v2/labels', body: { name: 'a\nb' }, status: 400, message: 'Field name must not contain control characters.' },
      { name: 'create with a slash in the name', method: 'POST', path: () => '/v2/labels', body: { name: 'a/b' }, status: 400, message: 'Field name must not contain "/".' },
      { name: 'create with a malformed parent_id', method: 'POST', path: () => '/v2/labels', body: { name: 'x', parent_id: 'nope' }, status: 400, message: 'Field parent_id has an invalid format.' },
      { name: 'create with a number as parent_id', method: 'POST', path: () => '/v2/labels', body: { name: 'x', parent_id: 5 }, status: 400, message: 'Field parent_id must be a string.' },
      { name: 'create under an unknown parent', method: 'POST', path: () => '/v2/labels', body: { name: 'x', parent_id: UNKNOWN }, status: 400, message: `Parent label ${UNKNOWN} does not exist.` },
      { name: 'create a duplicate sibling', method: 'POST', path: () => '/v2/labels', body: () => ({ name: 'B', parent_id: parent.id }), status: 400, message: 'Label /A/B already exists.' },
      { name: 'create with a JSON array', method: 'POST', path: () => '/v2/labels', body: [], status: 400, message: 'Request body must be an object.' },
      { name: 'create with invalid JSON', method: 'POST', path: () => '/v2/labels', body: '{"name":', status: 400, message: 'Request body is not valid JSON.' },
      { name: 'patch with an unknown field', method: 'PATCH', path: () => `/v2/labels/${child.id}`, body: { colour: 1 }, status: 400, message: 'Unknown fields: colour.' },
      { name: 'patch a name with a slash', method: 'PATCH', path: () => `/v2/labels/${child.id}`, body: { name: '/x' }, status: 400, message: 'Field name must not contain "/".' },
      { name: 'patch onto a sibling name', method: 'PATCH', path: () => `/v2/labels/${child.id}`, body: { name: 'D' }, status: 400, message: 'Label /A/D already exists.' },
      { name: 'move under its own child', method: 'PATCH', path: () => `/v2/labels/${parent.id}`, body: () => ({ parent_id: child.id }), status: 400, message: 'Label /A cannot be moved under itself or one of its descendants.' },
      { name: 'move under itself', method: 'PATCH', path: () => `/v2/labels/${parent.id}`, body: () => ({ parent_id: parent.id }), status: 400, message: 'Label /A cannot be moved under itself or one of its descendants.' },
      { name: 'patch an unknown label', method: 'PATCH', path: () => `/v2/labels/${UNKNOWN}`, body: { name: 'x' }, status: 404, message: `Label ${UNKNOWN} does not exist.` },
      { name: 'put without a name', method: 'PUT', path: () => `/v2/labels/${child.id}`, body: { parent_id: null }, status: 400, message: 'Field name is required.' },
      { name: 'get a malformed id', method: 'GET', path: () => '/v2/labels/not-an-id', status: 404, message: 'Label not-an-id does not exist.' },
      { name: 'children of an unknown label', method: 'GET', path: () => `/v2/labels/${UNKNOWN}/children`, status: 404, message: `Label ${UNKNOWN} does not exist.` },
      { name: 'delete an unknown label', method: 'DELETE', path: () => `/v2/labels/${UNKNOWN}`, status: 404, message: `Label ${UNKNOWN} does not exist.` },
      { name: 'delete a label with children', method: 'DELETE', path: () => `/v2/labels/${parent.id}`, status: 409, message: 'Label /A has child labels; delete them first or pass recursive=true.' },
      { name: 'delete with recursive=maybe', method: 'DELETE', path: () => `/v2/labels/${parent.id}?recursive=maybe`, status: 400, message: 'Parameter recursive must be a boolean.' },
      { name: 'list with is_root=yes', method: 'GET', path: () => '/v2/labels?is_root=yes', status: 400, message: 'Parameter is_root must be a boolean.' },
      ...pagingRows('/v2/labels'),
      { name: 'limit -1 on children', method: 'GET', path: () => `/v2/labels/${parent.id}/children?limit=-1`, status: 400, message: LIMIT_MESSAGE },
      { name: 'a forged page token', method: 'GET', path: () => `/v2/labels?is_root=true&limit=1&page_token=${encodeURIComponent(forge(rootsToken))}`, status: 400, message: 'Parameter page_token is not a valid page token.' },
      { name: 'a token of the is_root query without the filter', method: 'GET', path: () => `/v2/labels?limit=1&page_token=${encodeURIComponent(rootsToken)}`, status: 400, message: 'Parameter page_token belongs to a different query.' },
      { name: "a token of one label's children on the full list", method: 'GET', path: () => `/v2/labels?limit=1&paging_token=${encodeURIComponent(childrenToken)}`, status: 400, message: 'Parameter page_token belongs to a different query.' },
      { name: "a token of one label's children on another's", method: 'GET', path: () => `/v2/labels/${child.id}/children?limit=1&page_token=${encodeURIComponent(childrenToken)}`, status: 400, message: 'Parameter page_token belongs to a different query.' },
      { name: 'by_full_path without a leading slash', method: 'GET', path: () => '/v2/labels/by_full_path/A', status: 400, message: 'Label path "A" must start with "/".' },
      { name: 'by_full_path with an empty name', method: 'GET', path: () => '/v2/labels/by_full_path/%2FA%2F%2FB', status: 400, message: 'Label path "/A//B" has an empty name.' },
      { name: 'by_full_path with an over-long name', method: 'GET', path: () => `/v2/labels/by_full_path/%2F${'x'.repeat(256)}`, status: 400, message: `Label path "/${'x'.repeat(256)}" has a name longer than 255 characters.` },
      { name: 'by_full_path with control characters', method: 'GET', path: () => '/v2/labels/by_full_path/%2FA%07', status: 400, message: 'Label path "/A\\u0007" contains control characters.' },
      { name: 'by_full_path with bad percent-encoding', method: 'GET', path: () => '/v2/labels/by_full_path/%2FA%E0%A4', status: 400, message: 'Malformed URL.' },
      // The router drops the trailing slash, so this reads as a label whose id is "by_full_path".
      { name: 'by_full_path with no path', method: 'GET', path: () => '/v2/labels/by_full_path/', status: 404, message: 'Label by_full_path does not exist.' },
      { name: 'by_full_path with 101 paths', method: 'GET', path: () => `/v2/labels/by_full_path/${Array.from({ length: 101 }, (_, i) => `%2F${i}`).join(',')}`, status: 400, message: 'At most 100 label paths per request.' },
      { name: 'by_full_path of a missing label', method: 'GET', path: () => '/v2/labels/by_full_path/%2FA%2FZ', status: 400, message: 'These labels do not exist: /A/Z.' },
      { name: 'POST by_full_path with one bad path among good ones', method: 'POST', path: () => '/v2/labels/by_full_path/%2FNew%2FPath,%2FBad%2F%2Fx', status: 400, message: 'Label path "/Bad//x" has an empty name.' },
      { name: 'POST by_full_path with a slash-free path', method: 'POST', path: () => '/v2/labels/by_full_path/New', status: 400, message: 'Label path "New" must start with "/".' }
    ]
    itAnswersEachRow(() => t, rows, ['labels'])

    it('answers 200 to a valid create, and writes it', async () => {
      const res = await t.signed('POST', '/v2/labels', { body: { name: 'Fine, really', parent_id: child.id } })
      assert.equal(res.statusCode, 200, res.body)
      assert.equal(res.json().full_name, '/A/B/Fine, really')
    })
  })
}

/** The same token with one character of its payload changed: the MAC no longer matches. */
