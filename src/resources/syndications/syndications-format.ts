import { apiTime } from '../../lib/clock.ts'
import type { AccessKeyRow, SyndicationRow } from './syndications-repository.ts'
import type { ApiAccessKey, ApiSyndication, SyndicationType } from './syndications-schemas.ts'

/**
 * The one mapping from a syndications row (and its label ids) to the API shape. `feed_url` is relative
 * to the service's base address, like `next_page`; it names the account (`pcode`) because the feed is public.
 */
export function toApiSyndication (row: SyndicationRow, labelIds: string[], accountCode: string): ApiSyndication {
  return {
    id: row.id,
    name: row.name,
    type: row.type as SyndicationType,
    include_all_content: row.include_all_content === 1,
    include_labels: labelIds,
    asset_types: JSON.parse(row.asset_types) as string[],
    title: row.title,
    description: row.description,
    keywords: row.keywords,
    author: row.author,
    category: row.category,
    require_access_key: row.require_access_key === 1,
    feed_url: feedPath(row.id, accountCode),
    created_at: apiTime(row.created_at) as string,
    updated_at: apiTime(row.updated_at) as string
  }
}

export function feedPath (syndicationId: string, accountCode: string): string {
  return `/v2/syndications/${syndicationId}/feed?pcode=${encodeURIComponent(accountCode)}`
}

export function toApiAccessKey (row: AccessKeyRow): ApiAccessKey {
  return { access_key: row.access_key, created_at: apiTime(row.created_at) as string }
}
