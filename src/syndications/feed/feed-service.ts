import { NEWEST_FIRST } from '../../assets/index.ts'
import { ApiError } from '../../errors/api-error.ts'
import { toPage, type PageParams } from '../../paging/index.ts'
import type { SyndicationsContext } from '../syndications-context.ts'
import { feedPath } from '../syndications-format.ts'
import { renderRss } from './feed-xml.ts'

export interface FeedRequest {
  syndicationId: string
  /** The account code: the feed is public, so the URL names the account (`pcode`, as Backlot feeds do). */
  pcode: string
  accessKey: string | undefined
  page: PageParams
  /** `https://host:port` the request arrived at, for the feed's absolute links. */
  origin: string
  /** This request's path and query, for `atom:link rel="self"`. */
  url: string
}

/**
 * `GET /v2/syndications/:id/feed`: the live assets the syndication includes (all content, or the assets
 * carrying one of `include_labels`; only `asset_types` when set), newest first, as RSS 2.0.
 * Without a required access key: 401; with a wrong one: 403.
 */
export async function renderFeed (ctx: SyndicationsContext, request: FeedRequest): Promise<string> {
  const account = await ctx.accounts.findByCode(request.pcode)
  const syndication = account === undefined ? undefined : await ctx.syndications.find(account.id, request.syndicationId)
  if (account === undefined || syndication === undefined) {
    throw new ApiError('syndication_not_found', `Syndication ${request.syndicationId} does not exist.`)
  }
  if (syndication.require_access_key === 1) {
    if (request.accessKey === undefined || request.accessKey === '') throw new ApiError('access_key_required', 'This feed requires an access_key parameter.')
    if (!await ctx.syndications.hasAccessKey(account.id, syndication.id, request.accessKey)) throw new ApiError('access_key_invalid', 'The access_key is not valid for this feed.')
  }
  const labelIds = syndication.include_all_content === 1
    ? undefined
    : (await ctx.syndications.labelIdsOf(account.id, [syndication.id])).map((row) => row.label_id)
  const rows = await ctx.assets.page(account.id, {
    ownerId: undefined,
    statuses: ['live'],
    assetTypes: JSON.parse(syndication.asset_types) as string[],
    anyLabelIds: labelIds,
    order: NEWEST_FIRST
  }, request.page)
  const page = toPage(rows, request.page, (row) => [row.created_at, row.id], (row) => row)
  return renderRss(syndication, page.items, {
    feed: request.origin + feedPath(syndication.id, account.code),
    self: request.origin + request.url,
    next: page.next_page === undefined ? undefined : request.origin + page.next_page
  })
}
