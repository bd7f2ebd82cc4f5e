import type { AssetRow } from '../../assets/index.ts'
import type { SyndicationRow } from '../syndications-repository.ts'
import { mediaOf } from './feed-media.ts'

/**
 * Roku's JSON content feed: the Direct Publisher Feed Specification (JSON), in its last revision of
 * 2017-05-02 (github.com/rokudev/feed-specifications). Roku retired Direct Publisher; its channel templates
 * still read this format. Each asset is a `shortFormVideo` with every field the specification requires:
 * `id`, `title`, `content` (`dateAdded`, `videos` with `url`, `quality`, `videoType`, and `duration`),
 * `thumbnail`, `shortDescription`, `releaseDate`. An asset without a preview image or a stream Roku
 * plays (HLS, DASH, Smooth, MP4, MOV, M4V) is left out, and so are audio assets (docs/resources.md).
 */
export const ROKU_CONTENT_TYPE = 'application/json; charset=utf-8'

interface RokuVideo { url: string, quality: 'HD', videoType: string, bitrate?: number }

/** Roku's `videoType` for a URL's extension. */
const VIDEO_TYPES: Record<string, string> = { m3u8: 'HLS', mpd: 'DASH', ism: 'SMOOTH', mp4: 'MP4', mov: 'MOV', m4v: 'M4V' }

export function renderRoku (syndication: SyndicationRow, assets: AssetRow[], providerName: string): string {
  const lastUpdated = [syndication.updated_at, ...assets.map((asset) => asset.updated_at)].reduce((a, b) => (a > b ? a : b))
  const shortFormVideos = assets.flatMap((asset) => {
    const video = rokuVideo(asset)
    if (video === undefined || asset.preview_image_url === null) return []
    const short = asset.description === '' ? asset.name : clip(asset.description, 200)
    return [{
      id: asset.id,
      title: asset.name,
      content: { dateAdded: rokuTime(asset.created_at), videos: [video], duration: Math.round(Number(asset.duration) / 1000) },
      thumbnail: asset.preview_image_url,
      shortDescription: short,
      ...(asset.description.length > 200 ? { longDescription: clip(asset.description, 500) } : {}),
      releaseDate: asset.created_at.slice(0, 10),
      ...(syndication.keywords === null ? {} : { tags: keywordsOf(syndication.keywords) })
    }]
  })
  return JSON.stringify({ providerName, lastUpdated: rokuTime(lastUpdated), language: 'en', shortFormVideos })
}

function rokuVideo (asset: AssetRow): RokuVideo | undefined {
  const media = mediaOf(asset, 'roku')
  if (media === undefined || media.medium !== 'video') return undefined
  const path = media.url.split(/[?#]/, 1)[0] as string
  const extension = /\.([a-z0-9]+)(\/manifest)?$/i.exec(path)?.[1]?.toLowerCase()
  const videoType = extension === undefined ? undefined : VIDEO_TYPES[extension]
  if (videoType === undefined) return undefined
  const adaptive = videoType === 'HLS' || videoType === 'DASH' || videoType === 'SMOOTH'
  const ms = Number(asset.duration)
  // A progressive file needs its bit rate (kbit/s): its size over its duration.
  const bitrate = !adaptive && asset.file_size !== null && ms > 0 ? Math.round((Number(asset.file_size) * 8) / ms) : undefined
  return { url: media.url, quality: 'HD', videoType, ...(bitrate === undefined ? {} : { bitrate }) }
}

/** `2026-11-22T10:00:00+00:00`, the form the specification shows. */
function rokuTime (stored: string): string {
  return `${new Date(stored).toISOString().slice(0, 19)}+00:00`
}

function clip (text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`
}

/** Tags are at most 20 characters each. */
function keywordsOf (keywords: string): string[] {
  return keywords.split(',').map((word) => word.trim()).filter((word) => word !== '' && word.length <= 20)
}
