import { create } from 'xmlbuilder2'
import type { AssetRow } from '../../assets/index.ts'
import type { SyndicationRow } from '../syndications-repository.ts'
import { mediaOf, youtubeUrl } from './feed-media.ts'

export const SITEMAP_CONTENT_TYPE = 'application/xml; charset=utf-8'

// Google video sitemaps (developers.google.com/search/docs/crawling-indexing/sitemaps/video-sitemaps):
// the Sitemaps 0.9 `urlset` with Google's video extension 1.1.
const NS = { sitemap: 'http://www.sitemaps.org/schemas/sitemap/0.9', video: 'http://www.google.com/schemas/sitemap-video/1.1' }

/**
 * A Google video sitemap of the assets. Each `<url>` is the page the video is on (`loc`: the asset's
 * `hosted_at`, or a YouTube asset's watch page) with its `<video:video>`: the required
 * `thumbnail_loc`, `title`, `description` and a `content_loc` (the media URL) or `player_loc` (YouTube's
 * embed player), and the duration, publication date, tags and live flag when known. An asset without a
 * page, a preview image or either location is left out (docs/resources.md).
 */
export function renderVideoSitemap (syndication: SyndicationRow, assets: AssetRow[]): string {
  const doc = create({ version: '1.0', encoding: 'UTF-8' })
  const urlset = doc.ele('urlset', { xmlns: NS.sitemap, 'xmlns:video': NS.video })
  const tags = syndication.keywords === null ? [] : syndication.keywords.split(',').map((word) => word.trim()).filter((word) => word !== '').slice(0, 32)
  for (const asset of assets) {
    const page = asset.hosted_at ?? youtubeUrl(asset)
    const media = mediaOf(asset, 'google')
    const player = asset.asset_type === 'youtube' && asset.youtube_id !== null ? `https://www.youtube.com/embed/${encodeURIComponent(asset.youtube_id)}` : undefined
    if (page === undefined || asset.preview_image_url === null || (media === undefined && player === undefined)) continue
    const url = urlset.ele('url')
    url.ele('loc').txt(page)
    const video = url.ele('video:video')
    video.ele('video:thumbnail_loc').txt(asset.preview_image_url)
    video.ele('video:title').txt(asset.name)
    video.ele('video:description').txt((asset.description === '' ? asset.name : asset.description).slice(0, 2048))
    if (media !== undefined) video.ele('video:content_loc').txt(media.url)
    if (player !== undefined) video.ele('video:player_loc').txt(player)
    const seconds = Math.round(Number(asset.duration) / 1000)
    if (seconds >= 1 && seconds <= 28_800) video.ele('video:duration').txt(String(seconds))
    video.ele('video:publication_date').txt(new Date(asset.created_at).toISOString().replace(/\.\d{3}Z$/, '+00:00'))
    for (const tag of tags) video.ele('video:tag').txt(tag)
    video.ele('video:live').txt(asset.is_live_stream === 1 ? 'yes' : 'no')
  }
  return doc.end({ prettyPrint: false })
}
