import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { createAsset, createVia, remoteAsset } from '../assets/support/assets.ts'
import { buildTestApp, type Caller, type TestApp } from '../support/app.ts'

// The feeds whose consumers read a format of their own: Roku's JSON content feed (Direct Publisher
// specification, revision of 2017-05-02), a Google video sitemap, and YouTube's MRSS ingestion. Each item
// is checked for every element its consumer requires. One backend: the rendering reads no SQL of its own.

type Node = Record<string, any>
const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', isArray: (name) => ['item', 'url', 'video:tag'].includes(name) })

describe('syndication feeds for Roku, Google and YouTube', () => {
  let t: TestApp
  let acct: Caller
  const codes: Record<string, string> = {}
  before(async () => {
    t = await buildTestApp('sqlite')
    acct = await t.otherAccount()
    const make = async (key: string, fields: Record<string, unknown>): Promise<void> => {
      codes[key] = (await remoteAsset(t, fields, acct)).embed_code
      t.clock.advance(1000)
    }
    await make('hls', {
      name: 'Harbour & <dawn>', description: 'd'.repeat(250), duration: 95_400, preview_image_url: 'https://img.example.com/h.jpg',
      hosted_at: 'https://www.example.com/harbour', stream_urls: { iphone: 'https://cdn.example.com/h/master.m3u8', source_file: 'https://cdn.example.com/h.mov' }
    })
    await make('mp4', {
      name: 'Market', duration: 60_000, preview_image_url: 'https://img.example.com/m.jpg',
      hosted_at: 'https://www.example.com/market', stream_urls: { source_file: 'https://cdn.example.com/m.mp4' }
    })
    await make('bare', { name: 'No preview, no page', stream_urls: { source_file: 'https://cdn.example.com/b.mp4' } })
    await make('stream', { name: 'Only a stream', preview_image_url: 'https://img.example.com/s.jpg', stream_urls: { iphone: 'https://cdn.example.com/s.m3u8' } })
    codes.tube = (await createAsset(t, { asset_type: 'youtube', name: 'Tube', youtube_id: 'xyz_1', preview_image_url: 'https://img.example.com/t.jpg' }, acct)).embed_code
  })
  after(async () => { await t.close() })

  const feedOf = async (type: string, extra: Record<string, unknown> = {}): Promise<{ body: string, type: string }> => {
    const syndication = await createVia(t, '/v2/syndications', { name: type, type, ...extra }, acct) as unknown as { feed_url: string }
    const res = await t.app.inject({ method: 'GET', url: syndication.feed_url })
    assert.equal(res.statusCode, 200, res.body)
    return { body: res.body, type: String(res.headers['content-type']) }
  }

  it('renders Roku\'s JSON feed: every required field of the root, each shortFormVideo and its content', async () => {
    const feed = await feedOf('roku', { keywords: 'harbours, a tag longer than twenty characters' })
    assert.equal(feed.type, 'application/json; charset=utf-8')
    const doc = JSON.parse(feed.body)
    assert.equal(doc.providerName, 'Other account', 'the account\'s name')
    assert.match(doc.lastUpdated, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/)
    assert.equal(doc.language, 'en')
    assert.deepEqual(Object.keys(doc).sort(), ['language', 'lastUpdated', 'providerName', 'shortFormVideos'])
    // Newest first; without a preview image (required thumbnail) an asset is left out, and YouTube assets have no stream.
    assert.deepEqual(doc.shortFormVideos.map((v: Node) => v.id), [codes.stream, codes.mp4, codes.hls])
    for (const video of doc.shortFormVideos as Node[]) {
      for (const field of ['id', 'title', 'content', 'thumbnail', 'shortDescription', 'releaseDate']) assert.ok(video[field] !== undefined && video[field] !== '', `${video.id} has ${field}`)
      assert.match(video.releaseDate, /^\d{4}-\d{2}-\d{2}$/)
      assert.ok(video.shortDescription.length <= 200)
      assert.match(video.content.dateAdded, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/)
      assert.ok(Number.isInteger(video.content.duration))
      assert.ok(video.content.videos.length >= 1)
      for (const file of video.content.videos as Node[]) {
        assert.ok(['HD', 'FHD', 'UHD', 'SD'].includes(file.quality))
        assert.ok(['HLS', 'SMOOTH', 'DASH', 'MP4', 'MOV', 'M4V'].includes(file.videoType))
      }
    }
    const [, market, harbour] = doc.shortFormVideos as Node[]
    assert.deepEqual(harbour?.content.videos, [{ url: 'https://cdn.example.com/h/master.m3u8', quality: 'HD', videoType: 'HLS' }])
    assert.equal(harbour?.content.duration, 95)
    assert.equal(harbour?.title, 'Harbour & <dawn>')
    assert.equal(harbour?.shortDescription.length, 200)
    assert.equal(harbour?.longDescription.length, 250)
    assert.deepEqual(harbour?.tags, ['harbours'])
    // A remote file's size is unknown, so its bit rate is too (an uploaded asset's is its size over its duration).
    assert.deepEqual(market?.content.videos, [{ url: 'https://cdn.example.com/m.mp4', quality: 'HD', videoType: 'MP4' }])
    assert.equal(market?.shortDescription, 'Market')
  })

  it('renders a Google video sitemap: loc, thumbnail_loc, title, description and content_loc or player_loc for each video', async () => {
    const feed = await feedOf('google', { keywords: 'harbour, market' })
    assert.equal(feed.type, 'application/xml; charset=utf-8')
    assert.equal(XMLValidator.validate(feed.body), true)
    const doc = parser.parse(feed.body)
    assert.equal(doc.urlset['@xmlns'], 'http://www.sitemaps.org/schemas/sitemap/0.9')
    assert.equal(doc.urlset['@xmlns:video'], 'http://www.google.com/schemas/sitemap-video/1.1')
    const urls = doc.urlset.url as Node[]
    // Only assets on a page of their own (hosted_at, or YouTube's watch page) with a preview image.
    assert.deepEqual(urls.map((u) => u.loc), ['https://www.youtube.com/watch?v=xyz_1', 'https://www.example.com/market', 'https://www.example.com/harbour'])
    for (const url of urls) {
      const video = url['video:video'] as Node
      for (const field of ['video:thumbnail_loc', 'video:title', 'video:description']) assert.ok(video[field] !== undefined && video[field] !== '', `${url.loc as string} has ${field}`)
      assert.ok(video['video:content_loc'] !== undefined || video['video:player_loc'] !== undefined)
      assert.ok(String(video['video:description']).length <= 2048)
      assert.match(video['video:publication_date'], /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/)
      assert.deepEqual(video['video:tag'], ['harbour', 'market'])
    }
    const [tube, market, harbour] = urls.map((u) => u['video:video']) as Node[]
    assert.equal(tube?.['video:player_loc'], 'https://www.youtube.com/embed/xyz_1')
    assert.equal(tube?.['video:content_loc'], undefined)
    assert.equal(tube?.['video:duration'], undefined, 'no duration known: left out, never 0')
    assert.equal(market?.['video:content_loc'], 'https://cdn.example.com/m.mp4')
    assert.equal(market?.['video:duration'], 60)
    assert.equal(harbour?.['video:title'], 'Harbour & <dawn>')
    assert.equal(harbour?.['video:content_loc'], 'https://cdn.example.com/h.mov')
  })

  it('renders YouTube\'s MRSS: a file to fetch with title, description, keywords and category for each item', async () => {
    const plain = await feedOf('youtube')
    assert.equal(plain.type, 'application/rss+xml; charset=utf-8')
    assert.equal(XMLValidator.validate(plain.body), true)
    const items = parser.parse(plain.body).rss.channel.item as Node[]
    // A stream alone (HLS) and a YouTube asset give YouTube nothing to fetch: left out.
    assert.deepEqual(items.map((i) => i.guid['#text']), [codes.bare, codes.mp4, codes.hls])
    for (const item of items) {
      const content = item['media:content'] as Node
      assert.match(content['@url'], /^https:\/\/cdn\.example\.com\/\w+\.(mp4|mov)$/)
      for (const field of ['media:title', 'media:description', 'media:keywords', 'media:category']) assert.ok(content[field] !== undefined && content[field] !== '', `${item.title as string} has ${field}`)
      assert.equal(content['media:category'], 'Entertainment')
    }
    const bare = items[0] as Node
    assert.equal(bare['media:content']['media:description']['#text'], 'No preview, no page', 'the name stands in for a missing description')
    assert.equal(bare['media:content']['media:keywords'], 'No preview, no page')
    const named = parser.parse((await feedOf('youtube', { keywords: 'harbour,market', category: 'Travel & Events' })).body).rss.channel.item as Node[]
    assert.equal(named[0]?.['media:content']['media:keywords'], 'harbour,market')
    assert.equal(named[0]?.['media:content']['media:category'], 'Travel & Events')
  })

  it('keeps mrss as it was: HLS-only and YouTube assets stay in', async () => {
    const items = parser.parse((await feedOf('mrss')).body).rss.channel.item as Node[]
    assert.equal(items.length, 5)
  })
})
