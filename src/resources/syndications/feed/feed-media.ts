import { dictionary } from '../../../lib/dictionary.ts'
import { isUploadType, type AssetRow } from '../../assets/index.ts'
import type { SyndicationType } from '../syndications-schemas.ts'

/** Where an asset's media lives, as a feed item shows it. */
export interface FeedMedia {
  url: string
  /** MIME type guessed from the URL's extension; undefined when unknown. */
  type: string | undefined
  medium: 'video' | 'audio'
}

type StreamKey = 'flash' | 'iphone' | 'ipad' | 'itunes' | 'source_file' | 'smooth' | 'mp4' | 'm4a'

/**
 * Which stream URL of an asset each feed type prefers: `source` feeds the source file, iTunes its own
 * rendition, MP4 feeds the MP4 download (`mp4_support: "standard"`; for audio the M4A), else the stream, Roku the adaptive stream, YouTube a file it can
 * fetch and ingest (never a stream).
 */
const PREFERENCE: Record<SyndicationType, StreamKey[]> = {
  source: ['source_file'],
  itunes: ['itunes', 'iphone', 'ipad', 'source_file'],
  mp4: ['mp4', 'm4a', 'ipad', 'iphone', 'source_file'],
  roku: ['ipad', 'iphone', 'smooth', 'source_file'],
  mrss: ['source_file', 'ipad', 'iphone', 'itunes', 'smooth', 'flash'],
  google: ['source_file', 'ipad', 'iphone', 'itunes', 'smooth', 'flash'],
  youtube: ['source_file', 'itunes']
}

const MIME_TYPES = dictionary({
  mp4: 'video/mp4',
  m4v: 'video/x-m4v',
  mov: 'video/quicktime',
  webm: 'video/webm',
  flv: 'video/x-flv',
  '3gp': 'video/3gpp',
  ts: 'video/mp2t',
  m3u8: 'application/vnd.apple.mpegurl',
  ism: 'application/vnd.ms-sstr+xml',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  ogg: 'audio/ogg',
  wav: 'audio/wav'
})

/**
 * The media URL a feed item carries. An uploaded asset's original is private: its feeds carry the
 * renditions (the HLS master), except a `source` feed that requires an access key, which carries the
 * original's signed URL (`signOriginal`, given only for such a feed).
 */
export function mediaOf (asset: AssetRow, feedType: SyndicationType, signOriginal?: (url: string) => string): FeedMedia | undefined {
  if (asset.stream_urls === null) return undefined
  const urls = JSON.parse(asset.stream_urls) as Partial<Record<StreamKey, string | null>>
  const uploaded = isUploadType(asset.asset_type)
  const keys = uploaded && signOriginal === undefined ? PREFERENCE[feedType].filter((key) => key !== 'source_file') : PREFERENCE[feedType]
  const key = keys.find((k) => typeof urls[k] === 'string' && urls[k] !== '')
  if (key === undefined) return undefined
  const url = uploaded && key === 'source_file' && signOriginal !== undefined ? signOriginal(urls[key] as string) : urls[key] as string
  const type = mimeTypeOf(url)
  return { url, type, medium: asset.asset_type === 'audio' || type?.startsWith('audio/') === true ? 'audio' : 'video' }
}

export function mimeTypeOf (url: string): string | undefined {
  const path = url.split(/[?#]/, 1)[0] as string
  const dot = path.lastIndexOf('.')
  return dot === -1 || dot < path.lastIndexOf('/') ? undefined : MIME_TYPES[path.slice(dot + 1).toLowerCase()]
}

/** The page a YouTube asset plays on. */
export function youtubeUrl (asset: AssetRow): string | undefined {
  return asset.asset_type === 'youtube' && asset.youtube_id !== null ? `https://www.youtube.com/watch?v=${encodeURIComponent(asset.youtube_id)}` : undefined
}
