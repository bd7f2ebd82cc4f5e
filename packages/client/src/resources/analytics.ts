import type { RequestOptions } from '../core/transport.ts'
import type { ClassicReportQuery, Dimension, Metric, Report as ReportAnswer, TimeSegment } from '../generated/analytics.ts'
import { segment, withQuery, type Endpoint, type Query } from './endpoint.ts'
import { EventBatchSender, type EventSession } from './event-sender.ts'

const REPORTS = '/v2/analytics/reports'

/** A report's time: `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM:SSZ` (UTC), or a Date. */
export type ReportTime = string | Date

export interface ReportParams {
  startDate: ReportTime
  /** Exclusive; default tomorrow (UTC). */
  endDate?: ReportTime
  /** At most 3. */
  dimensions?: readonly Dimension[]
  /** Default: every metric. */
  metrics?: readonly Metric[]
  /** `dim=='v'`, `dim!='v'`, joined by `;` (and) and `|` (or). Use `filterValue()` to quote a value. */
  filters?: string
  timeSegment?: TimeSegment
  /** Comma-separated metrics or dimensions; `+name` ascending, `name` or `-name` descending. */
  sort?: string
  /** Rows per page, 1–1,000. */
  limit?: number
}

/** The classic path form: `/v2/analytics/reports/{account | asset/ID}/performance/{by[/value]}/{from...to}`. */
export interface ClassicReportParams {
  /** An asset's embed code; default: the whole account. */
  asset?: string
  by: 'total' | 'videos' | 'countries' | 'domains' | 'device_types'
  /** One value of `by` to filter on (`countries` + `US`). */
  value?: string
  /** `YYYY-MM-DD`. */
  from: string
  /** `YYYY-MM-DD`, exclusive; default the day after `from`. */
  to?: string
  breakdownBy?: 'day' | 'week' | 'month'
  orderBy?: 'plays' | 'displays' | 'video_starts' | 'time_watched' | 'replays'
  metrics?: ClassicReportQuery['metrics']
  limit?: number
}

/** A value in a report filter, quoted: `'US'`, with quotes and backslashes escaped. */
export function filterValue (value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`
}

/** One page of a report; `getNextPage()` follows `next_page`. */
export class ReportPage implements ReportAnswer {
  readonly results: ReportAnswer['results']
  readonly total_count: number
  readonly next_page?: string
  readonly #api: Endpoint
  readonly #options: RequestOptions | undefined

  constructor (answer: ReportAnswer, api: Endpoint, options: RequestOptions | undefined) {
    this.results = answer.results
    this.total_count = answer.total_count
    if (answer.next_page !== undefined) this.next_page = answer.next_page
    this.#api = api
    this.#options = options
  }

  hasNextPage (): boolean {
    return this.next_page !== undefined
  }

  async getNextPage (): Promise<ReportPage> {
    if (this.next_page === undefined) throw new RangeError('This is the last page.')
    return new ReportPage(await this.#api.get<ReportAnswer>(this.next_page, this.#options), this.#api, this.#options)
  }
}

/**
 * Analytics: reports (5 credits a page) in both forms, and the sender that players use to post events.
 * @example
 * const page = await client.analytics.report({ startDate: '2026-11-01', endDate: '2026-11-22', dimensions: ['country'], metrics: ['video_starts'] })
 * for (const row of page.results[0].data) console.log(row.group.country, row.metrics.video_starts)
 */
export class Analytics {
  readonly #api: Endpoint
  readonly #eventsUrl: string

  constructor (api: Endpoint) {
    this.#api = api
    this.#eventsUrl = `${api.transport.baseUrl}/v2/analytics/events`
  }

  async report (params: ReportParams, options?: RequestOptions): Promise<ReportPage> {
    const query: Query = {
      start_date: reportTime(params.startDate),
      end_date: params.endDate === undefined ? undefined : reportTime(params.endDate),
      dimensions: params.dimensions?.join(','),
      metrics: params.metrics?.join(','),
      filters: params.filters,
      time_segment: params.timeSegment,
      sort: params.sort,
      limit: params.limit
    }
    return new ReportPage(await this.#api.get<ReportAnswer>(withQuery(REPORTS, query), options), this.#api, options)
  }

  async classicReport (params: ClassicReportParams, options?: RequestOptions): Promise<ReportPage> {
    const scope = params.asset === undefined ? 'account' : `asset/${segment(params.asset)}`
    const by = params.value === undefined ? params.by : `${params.by}/${segment(params.value)}`
    const range = params.to === undefined ? params.from : `${params.from}...${params.to}`
    const query: Query = { breakdown_by: params.breakdownBy, order_by: params.orderBy, metrics: params.metrics, limit: params.limit }
    return new ReportPage(await this.#api.get<ReportAnswer>(withQuery(`${REPORTS}/${scope}/performance/${by}/${range}`, query), options), this.#api, options)
  }

  /** Every page of a report, in turn. */
  async * reportPages (params: ReportParams, options?: RequestOptions): AsyncGenerator<ReportPage> {
    let page = await this.report(params, options)
    yield page
    while (page.hasNextPage()) {
      page = await page.getNextPage()
      yield page
    }
  }

  /**
   * A sender of one player session's events to this service (unsigned: `account_code` names the
   * account). Players without a secret use `new EventBatchSender({ url, ... })` directly.
   */
  events (session: EventSession): EventBatchSender {
    return new EventBatchSender({ url: this.#eventsUrl, session, transport: this.#api.transport })
  }
}

function reportTime (time: ReportTime): string {
  return typeof time === 'string' ? time : `${time.toISOString().slice(0, 19)}Z`
}
