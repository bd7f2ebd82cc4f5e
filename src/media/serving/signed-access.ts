import type { FastifyRequest } from 'fastify'
import { ApiError } from '../../errors/index.ts'
import type { MediaWanted, ServedAsset } from './media-access.ts'
import { compileRules, enforceRules, type ViewerLookups } from './playback-rules.ts'
import type { Audience, PlaybackGrant, PlaybackTokens, TokenContext } from './playback-token.ts'

/** The audience a media request needs: the storyboard's files `s`, preview images `t`, everything else `v`. */
export function audienceOf (wanted: MediaWanted): Audience {
  if (wanted.what === 'storyboard') return 's'
  if (wanted.what === 'preview') return 't'
  if (wanted.what === 'rendition' && wanted.folder === 'storyboard') return 's'
  if (wanted.what === 'rendition' && wanted.folder === 'frames') return 't'
  return 'v'
}

/**
 * The token step of a signed asset's media request: the derived token in the URL's path (`:derived`, on
 * any route that has it) or the customer's JWT (`?token=`), bound to this asset, version and audience,
 * then the token's narrowing claims applied like a rule of their own.
 */
export function signedAccess (tokens: PlaybackTokens, lookups: ViewerLookups, now: () => number = Date.now) {
  return async function grantOf (media: ServedAsset, wanted: MediaWanted, req: FastifyRequest): Promise<{ grant: PlaybackGrant, ctx: TokenContext }> {
    const ctx: TokenContext = {
      accountId: media.accountId,
      assetId: media.assetId,
      version: wanted.what === 'rendition' ? wanted.version : media.version as string,
      aud: audienceOf(wanted)
    }
    const derived = (req.params as { derived?: unknown }).derived
    const jwt = (req.query as { token?: unknown } | undefined)?.token
    let grant: PlaybackGrant
    if (typeof derived === 'string') grant = await tokens.verifyDerived(derived, ctx)
    else if (typeof jwt === 'string' && jwt !== '') grant = await tokens.verifyJwt(jwt, ctx)
    else throw new ApiError('playback_token_required', 'This asset is signed: its media plays only with a playback token (`?token=` on the master URL).')
    const n = grant.narrowing
    if (n !== null) {
      const rules = compileRules(null, {
        allowed_devices: [],
        time_restrictions: { type: 'range', start_date: null, end_date: null, start_time: null, end_time: null, all_day: false, recurring_days: [] },
        domain_restrictions: n.allowed_domains === undefined ? { type: 'deny', domains: [] } : { type: 'allow', domains: n.allowed_domains, allow_no_referrer: false },
        geographic_restrictions: n.country === undefined ? { type: 'deny', countries: [] } : { type: 'allow', countries: n.country }
      })
      const viewer = { now: now(), userAgent: req.headers['user-agent'], origin: req.headers.origin, referer: req.headers.referer, address: req.ip }
      enforceRules(rules, viewer, lookups)
    }
    return { grant, ctx }
  }
}

export type SignedAccess = ReturnType<typeof signedAccess>
