import { signedPath, type Dimension, type Metric, type Report } from 'reelhouse/client'
import type { Session } from './shell.ts'

export interface ReportQuery {
  /** `YYYY-MM-DD`, inclusive. */
  start: string
  /** `YYYY-MM-DD`, exclusive. */
  end: string
  metrics: readonly Metric[]
  dimensions?: readonly Dimension[]
  timeSegment: 'hour' | 'day' | 'total'
  sort?: string
  limit?: number
}

/** The report's URL (path and query, unsigned): the one request a chart makes, and what "Show request" signs. */
export function reportPath (query: ReportQuery): string {
  const params: Array<[string, string]> = [
    ['start_date', query.start],
    ['end_date', query.end],
    ['metrics', query.metrics.join(',')],
    ...(query.dimensions === undefined ? [] : [['dimensions', query.dimensions.join(',')] as [string, string]]),
    ['time_segment', query.timeSegment],
    ...(query.sort === undefined ? [] : [['sort', query.sort] as [string, string]]),
    ...(query.limit === undefined ? [] : [['limit', String(query.limit)] as [string, string]])
  ]
  return `/v2/analytics/reports?${params.map(([key, value]) => `${key}=${encodeURIComponent(value)}`).join('&')}`
}

/** The report, every page of it (`next_page` followed), its segments joined. */
export async function runReport (session: Session, path: string): Promise<Report['results']> {
  const results: Report['results'] = []
  let next: string | undefined = path
  while (next !== undefined) {
    const page: Report = await session.client.request<Report>('GET', next)
    for (const segment of page.results) {
      const last = results.at(-1)
      if (last !== undefined && last.start_date === segment.start_date) last.data.push(...segment.data)
      else results.push({ ...segment, data: [...segment.data] })
    }
    next = page.next_page
  }
  return results
}

/** A curl command for the request, signed here for 15 minutes: what a person can run in a terminal. */
export async function signedCurl (session: Session, path: string): Promise<string> {
  const signed = await signedPath({
    apiKey: session.credentials.apiKey,
    secret: session.credentials.secret,
    method: 'GET',
    path,
    expires: Math.floor(Date.now() / 1000) + 900
  })
  return `curl -sS '${location.origin}${signed.replace(/'/g, "'\\''")}'`
}
