import type { Database } from '../../../db/index.ts'
import { ApiError } from '../../../errors/api-error.ts'
import { toPage, type PageParams } from '../../../paging/index.ts'
import { createAccountsRepository } from '../../accounts/index.ts'
import { createAssetsRepository, NEWEST_FIRST } from '../../assets/index.ts'
import { createSyndicationsRepository } from '../syndications-repository.ts'
import { feedPath } from '../syndications-format.ts'
import { renderRss } from './feed-xml.ts'

export interface FeedRequest {
  syndicationId: string
  /** The account code: the feed is public, so the URL names the account (`pcode`). */
  pcode: string
  accessKey: string | undefined
  page: PageParams
  /** The address the feed's links start with (PUBLIC_API_URL or PUBLIC_CDN_URL). */
  origin: string
  /** This request's path and query, for `atom:link rel="self"`. */
  url: string
}

export interface FeedDeps {
  database: Database
}

/** The public feed of a syndication. */
export function createFeedService ({ database }: FeedDeps) {
  const accounts = createAccountsRepository(database.db)
  const syndications = createSyndicationsRepository(database.db)
  const assets = createAssetsRepository(database.db)
  return {
    /**
     * The live assets the syndication includes (all content, or the assets carrying one of
     * `include_labels`; only `asset_types` when set), newest first, as RSS 2.0. Without a required
     * access key: 401; with a wrong one: 403.
     */
    async render (request: FeedRequest): Promise<string> {
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
      const rows = await assets.page(account.id, {
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
  }
}

export type FeedService = ReturnType<typeof createFeedService>
