import type { FastifyRequest } from 'fastify'
import { ApiError } from '../../errors/index.ts'

/** The asset a media token names, as the token lookup found it (kept per asset version in the read cache). */
export interface ServedAsset {
  accountId: string
  assetId: string
  /** The version the asset serves; null before its first rendition is ready. */
  version: string | null
  originalKey: string | null
  originalFileName: string | null
}

/** What a media request asks for: a file following the served version, or a rendition file of the version its URL names. */
export type MediaWanted = { what: 'master' | 'preview' | 'source' | 'captions' } | { what: 'rendition', version: string }

/**
 * One rule every media request passes before any file is read or redirected to, decided from the asset
 * (what the token lookup kept) and the request; it refuses by throwing an ApiError. Playback rules and
 * tokens join the list here, so they hold for proxied and redirected files alike (docs/media.md).
 */
export type MediaCheck = (asset: ServedAsset, wanted: MediaWanted, request: FastifyRequest) => void

const NOT_FOUND = (): ApiError => new ApiError('media_not_found', 'No media is served at this URL.')

/** The asset has the file at all: a served version for the master and preview, an original for the source. */
const servesIt: MediaCheck = (asset, wanted) => {
  if (wanted.what === 'rendition') return
  if (asset.version === null) throw NOT_FOUND()
  if (wanted.what === 'source' && asset.originalKey === null) throw NOT_FOUND()
}

/** The checks in order; the first to refuse answers. */
export const MEDIA_CHECKS: readonly MediaCheck[] = [servesIt]

/** Decides a media request: the asset it names (404 when none), after every check; answers the asset. */
export function decide (asset: ServedAsset | undefined, wanted: MediaWanted, request: FastifyRequest, checks: readonly MediaCheck[] = MEDIA_CHECKS): ServedAsset {
  if (asset === undefined) throw NOT_FOUND()
  for (const check of checks) check(asset, wanted, request)
  return asset
}
