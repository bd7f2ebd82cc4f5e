import { create } from 'xmlbuilder2'
import type { AssetRow } from '../../assets/index.ts'
import type { SyndicationRow } from '../syndications-repository.ts'
import type { SyndicationType } from '../syndications-schemas.ts'
import { mediaOf, youtubeUrl } from './feed-media.ts'

type XMLBuilder = ReturnType<typeof create>

export const RSS_CONTENT_TYPE = 'application/rss+xml; charset=utf-8'

// RSS 2.0 (https://www.rssboard.org/rss-specification), Media RSS (https://www.rssboard.org/media-rss),
// Atom links for self and paging (RFC 5005 §3), iTunes podcast tags (Apple Podcasts RSS requirements),
// and for `youtube` the Media RSS elements YouTube's RSS feed ingestion requires of every item (the RSS
// form of the YouTube Content Feed Specification): media:content with the file's URL holding
// media:title, media:description, media:keywords and media:category.
const NS = {
  media: 'http://search.yahoo.com/mrss/',
  atom: 'http://www.w3.org/2005/Atom',
  itunes: 'http://www.itunes.com/dtds/podcast-1.0.dtd'
}

export interface FeedLinks {
  /** The feed's own URL (first page). */
  feed: string
  /** This page's URL. */
  self: string
  /** The next page's URL; absent on the last page. */
  next: string | undefined
}

/** Builds the feed document with an XML builder (never by concatenation), so every value is escaped. */
export function renderRss (syndication: SyndicationRow, assets: AssetRow[], links: FeedLinks, signOriginal?: (url: string) => string): string {
  const type = syndication.type as SyndicationType
  // Only a `source` feed behind an access key carries originals, signed (docs/resources.md, "Feed media").
  const originals = type === 'source' && syndication.require_access_key === 1 ? signOriginal : undefined
  const itunes = type === 'itunes'
  const doc = create({ version: '1.0', encoding: 'UTF-8' })
  const rss = doc.ele('rss', { version: '2.0', 'xmlns:media': NS.media, 'xmlns:atom': NS.atom, ...(itunes ? { 'xmlns:itunes': NS.itunes } : {}) })
  const channel = rss.ele('channel')
  const title = syndication.title === '' ? syndication.name : syndication.title
  channel.ele('title').txt(title)
  channel.ele('link').txt(links.feed)
  channel.ele('description').txt(syndication.description === '' ? title : syndication.description)
  channel.ele('atom:link', { rel: 'self', type: 'application/rss+xml', href: links.self })
  if (links.next !== undefined) channel.ele('atom:link', { rel: 'next', type: 'application/rss+xml', href: links.next })
  channel.ele('lastBuildDate').txt(rfc822(latest([syndication.updated_at, ...assets.map((a) => a.updated_at)])))
  channel.ele('generator').txt('Reelhouse')
  if (syndication.category !== null) channel.ele('category').txt(syndication.category)
  if (syndication.keywords !== null) channel.ele('media:keywords').txt(syndication.keywords)
  if (itunes) itunesChannel(channel, syndication)
  for (const asset of assets) {
    // YouTube fetches a file for every item: an asset without one has nothing to ingest.
    if (type === 'youtube' && mediaOf(asset, type) === undefined) continue
    item(channel.ele('item'), asset, syndication, originals)
  }
  return doc.end({ prettyPrint: false })
}

/** YouTube's category when the syndication names none: one of the categories its ingestion takes. */
export const YOUTUBE_DEFAULT_CATEGORY = 'Entertainment'

function itunesChannel (channel: XMLBuilder, syndication: SyndicationRow): void {
  if (syndication.author !== null) channel.ele('itunes:author').txt(syndication.author)
  if (syndication.description !== '') channel.ele('itunes:summary').txt(syndication.description)
  if (syndication.keywords !== null) channel.ele('itunes:keywords').txt(syndication.keywords)
  if (syndication.category !== null) channel.ele('itunes:category', { text: syndication.category })
  channel.ele('itunes:explicit').txt('false')
  channel.ele('itunes:type').txt('episodic')
}

function item (node: XMLBuilder, asset: AssetRow, syndication: SyndicationRow, signOriginal: ((url: string) => string) | undefined): void {
  const type = syndication.type as SyndicationType
  node.ele('title').txt(asset.name)
  if (asset.description !== '') node.ele('description').txt(asset.description)
  const page = youtubeUrl(asset)
  if (page !== undefined) node.ele('link').txt(page)
  node.ele('guid', { isPermaLink: 'false' }).txt(asset.id)
  node.ele('pubDate').txt(rfc822(asset.created_at))
  const seconds = Math.round(Number(asset.duration) / 1000)
  const media = mediaOf(asset, type, signOriginal)
  if (media !== undefined) {
    node.ele('enclosure', { url: media.url, length: String(asset.file_size ?? 0), type: media.type ?? 'application/octet-stream' })
  }
  // With a media URL, the descriptive Media RSS elements go inside media:content; without one, on the item.
  const holder = media === undefined
    ? node
    : node.ele('media:content', {
      url: media.url,
      medium: media.medium,
      isDefault: 'true',
      ...(media.type !== undefined ? { type: media.type } : {}),
      ...(seconds > 0 ? { duration: String(seconds) } : {}),
      ...(asset.file_size !== null ? { fileSize: String(asset.file_size) } : {})
    })
  holder.ele('media:title', { type: 'plain' }).txt(asset.name)
  if (asset.description !== '') holder.ele('media:description', { type: 'plain' }).txt(asset.description)
  else if (type === 'youtube') holder.ele('media:description', { type: 'plain' }).txt(asset.name)
  if (type === 'youtube') {
    holder.ele('media:keywords').txt(syndication.keywords ?? asset.name)
    holder.ele('media:category').txt(syndication.category ?? YOUTUBE_DEFAULT_CATEGORY)
  }
  if (asset.preview_image_url !== null) holder.ele('media:thumbnail', { url: asset.preview_image_url })
  if (page !== undefined) holder.ele('media:player', { url: page })
  if (type === 'itunes') {
    node.ele('itunes:title').txt(asset.name)
    if (asset.description !== '') node.ele('itunes:summary').txt(asset.description)
    if (seconds > 0) node.ele('itunes:duration').txt(String(seconds))
    if (asset.preview_image_url !== null) node.ele('itunes:image', { href: asset.preview_image_url })
    node.ele('itunes:explicit').txt('false')
    node.ele('itunes:episodeType').txt('full')
  }
}

/** RFC 822 dates, as RSS 2.0 wants them (`Sun, 22 Nov 2026 10:00:00 GMT`). */
function rfc822 (stored: string): string {
  return new Date(stored).toUTCString()
}

function latest (stored: string[]): string {
  return stored.reduce((a, b) => (a > b ? a : b))
}
