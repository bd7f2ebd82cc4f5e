import { Type } from 'typebox'
import { Problem, SignedErrors, SignedQuery } from '../../http/schemas.ts'
import { DIMENSIONS, EVENT_NAMES, METRICS, PLAYTHROUGH_PERCENTS, TIME_SEGMENTS } from '../model.ts'

/**
 * Request and response schemas of `/v2/analytics` (docs/analytics.md). Collection and report parameters
 * are validated by the engine, whose messages name the field and the rule; these schemas describe
 * them for the OpenAPI document without a second, differently worded validation.
 */

/** One event of a batch (the engine checks it: `src/analytics/collect/fields.ts`). */
const CollectedEvent = Type.Object({
  name: Type.Enum(EVENT_NAMES),
  time: Type.Union([Type.String(), Type.Integer()], { description: 'ISO 8601 with a time zone, or integer epoch milliseconds' }),
  percent: Type.Optional(Type.Union(PLAYTHROUGH_PERCENTS.map((percent) => Type.Literal(percent)), { description: 'playthrough only' })),
  value: Type.Optional(Type.Integer({ description: 'time_watched only: milliseconds watched' })),
  country: Type.Optional(Type.String({ description: 'ISO 3166 alpha-2; overrides the batch\'s country for this event' }))
})

/**
 * The fields of an event batch, typed: the TypeScript client's types come from here. The engine
 * validates batches itself, in its own words, so the route's schema (`EventBatch`) keeps only the
 * descriptions, without a second, differently worded validation.
 */
export const EventBatchFields = Type.Object({
  account_code: Type.String({ description: 'The account\'s code (the part of an API key before the dot)' }),
  session_id: Type.String({ description: 'The player session, 1–128 characters' }),
  asset_id: Type.String({ description: 'Embed code of an asset of the account' }),
  player_id: Type.Optional(Type.String({ description: 'Optional player id' })),
  device: Type.Optional(Type.Object({ id: Type.Optional(Type.String()), user_agent: Type.Optional(Type.String()) }, {
    description: 'Optional `{id, user_agent}`: `id` counts unique viewers, `user_agent` overrides the header'
  })),
  domain: Type.Optional(Type.String({ description: 'Optional page host; else the host of `page_url`, else of the Referer' })),
  page_url: Type.Optional(Type.String({ description: 'Optional page URL' })),
  country: Type.Optional(Type.String({ description: 'Optional ISO 3166 alpha-2 country, used when no GeoIP database answers' })),
  events: Type.Array(CollectedEvent, { description: `1–1,000 events \`{name, time, percent?, value?, country?}\`; names: ${EVENT_NAMES.join(', ')}` })
})
const field = (description: string, example: unknown) => Type.Unknown({ description, examples: [example] })

/** Documentation only (no `type`): any JSON reaches the engine, which answers in its own words. */
export const EventBatch = Type.Unsafe<unknown>({
  description: 'One player session\'s events; ≤ 1,000 events and ≤ 1 MiB. Unknown fields are ignored.',
  properties: {
    account_code: field('The account\'s code (the part of an API key before the dot)', 'Kq3Zr8WmT2xYb6NcVp1LdG9HsFj4'),
    session_id: field('The player session, 1–128 characters', 's-81f2'),
    asset_id: field('Embed code of an asset of the account', 'Zk3jQ9x-Lm2Pq8Rt5Vw1Yb4Nc7Hd0Gf6'),
    player_id: field('Optional player id', '3f2a9c0e5b7d4e1fa6c8b0d2e4f60718'),
    device: field('Optional `{id, user_agent}`: `id` counts unique viewers, `user_agent` overrides the header', { id: 'tv-42' }),
    domain: field('Optional page host; else the host of `page_url`, else of the Referer', 'news.example.com'),
    page_url: field('Optional page URL', 'https://news.example.com/final'),
    country: field('Optional ISO 3166 alpha-2 country, used when no GeoIP database answers', 'GB'),
    events: field(`1–1,000 events \`{name, time, percent?, value?, country?}\`; \`time\` is ISO 8601 or epoch milliseconds; names: ${EVENT_NAMES.join(', ')}`,
      [{ name: 'display', time: '2026-11-22T09:59:58Z' }, { name: 'playthrough', percent: 25, time: 1795341600000 }])
  }
})

export const ImportQuery = Type.Object({
  ...SignedQuery,
  import_id: Type.Optional(Type.String({ description: 'Makes a retry harmless: an import_id already imported stores nothing again', examples: ['backfill-2025-05'] }))
})

export const ImportResult = Type.Object({
  import_id: Type.String({ description: 'The import\'s id, given or generated', examples: ['backfill-2025-05'] }),
  imported: Type.Integer({ description: 'Events stored (0 for an import_id imported before)', examples: [300] }),
  duplicate: Type.Boolean({ description: 'Whether this import_id had been imported before', examples: [false] })
}, { title: 'ImportResult', description: 'What an import stored' })

const text = (description: string, example: string) => Type.Optional(Type.String({ description, examples: [example] }))
const PAGE_TOKEN = 'eyJwIjpbMTAwMF19.Zk3j'

export const ReportQuery = Type.Object({
  ...SignedQuery,
  start_date: text('YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ (UTC), required', '2026-11-01'),
  end_date: text('Exclusive; default tomorrow (UTC)', '2026-12-01'),
  dimensions: text(`Up to 3 of ${DIMENSIONS.join(', ')}, comma-separated`, 'asset,country'),
  metrics: text(`Comma-separated; default all: ${METRICS.join(', ')}`, 'plays,time_watched'),
  filters: text("dim=='v' or dim!='v', joined by ; (and) and | (or), parentheses allowed", "country=='GB';device_type=='mobile'"),
  time_segment: text(`${TIME_SEGMENTS.join('|')}; default total`, 'day'),
  sort: text('Comma-separated metrics or dimensions; +name ascending, name or -name descending', '-plays'),
  limit: text('Rows per page, 1–1000 (default 1000)', '100'),
  page_token: text('Opaque token from next_page', PAGE_TOKEN),
  paging_token: text('Synonym of page_token', PAGE_TOKEN)
})

export const RetentionQuery = Type.Object({
  ...SignedQuery,
  asset_id: text('The asset (embed code), required', 'a1b2c3d4e5f6'),
  start_date: text('YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ (UTC), required', '2026-11-01'),
  end_date: text('Exclusive; default tomorrow (UTC)', '2026-12-01')
})

export const FailuresQuery = Type.Object({
  ...SignedQuery,
  start_date: text('YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ (UTC), required', '2026-11-01'),
  end_date: text('Exclusive; default tomorrow (UTC)', '2026-12-01'),
  asset_id: text('Only this asset (embed code); default every asset', 'a1b2c3d4e5f6')
})

export const FailuresAnswer = Type.Object({
  start_date: Type.String({ description: 'Start of the range (UTC)', examples: ['2026-11-01T00:00:00Z'] }),
  end_date: Type.String({ description: 'End of the range, exclusive (UTC)', examples: ['2026-12-01T00:00:00Z'] }),
  failures: Type.Array(Type.Object({
    code: Type.String({ description: 'The player\'s error code (empty when it gave none)', examples: ['manifestLoadError'] }),
    message: Type.String({ description: 'The player\'s short message (empty when it gave none)', examples: ['HTTP 404 loading the master playlist'] }),
    count: Type.Integer({ description: 'Fatal errors with this code and message', examples: [12] }),
    views: Type.Integer({ description: 'Views (sessions) they happened in', examples: [9] }),
    last_seen: Type.String({ description: 'When the last one happened (UTC)', examples: ['2026-11-22T09:14:05Z'] })
  }), { description: 'The most frequent first, at most 100' })
}, { title: 'Failures', description: 'Playback failures: the fatal errors players reported, by code and message' })

export const ExportQuery = Type.Object({
  ...SignedQuery,
  start_date: text('YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ (UTC), required', '2026-11-01'),
  end_date: text('Exclusive; default tomorrow (UTC); any range', '2026-12-01'),
  format: text('parquet, csv or ndjson, required', 'parquet')
})

export const ExportFile = Type.String({ description: 'The events, oldest first: a Parquet file, CSV with a header row, or one JSON object a line (docs/analytics.md, "Exports")' })

export const RetentionAnswer = Type.Object({
  asset_id: Type.String({ description: 'The asset', examples: ['a1b2c3d4e5f6'] }),
  start_date: Type.String({ description: 'Start of the range (UTC)', examples: ['2026-11-01T00:00:00Z'] }),
  end_date: Type.String({ description: 'End of the range, exclusive (UTC)', examples: ['2026-12-01T00:00:00Z'] }),
  views: Type.Integer({ description: 'Sessions of the asset that started or sent a heartbeat with a position', examples: [120] }),
  retention: Type.Array(Type.Object({
    percent: Type.Integer({ description: 'Percent of the duration, 0 to 100', examples: [50] }),
    share: Type.Number({ description: 'Share of the views that reached it, 4 decimals', examples: [0.62] })
  }), { description: '101 points, percent 0 to 100' })
}, { title: 'Retention', description: 'The retention curve of one asset, from player heartbeats' })

export const ClassicReportQuery = Type.Object({
  ...SignedQuery,
  breakdown_by: text('day|week|month', 'day'),
  order_by: text('plays|displays|video_starts|time_watched|replays', 'plays'),
  metrics: text('Comma-separated; default all', 'plays,displays'),
  limit: text('Rows per page, 1–1000 (default 1000)', '100'),
  page_token: text('Opaque token from next_page', PAGE_TOKEN)
})

export const ClassicReportParams = Type.Object({
  '*': Type.String({
    description: '{account | asset/ID}/performance/{total|videos|countries|domains|device_types}[/value]/{YYYY-MM-DD[...YYYY-MM-DD]}',
    examples: ['account/performance/countries/2026-11-01...2026-11-30']
  })
})

export const ReportAnswer = Type.Object({
  results: Type.Array(Type.Object({
    start_date: Type.String({ description: 'Start of the time segment (UTC)', examples: ['2026-11-22T00:00:00Z'] }),
    end_date: Type.String({ description: 'End of the time segment, exclusive', examples: ['2026-11-23T00:00:00Z'] }),
    data: Type.Array(Type.Object({
      group: Type.Record(Type.String(), Type.String(), {
        description: 'The row\'s value of each requested dimension; with `label`, the label\'s id under `label` and its name under `label_name`',
        examples: [{ country: 'GB', label: '3f2a9c0e5b7d4e1fa6c8b0d2e4f60718', label_name: 'Sports' }]
      }),
      metrics: Type.Record(Type.String(), Type.Union([Type.Number(), Type.Null()]), { description: 'Each requested metric\'s value; `startup_time_ms` and `startup_time_ms_p95` are null for a group without any startup time', examples: [{ plays: 120, time_watched: 3600000 }] })
    }, { description: 'One row: a group and its metrics' }), { description: 'The rows of this segment on this page' })
  }, { description: 'One time segment' }), { description: 'The time segments, in order' }),
  total_count: Type.Integer({ description: 'Rows (segment × group) of the whole report, over all pages', examples: [42] }),
  next_page: Type.Optional(Type.String({ description: 'Relative URL of the next page; absent on the last page', examples: [`/v2/analytics/reports?start_date=2026-11-01&limit=100&page_token=${PAGE_TOKEN}`] }))
}, { title: 'Report', description: 'A report: metrics per group of dimension values, per time segment' })

export const AnalyticsErrors = { ...SignedErrors, 413: Problem, 503: Problem }
export const CollectErrors = { 400: Problem, 413: Problem, 429: Problem, 503: Problem }
