import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { databaseBackends } from '../support/backends.ts'
import { buildTestApp, type Caller, type TestApp } from '../support/app.ts'
import { createAsset, createVia, remoteAsset, videoAsset } from '../assets/support/assets.ts'

type Node = Record<string, any>
const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', isArray: (name) => ['item', 'atom:link'].includes(name) })

for (const backend of databaseBackends()) {
  describe(`syndication feeds on ${backend.name}`, { skip: backend.skip }, () => {
    let t: TestApp
    let acct: Caller
    before(async () => {
      t = await buildTestApp(backend.name)
      acct = await t.otherAccount()
    })
    after(async () => { await t.close() })

    const syndication = async (body: Record<string, unknown>): Promise<{ id: string, feed_url: string }> =>
      await createVia(t, '/v2/syndications', body, acct) as unknown as { id: string, feed_url: string }
    /** Fetches a feed without signing, checks it is well-formed RSS and returns its channel. */
    const fetchFeed = async (url: string): Promise<{ channel: Node, items: Node[] }> => {
      const res = await t.app.inject({ method: 'GET', url })
      assert.equal(res.statusCode, 200, res.body)
      assert.equal(res.headers['content-type'], 'application/rss+xml; charset=utf-8')
      assert.equal(XMLValidator.validate(res.body), true)
      const doc = parser.parse(res.body)
      assert.equal(doc.rss['@version'], '2.0')
      assert.equal(doc.rss['@xmlns:media'], 'http://search.yahoo.com/mrss/')
      return { channel: doc.rss.channel, items: doc.rss.channel.item ?? [] }
    }
    const nextLink = (channel: Node): string | undefined => (channel['atom:link'] as Node[]).find((l) => l['@rel'] === 'next')?.['@href']
    const relative = (href: string): string => href.replace(/^https?:\/\/[^/]+/, '')

    it('renders an iTunes podcast of the live assets, with channel and episode tags', async () => {
      const episode = await remoteAsset(t, {
        name: 'Episode 1 & <friends>',
        description: 'Pilot',
        duration: 3723000,
        preview_image_url: 'https://img.example.com/e1.jpg',
        stream_urls: { itunes: 'https://cdn.example.com/e1.mp3', source_file: 'https://cdn.example.com/e1.wav' }
      }, acct)
      t.clock.advance(1000)
      await remoteAsset(t, { name: 'Paused', status: 'paused' }, acct)
      await videoAsset(t, { name: 'Still uploading' }, acct)
      const podcast = await syndication({ name: 'Podcast', type: 'itunes', title: 'The Show', description: 'Weekly news', author: 'Ana', category: 'News', keywords: 'news,weekly' })
      const { channel, items } = await fetchFeed(podcast.feed_url)
      assert.equal(channel.title, 'The Show')
      assert.equal(channel.description, 'Weekly news')
      assert.equal(channel.link, `${t.config.publicApiUrl}${podcast.feed_url}`)
      assert.equal(channel['itunes:author'], 'Ana')
      assert.equal(channel['itunes:category']['@text'], 'News')
      assert.equal(channel['itunes:explicit'], false)
      assert.equal(items.length, 1, 'only live assets')
      const [item] = items as [Node]
      assert.equal(item.title, 'Episode 1 & <friends>')
      assert.equal(item.guid['#text'], episode.embed_code)
      assert.equal(item.guid['@isPermaLink'], 'false')
      assert.equal(item.pubDate, 'Sun, 22 Nov 2026 10:00:00 GMT')
      assert.deepEqual(item.enclosure, { '@url': 'https://cdn.example.com/e1.mp3', '@length': '0', '@type': 'audio/mpeg' })
      assert.equal(item['media:content']['@medium'], 'audio')
      assert.equal(item['media:content']['@duration'], '3723')
      assert.equal(item['media:content']['media:thumbnail']['@url'], 'https://img.example.com/e1.jpg')
      assert.equal(item['itunes:duration'], 3723)
      assert.equal(item['itunes:image']['@href'], 'https://img.example.com/e1.jpg')
      assert.equal(item['itunes:summary'], 'Pilot')
    })

    it('renders a source feed of the labelled assets of the chosen types, with source file URLs', async () => {
      const label = await createVia(t, '/v2/labels', { name: 'Syndicated' }, acct)
      const tagged = await remoteAsset(t, { name: 'Tagged', stream_urls: { source_file: 'https://cdn.example.com/src.mov', ipad: 'https://cdn.example.com/ipad.mp4' } }, acct)
      const tube = await createAsset(t, { asset_type: 'youtube', name: 'Tube', youtube_id: 'xyz' }, acct)
      await remoteAsset(t, { name: 'Untagged' }, acct)
      for (const asset of [tagged, tube]) await t.signed('PUT', `/v2/assets/${asset.embed_code}/labels/${label.id}`, { as: acct })
      const source = await syndication({ name: 'Source', type: 'source', include_all_content: false, include_labels: [label.id], asset_types: ['remote_asset'] })
      const { channel, items } = await fetchFeed(source.feed_url)
      assert.equal(channel.title, 'Source', 'the name when there is no title')
      assert.equal(channel['itunes:author'], undefined)
      assert.deepEqual(items.map((i) => i.title), ['Tagged'])
      assert.equal(items[0]?.['media:content']['@url'], 'https://cdn.example.com/src.mov')
      assert.equal(items[0]?.['media:content']['@type'], 'video/quicktime')
      assert.equal(items[0]?.['media:content']['@medium'], 'video')
      await t.signed('PATCH', `/v2/syndications/${source.id}`, { body: { asset_types: [] }, as: acct })
      const all = (await fetchFeed(source.feed_url)).items
      assert.deepEqual(all.map((i) => i.title).sort(), ['Tagged', 'Tube'])
      const tubeItem = all.find((i) => i.title === 'Tube') as Node
      assert.equal(tubeItem.link, 'https://www.youtube.com/watch?v=xyz')
      assert.equal(tubeItem['media:player']['@url'], 'https://www.youtube.com/watch?v=xyz')
      const mp4 = await syndication({ name: 'MP4', type: 'mp4', include_all_content: false, include_labels: [label.id] })
      const ipad = (await fetchFeed(mp4.feed_url)).items.find((i) => i.title === 'Tagged') as Node
      assert.equal(ipad['media:content']['@url'], 'https://cdn.example.com/ipad.mp4')
      const none = await syndication({ name: 'Empty', type: 'mrss', include_all_content: false })
      assert.deepEqual((await fetchFeed(none.feed_url)).items, [], 'no labels and not all content: nothing')
    })

    it('pages 20 items by default and follows atom:link rel="next" to the end', async () => {
      const paged = await t.otherAccount()
      for (let i = 0; i < 21; i++) {
        await createAsset(t, { asset_type: 'channel', name: `ch${String(i).padStart(2, '0')}` }, paged)
        t.clock.advance(1000)
      }
      const feed = await createVia(t, '/v2/syndications', { name: 'All', type: 'mrss' }, paged) as unknown as { feed_url: string }
      const first = await fetchFeed(feed.feed_url)
      assert.equal(first.items.length, 20)
      assert.equal(first.items[0]?.title, 'ch20', 'newest first')
      const next = nextLink(first.channel) as string
      assert.match(next, /&limit=20&page_token=[^&]+$/)
      const second = await fetchFeed(relative(next))
      assert.deepEqual(second.items.map((i) => i.title), ['ch00'])
      assert.equal(nextLink(second.channel), undefined)
      const titles: string[] = []
      let url: string | undefined = `${feed.feed_url}&limit=7`
      while (url !== undefined) {
        const page = await fetchFeed(url)
        titles.push(...page.items.map((i) => i.title as string))
        const href = nextLink(page.channel)
        url = href === undefined ? undefined : relative(href)
      }
      assert.equal(titles.length, 21, 'no next link on the last page, even when 21 is a multiple of 7')
      assert.equal(new Set(titles).size, 21)
    })

    it('needs an access key when the syndication requires one: 401 without, 403 with a wrong one', async () => {
      await remoteAsset(t, { name: 'Secret' }, acct)
      await remoteAsset(t, { name: 'Secret 2' }, acct)
      const locked = await syndication({ name: 'Locked', type: 'mrss', require_access_key: true })
      const missing = await t.app.inject({ method: 'GET', url: locked.feed_url })
      assert.equal(missing.statusCode, 401)
      assert.equal(missing.json().message, 'This feed requires an access_key parameter.')
      const wrong = await t.app.inject({ method: 'GET', url: `${locked.feed_url}&access_key=guess` })
      assert.equal(wrong.statusCode, 403)
      assert.equal(wrong.json().message, 'The access_key is not valid for this feed.')
      const key = (await t.signed('POST', `/v2/syndications/${locked.id}/access_keys`, { as: acct })).json().access_key as string
      const page = await fetchFeed(`${locked.feed_url}&access_key=${key}&limit=1`)
      assert.equal(page.items.length, 1)
      const next = nextLink(page.channel) as string
      assert.ok(next.includes(`access_key=${key}`), 'the next page keeps the key')
      assert.equal((await fetchFeed(relative(next))).items.length, 1)
      await t.signed('DELETE', `/v2/syndications/${locked.id}/access_keys/${key}`, { as: acct })
      assert.equal((await t.app.inject({ method: 'GET', url: `${locked.feed_url}&access_key=${key}` })).statusCode, 403)
      await t.signed('PATCH', `/v2/syndications/${locked.id}`, { body: { require_access_key: false }, as: acct })
      assert.equal((await t.app.inject({ method: 'GET', url: locked.feed_url })).statusCode, 200)
    })

    const bad: Array<[string, (s: { id: string, feed_url: string }) => string, number, string]> = [
      ['without pcode', (s) => `/v2/syndications/${s.id}/feed`, 400, 'Parameter pcode is required.'],
      ['with an unknown pcode', (s) => `/v2/syndications/${s.id}/feed?pcode=nobody`, 404, 'Syndication ID does not exist.'],
      ['of an unknown syndication', () => `/v2/syndications/${'f'.repeat(32)}/feed?pcode=PCODE`, 404, `Syndication ${'f'.repeat(32)} does not exist.`],
      ['with limit 0', (s) => `${s.feed_url}&limit=0`, 400, 'Parameter limit must be an integer from 1 to 500.'],
      ['with limit 501', (s) => `${s.feed_url}&limit=501`, 400, 'Parameter limit must be an integer from 1 to 500.'],
      ['with a forged page token', (s) => `${s.feed_url}&page_token=abc.def`, 400, 'Parameter page_token is not a valid page token.'],
      ['with the same parameter twice', (s) => `${s.feed_url}&limit=1&limit=2`, 400, 'These parameters appear more than once: limit.']
    ]
    for (const [name, url, status, message] of bad) {
      it(`answers ${status} to a feed request ${name}`, async () => {
        const s = await syndication({ name: 'Bad', type: 'mrss' })
        const res = await t.app.inject({ method: 'GET', url: url(s).replace('PCODE', acct.accountCode) })
        assert.equal(res.statusCode, status, res.body)
        assert.equal(res.json().message, message.replace('ID', s.id))
      })
    }

    it('refuses a page token of another feed', async () => {
      await remoteAsset(t, { name: 'one' }, acct)
      await remoteAsset(t, { name: 'two' }, acct)
      const a = await syndication({ name: 'A', type: 'mrss' })
      const b = await syndication({ name: 'B', type: 'mrss' })
      const next = nextLink((await fetchFeed(`${a.feed_url}&limit=1`)).channel) as string
      const token = new URL(next).searchParams.get('page_token') as string
      const res = await t.app.inject({ method: 'GET', url: `${b.feed_url}&limit=1&page_token=${encodeURIComponent(token)}` })
      assert.equal(res.statusCode, 400)
      assert.equal(res.json().message, 'Parameter page_token belongs to a different query.')
    })
  })
}
