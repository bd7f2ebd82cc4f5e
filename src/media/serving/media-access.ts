import type { FastifyRequest } from 'fastify'
import { ApiError } from '../../errors/index.ts'
import type { PlaylistRendition } from './master-playlist.ts'
import { compileRules, enforceRules, NO_RULES, type CompiledRules, type RuleRestrictions, type TimeWindow, type ViewerLookups } from './playback-rules.ts'

/** The asset a media token names, as the token lookup found it (kept per asset version in the read cache). */
export interface ServedAsset {
  accountId: string
  assetId: string
  /** The version the asset serves; null before its first rendition is ready. */
  version: string | null
  originalKey: string | null
  originalFileName: string | null
  status: string
  ruleId: string | null
  /** `public`, `signed`, or null for the rule's. */
  playbackPolicy: string | null
  timeRestrictions: string | null
  /** The asset's player, or null (the account's default player). */
  playerId: string | null
  /** `none` or `aes-128`: encrypted media is served over HTTPS only, by the api listener. */
  encryption: string
  /** The served version's renditions as its row records them (the master is rendered from them); [] without one. */
  renditions: PlaylistRendition[]
}

/** What a media request asks for: a file following the served version, or a rendition file of the version its URL names. */
export type MediaWanted = { what: 'master' | 'preview' | 'storyboard' | 'download' | 'source' | 'captions' | 'key' } | { what: 'rendition', version: string, folder?: string }

/** How a request was admitted: no rule touches it, a rule does (its answer is the viewer's own), or it is signed. */
export type Access = 'public' | 'ruled' | 'signed'

/**
 * One rule every media request passes before any file is read or redirected to, decided from the asset
 * (what the token lookup kept) and the request; it refuses by throwing an ApiError. They hold for
 * proxied and redirected files alike (docs/media.md, docs/playback.md).
 */
export type MediaCheck = (asset: ServedAsset, wanted: MediaWanted, request: FastifyRequest) => void

const NOT_FOUND = (): ApiError => new ApiError('media_not_found', 'No media is served at this URL.')

/** Only a live asset's media plays: a paused, unfinished or failed one answers why not. */
const playable: MediaCheck = (asset) => {
  switch (asset.status) {
    case 'live': break
    case 'paused': throw new ApiError('asset_paused', 'This asset is paused.')
    case 'error': throw new ApiError('asset_errored', 'This asset\'s processing failed; it has nothing to play.')
    default: throw new ApiError('asset_not_ready', 'This asset has no playable media yet.')
  }
  if (asset.version === null) throw new ApiError('asset_not_ready', 'This asset has no playable media yet.')
}

/** The asset has the file at all: an original for the source. */
const servesIt: MediaCheck = (asset, wanted) => {
  if (wanted.what === 'source' && asset.originalKey === null) throw NOT_FOUND()
}

/** The checks in order; the first to refuse answers. */
export const MEDIA_CHECKS: readonly MediaCheck[] = [playable, servesIt]

/** Decides a media request: the asset it names (404 when none), after every check; answers the asset. */
export function decide (asset: ServedAsset | undefined, wanted: MediaWanted, request: FastifyRequest, checks: readonly MediaCheck[] = MEDIA_CHECKS): ServedAsset {
  if (asset === undefined) throw NOT_FOUND()
  for (const check of checks) check(asset, wanted, request)
  return asset
}

/** A publishing rule row as its repository reads it (kept in the read cache while unchanged). */
export type RuleLookup = (accountId: string, ruleId: string) => Promise<object | undefined>

export interface PlaybackRulesDeps {
  rule: RuleLookup
  /** A rule row's restrictions, over the defaults. */
  restrictionsOf: (row: object) => RuleRestrictions
  lookups: ViewerLookups
  now?: () => number
}

/**
 * The publishing rules of every media request: the asset's own time restrictions and its rule's, both
 * compiled once per cached row (an asset version, a rule) and dropped with it through the bus, then
 * checked against the request (its time, user agent, site and address).
 */
export function playbackRules ({ rule, restrictionsOf, lookups, now = Date.now }: PlaybackRulesDeps) {
  const compiled = new WeakMap<object, CompiledRules>()

  function ofAsset (asset: ServedAsset): CompiledRules {
    let rules = compiled.get(asset)
    if (rules === undefined) {
      rules = asset.timeRestrictions === null ? NO_RULES : compileRules(JSON.parse(asset.timeRestrictions) as TimeWindow, null)
      compiled.set(asset, rules)
    }
    return rules
  }

  async function ofRule (asset: ServedAsset): Promise<CompiledRules> {
    if (asset.ruleId === null) return NO_RULES
    const row = await rule(asset.accountId, asset.ruleId)
    if (row === undefined) return NO_RULES
    let rules = compiled.get(row)
    if (rules === undefined) {
      rules = compileRules(null, restrictionsOf(row))
      compiled.set(row, rules)
    }
    return rules
  }

  /**
   * Refuses what the rules forbid; answers whether any rule applies (the answer is then private) and
   * whether the asset is signed (its own policy, else its rule's).
   */
  return async function enforce (asset: ServedAsset, request: FastifyRequest): Promise<Access> {
    const own = ofAsset(asset)
    const ruled = await ofRule(asset)
    const signed = asset.playbackPolicy === null ? ruled.signed : asset.playbackPolicy === 'signed'
    if (own === NO_RULES && ruled === NO_RULES) return signed ? 'signed' : 'public'
    const origin = request.headers.origin
    const referer = request.headers.referer
    const viewer = { now: now(), userAgent: request.headers['user-agent'], origin, referer, address: request.ip }
    enforceRules(own, viewer, lookups)
    enforceRules(ruled, viewer, lookups)
    return signed ? 'signed' : 'ruled'
  }
}
