import { Type } from 'typebox'
import { Problem, SignedErrors, SignedQuery } from '../../http/schemas.ts'
import { DIMENSIONS, EVENT_NAMES, METRICS, TIME_SEGMENTS } from '../model.ts'

/**
 * Request and response schemas of `/v2/analytics` (product.md §9). Collection and report parameters
 * are validated by the engine, whose messages name the field and the rule; these schemas describe
 * them for the OpenAPI document without a second, differently worded validation.
 */

const described = (description: string) => Type.Unknown({ description })

/** Documentation only (no `type`): any JSON reaches the engine, which answers in its own words. */
export const EventBatch = Type.Unsafe<unknown>({
  description: 'One player session\'s events; ≤ 1,000 events and ≤ 1 MiB. Unknown fields are ignored.',
  properties: {
    account_code: described('The account\'s code (the part of an API key before the dot)'),
    session_id: described('The player session, 1–128 characters'),
    asset_id: described('Embed code of an asset of the account'),
    player_id: described('Optional player id'),
    device: described('Optional `{id, user_agent}`: `id` counts unique viewers, `user_agent` overrides the header'),
    domain: described('Optional page host; else the host of `page_url`, else of the Referer'),
    page_url: described('Optional page URL'),
    country: described('Optional ISO 3166 alpha-2 country, used when no GeoIP database answers'),
    events: described(`1–1,000 events \`{name, time, percent?, value?, country?}\`; names: ${EVENT_NAMES.join(', ')}`)
  }
})

export const ImportQuery = Type.Object({
  ...SignedQuery,
  import_id: Type.Optional(Type.String({ description: 'Makes a retry harmless: an import_id already imported stores nothing again' }))
})

export const ImportResult = Type.Object({
  import_id: Type.String(),
  imported: Type.Integer({ description: 'Events stored (0 for an import_id imported before)' }),
  duplicate: Type.Boolean()
})

const text = (description: string) => Type.Optional(Type.String({ description }))

export const ReportQuery = Type.Object({
  ...SignedQuery,
  start_date: text('YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ (UTC), required'),
  end_date: text('Exclusive; default tomorrow (UTC)'),
  dimensions: text(`Up to 3 of ${DIMENSIONS.join(', ')}, comma-separated`),
  metrics: text(`Comma-separated; default all: ${METRICS.join(', ')}`),
  filters: text("dim=='v' or dim!='v', joined by ; (and) and | (or), parentheses allowed"),
  time_segment: text(`${TIME_SEGMENTS.join('|')}; default total`),
  sort: text('Comma-separated metrics or dimensions; +name ascending, name or -name descending'),
  limit: text('Rows per page, 1–1000 (default 1000)'),
  page_token: text('Opaque token from next_page'),
  paging_token: text('Synonym of page_token')
})

export const ClassicReportQuery = Type.Object({
  ...SignedQuery,
  breakdown_by: text('day|week|month'),
  order_by: text('plays|displays|video_starts|time_watched|replays'),
  metrics: text('Comma-separated; default all'),
  limit: text('Rows per page, 1–1000 (default 1000)'),
  page_token: text('Opaque token from next_page')
})

export const ClassicReportParams = Type.Object({
  '*': Type.String({ description: '{account | asset/ID}/performance/{total|videos|countries|domains|device_types}[/value]/{YYYY-MM-DD[...YYYY-MM-DD]}' })
})

export const ReportAnswer = Type.Object({
  results: Type.Array(Type.Object({
    start_date: Type.String(),
    end_date: Type.String({ description: 'Exclusive' }),
    data: Type.Array(Type.Object({
      group: Type.Record(Type.String(), Type.String(), { description: 'The row\'s value of each requested dimension' }),
      metrics: Type.Record(Type.String(), Type.Number())
    }))
  })),
  total_count: Type.Integer({ description: 'Rows (segment × group) of the whole report, over all pages' }),
  next_page: Type.Optional(Type.String({ description: 'Relative URL of the next page; absent on the last page' }))
})

export const AnalyticsErrors = { ...SignedErrors, 413: Problem, 503: Problem }
export const CollectErrors = { 400: Problem, 413: Problem, 429: Problem, 503: Problem }
