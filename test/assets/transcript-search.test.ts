import assert from 'node:assert/strict'
import { after, afterEach, before, beforeEach, describe, it } from 'node:test'
import { buildTestApp, type Caller, type TestApp } from '../support/app.ts'
import { databaseBackends } from '../support/backends.ts'
import { itAnswersEachRow, pagingRows, type BadInputRow } from '../support/bad-input.ts'
import { remoteAsset } from './support/assets.ts'
import { indexNow } from '../indexer/support/index-now.ts'
import { startFakeSearchEngine, type FakeSearchEngine } from '../search/fake-search-engine.ts'

// Searching what is said (docs/captions.md): caption cues are search documents of their own, found by
// `GET /v2/search/transcripts` and by `where=transcript INCLUDES`, on FTS5 and on the search-engine stand-in.

const TRACK = `WEBVTT

00:00:05.000 --> 00:00:08.000
Good morning, everyone.

00:01:12.000 --> 00:01:15.500
Here is our <b>quarterly coffee report</b>.

00:02:00.000 --> 00:02:03.000
Coffee &amp; tea sales rose again.
`

interface Hit { asset_id: string, language: string, start_ms: number, end_ms: number, text: string, highlight: string }

const combos = [
  ...databaseBackends().map((backend) => ({ name: `${backend.name}, FTS5`, backend, engine: false })),
  { name: 'sqlite, search-engine stand-in', backend: databaseBackends()[0], engine: true }
]

for (const combo of combos) {
  describe(`transcript search (${combo.name})`, { skip: combo.backend.skip }, () => {
    let t: TestApp
    let engine: FakeSearchEngine | undefined
    beforeEach(async () => {
      engine = combo.engine ? await startFakeSearchEngine('opensearch') : undefined
      t = await buildTestApp(combo.backend.name, { CREDITS_ENABLED: 'false', ...(engine === undefined ? {} : { SEARCH_URL: engine.url.replace(/^http:/, 'opensearch:') }) })
    })
    afterEach(async () => {
      await t.close()
      await engine?.close()
    })

    const putTrack = async (assetId: string, body = TRACK, as?: Caller, language = 'en'): Promise<void> => {
      const answer = await t.signed('PUT', `/v2/assets/${assetId}/captions/${language}`, { body, headers: { 'content-type': 'text/vtt' }, ...(as === undefined ? {} : { as }) })
      assert.equal(answer.statusCode, 200, answer.body)
    }
    const search = async (q: string, as?: Caller, params: Record<string, string> = {}): Promise<{ items: Hit[], next_page?: string }> => {
      const answer = await t.signed('GET', '/v2/search/transcripts', { params: { q, ...params }, ...(as === undefined ? {} : { as }) })
      assert.equal(answer.statusCode, 200, answer.body)
      return answer.json()
    }

    it('finds the cue that says "coffee" at 00:01:12, in that account only', async () => {
      const asset = await remoteAsset(t, { name: 'Q3 all-hands' })
      const other = await t.otherAccount()
      const theirs = await remoteAsset(t, { name: 'Their all-hands' }, other)
      await putTrack(asset.embed_code)
      await putTrack(theirs.embed_code, TRACK, other)
      await indexNow(t.ctx)

      const { items, next_page: next } = await search('coffee')
      assert.equal(next, undefined)
      assert.deepEqual(items.map((hit) => [hit.asset_id, hit.language]), [[asset.embed_code, 'en'], [asset.embed_code, 'en']])
      const [first, second] = items as [Hit, Hit]
      assert.ok(Math.abs(first.start_ms - 72_000) <= 1000, `start ${first.start_ms}`)
      assert.equal(first.end_ms, 75_500)
      assert.equal(first.text, 'Here is our quarterly coffee report.')
      assert.equal(first.highlight, 'Here is our quarterly <em>coffee</em> report.')
      assert.equal(second.highlight, '<em>Coffee</em> &amp; tea sales rose again.')
      // Every word must be said in the cue.
      assert.deepEqual((await search('quarterly COFFEE')).items.map((hit) => hit.start_ms), [72_000])
      assert.deepEqual((await search('coffee morning')).items, [])
      // The other account finds its own asset only.
      assert.deepEqual((await search('coffee', other)).items.map((hit) => hit.asset_id), [theirs.embed_code, theirs.embed_code])

      const where = await t.signed('GET', '/v2/assets', { params: { where: "transcript INCLUDES 'coffee'" } })
      assert.deepEqual(where.json().items.map((a: { embed_code: string }) => a.embed_code), [asset.embed_code])
      const none = await t.signed('GET', '/v2/assets', { params: { where: "transcript INCLUDES 'espresso'" } })
      assert.deepEqual(none.json().items, [])
    })

    it('pages the hits, keeps an upload_only user to its own assets, and follows track changes but not asset edits', async () => {
      const asset = await remoteAsset(t, { name: 'Admin asset' })
      await putTrack(asset.embed_code)
      const uploader = await t.userWithRole('upload_only')
      const own = await remoteAsset(t, { name: 'Uploader asset' }, uploader)
      await putTrack(own.embed_code, 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nA coffee to go\n', uploader, 'fr')
      await indexNow(t.ctx)

      const first = await search('coffee', undefined, { limit: '2' })
      assert.equal(first.items.length, 2)
      assert.ok(first.next_page?.startsWith('/v2/search/transcripts?q=coffee&limit=2&page_token='), first.next_page)
      const rest = await t.signed('GET', first.next_page!)
      assert.equal(rest.json().items.length, 1)
      assert.equal(rest.json().next_page, undefined)
      const all = [...first.items, ...rest.json().items as Hit[]]
      assert.equal(all.length, 3)
      assert.equal(new Set(all.map((hit) => `${hit.asset_id}/${hit.language}/${hit.start_ms}`)).size, 3)
      assert.deepEqual((await search('coffee', undefined, { language: 'fr' })).items.map((hit) => hit.asset_id), [own.embed_code])

      assert.deepEqual((await search('coffee', uploader)).items.map((hit) => hit.asset_id), [own.embed_code])

      // An edit to the asset does not resend its transcripts; a track change does, and a delete removes them.
      assert.equal((await t.signed('PATCH', `/v2/assets/${asset.embed_code}`, { body: { name: 'Renamed' } })).statusCode, 200)
      assert.equal(await indexNow(t.ctx), 1, 'the asset document only')
      assert.equal((await t.signed('DELETE', `/v2/assets/${asset.embed_code}/captions/en`)).statusCode, 200)
      await indexNow(t.ctx)
      assert.deepEqual((await search('coffee')).items.map((hit) => hit.asset_id), [own.embed_code])
      assert.equal((await t.signed('DELETE', `/v2/assets/${own.embed_code}`)).statusCode, 200)
      await indexNow(t.ctx)
      assert.deepEqual((await search('coffee')).items, [])
      assert.equal(await t.ctx.search.count(t.admin.accountId, 'transcript'), 0)
    })
  })
}

describe('transcript search: bad requests', () => {
  let t: TestApp
  before(async () => { t = await buildTestApp('sqlite', { CREDITS_ENABLED: 'false' }) })
  after(async () => { await t.close() })
  const path = '/v2/search/transcripts'
  const rows: BadInputRow[] = [
    { name: 'no q', method: 'GET', path: () => path, status: 400, message: 'Parameter q is required.' },
    { name: 'an empty q', method: 'GET', path: () => `${path}?q=`, status: 400, message: 'Parameter q must not be empty.' },
    { name: 'a q without words', method: 'GET', path: () => `${path}?q=%21%3F`, status: 400, message: 'Parameter q must contain at least one word.' },
    { name: 'an unknown language', method: 'GET', path: () => `${path}?q=coffee&language=qqq-x`, status: 400, message: 'Parameter language is not a known BCP 47 language tag: "qqq-x".' },
    { name: 'a q over 500 characters', method: 'GET', path: () => `${path}?q=${'a'.repeat(501)}`, status: 400, message: 'Parameter q must be at most 500 characters long.' },
    ...pagingRows(`${path}?q=coffee`).map((row) => ({ ...row, path: () => row.path().replace('?q=coffee?', '?q=coffee&') }))
  ]
  itAnswersEachRow(() => t, rows, ['asset_captions', 'assets'])
})
