import type { Database } from '../../../db/index.ts'
import { ApiError } from '../../../errors/api-error.ts'
import { toPage, type PageParams } from '../../../paging/index.ts'
import { createAccountsRepository } from '../../accounts/index.ts'
import { createAssetsRepository, NEWEST_FIRST } from '../../assets/index.ts'
import { createSyndicationsRepository } from '../syndications-repository.ts'
import { feedPath } from '../syndications-format.ts'
import { renderRoku, ROKU_CONTENT_TYPE } from './feed-roku.ts'
import { renderVideoSitemap, SITEMAP_CONTENT_TYPE } from './feed-sitemap.ts'
import { renderRss, RSS_CONTENT_TYPE } from './feed-xml.ts'

export interface FeedRequest {
  syndicationId: string
  /** The account code: the feed is public, so the URL names the account (`pcode`). */
  pcode: string
  accessKey: string | undefined
  /** The page; its limit is the feed's own default when the request gave none (`limitGiven`). */
  page: PageParams
  limitGiven: boolean
  /** The address the feed's links start with (PUBLIC_API_URL or PUBLIC_CDN_URL). */
  origin: string
  /** This request's path and query, for `atom:link rel="self"`. */
  url: string
}

/** What a consumer reading one document gets when the request names no limit: Roku and Google read no next page. */
const ONE_DOCUMENT_LIMIT = 500
/** The page other feeds show when the request names no limit, as the API family's feeds do. */
export const FEED_DEFAULT_LIMIT = 20

/** The feed's body and its media type. */
export interface RenderedFeed { body: string, contentType: string }

export interface FeedDeps {
  database: Database
  /** Signs an original's URL for a `source` feed that requires an access key. */
  signOriginal?: (url: string) => string
}

/** The public feed of a syndication. */
export function createFeedService ({ database, signOriginal }: FeedDeps) {
  const accounts = createAccountsRepository(database.db)
  const syndications = createSyndicationsRepository(database.db)
  const assets = createAssetsRepository(database.db)
  return {
    /**
     * The live assets the syndication includes (all content, or the assets carrying one of
     * `include_labels`; only `asset_types` when set), newest first, in the form the syndication's type
     * names: RSS 2.0 with Media RSS, Roku's JSON feed, or a Google video sitemap (docs/resources.md).
     * Without a required access key: 401; with a wrong one: 403.
     */
    async render (request: FeedRequest): Promise<RenderedFeed> {
      const account = await accounts.findByCode(request.pcode)
      const syndication = account === undefined ? undefined : await syndications.find(account.id, request.syndicationId)
      if (account === undefined || syndication === undefined) {
        throw new ApiError('syndication_not_found', `Syndication ${request.syndicationId} does not exist.`)
      }
      if (syndication.require_access_key === 1) {
        if (request.accessKey === undefined || request.accessKey === '') throw new ApiError('access_key_required', 'This feed requires an access_key parameter.')
        if (!await syndications.hasAccessKey(account.id, syndication.id, request.accessKey)) throw new ApiError('access_key_invalid', 'The access_key is not valid for this feed.')
      }
      const labelIds = syndication.include_all_content === 1
        ? undefined
        : (await syndications.labelIdsOf(account.id, [syndication.id])).map((row) => row.label_id)
      const oneDocument = syndication.type === 'roku' || syndication.type === 'google'
      const pageParams = request.limitGiven ? request.page : { ...request.page, limit: oneDocument ? ONE_DOCUMENT_LIMIT : FEED_DEFAULT_LIMIT }
      const rows = await assets.page(account.id, {
        ownerId: undefined,
        statuses: ['live'],
        assetTypes: JSON.parse(syndication.asset_types) as string[],
        anyLabelIds: labelIds,
        order: NEWEST_FIRST
      }, pageParams)
      const page = toPage(rows, pageParams, (row) => [row.created_at, row.id], (row) => row)
      if (syndication.type === 'roku') return { body: renderRoku(syndication, page.items, account.name), contentType: ROKU_CONTENT_TYPE }
      if (syndication.type === 'google') return { body: renderVideoSitemap(syndication, page.items), contentType: SITEMAP_CONTENT_TYPE }
      const body = renderRss(syndication, page.items, {
        feed: request.origin + feedPath(syndication.id, account.code),
        self: request.origin + request.url,
        next: page.next_page === undefined ? undefined : request.origin + page.next_page
      }, signOriginal)
      return { body, contentType: RSS_CONTENT_TYPE }
    }
  }
}

export type FeedService = ReturnType<typeof createFeedService>
