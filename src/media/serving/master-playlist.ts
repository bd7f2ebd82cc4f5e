import { hash } from 'node:crypto'
import { chargeDerived } from '../../db/index.ts'
import type { StreamState } from '../asset-state/index.ts'

/**
 * One rendition of a media version as its row records it (`media_versions.renditions`, written by the
 * worker as the rendition grows): what the master playlist needs of it.
 */
export type PlaylistRendition = Pick<StreamState, 'name' | 'kind' | 'state' | 'width' | 'height' | 'bandwidth' | 'average_bandwidth' | 'codecs' | 'in_master' | 'duration_ms'>

/** The asset whose master is rendered, as the media token named it. */
export interface MasterAsset {
  assetId: string
}

/**
 * What a feature adds to the master it serves. Every hook is optional; without any, the master names
 * each rendition's playlist relative to the master's URL (`<version>/<rendition>/index.m3u8`).
 */
export interface MasterPlaylistOptions {
  /**
   * Rewrites a variant's URI (the default one is passed in): a query carrying a playback token, a clip's
   * range, an absolute URL.
   */
  childUri?: (uri: string, rendition: PlaylistRendition) => string
  /**
   * Lines after the header and before the variants: `#EXT-X-MEDIA:TYPE=SUBTITLES,…` groups,
   * `#EXT-X-SESSION-KEY:…`, `#EXT-X-START:…`. Written as given, one per entry.
   */
  mediaLines?: readonly string[]
  /** Attributes added to a variant's `#EXT-X-STREAM-INF` (e.g. `SUBTITLES="subs"`), as `NAME=value` strings. */
  streamAttributes?: (rendition: PlaylistRendition) => readonly string[]
}

/** The renditions a master names: those the worker marked (rows written before the mark: the ready ones). */
export function inMaster (renditions: readonly PlaylistRendition[]): PlaylistRendition[] {
  return renditions.filter((r) => r.state !== 'failed' && (r.in_master ?? r.state === 'ready') && r.bandwidth !== null)
}

/** The renditions a master names, in the order it lists them: lowest bandwidth first. */
export function masterOrder (renditions: readonly PlaylistRendition[]): PlaylistRendition[] {
  return inMaster(renditions).sort((a, b) => (a.bandwidth as number) - (b.bandwidth as number))
}

/**
 * The master playlist of `version`'s renditions that have entered it, lowest bandwidth first (a player
 * starting with the first variant starts fast). BANDWIDTH is the rendition's peak, AVERAGE-BANDWIDTH its
 * mean, CODECS and RESOLUTION what it was encoded with. Rendered from the version's row on request, so a
 * rendition appears the moment the worker records that its first segments exist. Null when no rendition
 * has entered it yet.
 */
export function renderMasterPlaylist (
  accountId: string, asset: MasterAsset, version: string, renditions: readonly PlaylistRendition[], options: MasterPlaylistOptions = {}
): string | null {
  void accountId
  void asset
  const entries = masterOrder(renditions)
  if (entries.length === 0) return null
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-INDEPENDENT-SEGMENTS', ...(options.mediaLines ?? [])]
  for (const r of entries) {
    const attributes = [
      `BANDWIDTH=${r.bandwidth as number}`,
      ...(r.average_bandwidth === null ? [] : [`AVERAGE-BANDWIDTH=${r.average_bandwidth}`]),
      `CODECS="${r.codecs}"`,
      ...(r.width !== null && r.height !== null ? [`RESOLUTION=${r.width}x${r.height}`] : []),
      ...(options.streamAttributes?.(r) ?? [])
    ]
    const uri = `${version}/${r.name}/index.m3u8`
    lines.push(`#EXT-X-STREAM-INF:${attributes.join(',')}`, options.childUri?.(uri, r) ?? uri)
  }
  return lines.join('\n') + '\n'
}

/** A rendered master as it is sent: its bytes and their validator. */
export interface RenderedMaster {
  body: Buffer
  etag: string
}

/** Rendered masters, by the token lookup's value they were rendered from, then by the request's variant key. */
const rendered = new WeakMap<object, Map<string, RenderedMaster>>()

/**
 * The master for `source` (the token lookup's value: the asset, its served version and that version's
 * renditions), rendered once per variant key while `source` stays in the read cache. The lookup's entry
 * is dropped through the invalidation bus whenever the version's renditions change (each progress tick
 * and state change notes the asset), so a kept master never outlives the row it came from; with no bus
 * there is no cached lookup, so nothing is kept (`chargeDerived` answers false for a value the cache
 * does not hold). `key` must name everything `options` depends on (empty for the plain master).
 */
export function cachedMaster (source: object, key: string, render: () => string | null): RenderedMaster | null {
  const kept = rendered.get(source)?.get(key)
  if (kept !== undefined) return kept
  const text = render()
  if (text === null) return null
  const body = Buffer.from(text)
  const master = { body, etag: `"${hash('sha1', body, 'base64url').slice(0, 22)}"` }
  // Counted in the read cache's byte budget with the lookup it came from; kept only while that is held.
  if (chargeDerived(source, body.length + key.length + 64)) {
    let byKey = rendered.get(source)
    if (byKey === undefined) rendered.set(source, byKey = new Map())
    byKey.set(key, master)
  }
  return master
}
