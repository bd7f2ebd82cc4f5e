import { lineChart } from './charts.ts'
import { h } from './dom.ts'
import { count, isoDay } from './format.ts'
import { dataTable, loaded, markPlotted, panel, stepLabel, timeline } from './report-panel.ts'
import { reportPath, runReport, type ReportQuery } from './reports.ts'
import { attempt, type Session } from './shell.ts'

/** `GET /v2/analytics/failures` (docs/analytics.md, "Playback failures"). */
interface Failures { failures: Array<{ code: string, message: string, count: number, views: number, last_seen: string }> }
/** `GET /v2/analytics/retention` (docs/analytics.md, "Retention"). */
interface Retention { views: number, retention: Array<{ percent: number, share: number }> }

export interface QualityRange {
  /** `YYYY-MM-DD`, inclusive. */
  start: string
  /** `YYYY-MM-DD`, exclusive. */
  end: string
  segment: 'hour' | 'day'
}

const query = (params: Record<string, string>): string => new URLSearchParams(params).toString()
const ms = (value: number | null): string => value === null ? '—' : `${count(value)} ms`
const percent = (share: number): string => `${(share * 100).toFixed(2)} %`

/**
 * The viewer-experience panels of the analytics view (docs/analytics.md, "Metrics"): startup time
 * (median and 95th percentile) and rebuffering over time, and the playback failures with their messages.
 */
export function qualityPanels (session: Session, range: QualityRange): HTMLElement[] {
  const over = (metrics: ReportQuery['metrics']): ReportQuery => ({ start: range.start, end: range.end, timeSegment: range.segment, metrics })
  return [
    startupPanel(session, over(['startup_time_ms', 'startup_time_ms_p95', 'video_starts'])),
    rebufferPanel(session, over(['rebuffer_ratio', 'rebuffer_frequency'])),
    failuresPanel(session, `/v2/analytics/failures?${query({ start_date: range.start, end_date: range.end })}`)
  ]
}

/** Startup time by step: a step without any start has no point (a gap, not an instant start). */
function startupPanel (session: Session, q: ReportQuery): HTMLElement {
  const path = reportPath(q)
  const { element, body } = panel(session, 'startup', `Startup time by ${q.timeSegment}`, path)
  element.classList.add('wide')
  void attempt(async () => {
    const steps = timeline(await runReport(session, path), q)
    const median = steps.map((step) => step.metrics.startup_time_ms ?? null)
    const p95 = steps.map((step) => step.metrics.startup_time_ms_p95 ?? null)
    const chart = lineChart(steps.map((step) => step.time), [
      { label: 'Median (ms)', values: median, side: 'left', color: '#2563eb' },
      { label: '95th percentile (ms)', values: p95, side: 'left', color: '#dc2626' }
    ])
    loaded(body, chart.element, dataTable(['Start (UTC)', 'Median', '95th percentile', 'Video starts'],
      steps.map((step, i) => [stepLabel(step.time, q.timeSegment), ms(median[i] ?? null), ms(p95[i] ?? null), count(step.metrics.video_starts ?? 0)])))
    markPlotted(element, chart)
  })
  return element
}

/** Rebuffer ratio (stalled time over time watched, in percent) and stalls per minute watched, by step. */
function rebufferPanel (session: Session, q: ReportQuery): HTMLElement {
  const path = reportPath(q)
  const { element, body } = panel(session, 'rebuffering', `Rebuffering by ${q.timeSegment}`, path)
  element.classList.add('wide')
  void attempt(async () => {
    const steps = timeline(await runReport(session, path), q)
    const ratio = steps.map((step) => Math.round((step.metrics.rebuffer_ratio ?? 0) * 1e6) / 1e4)
    const frequency = steps.map((step) => step.metrics.rebuffer_frequency ?? 0)
    const chart = lineChart(steps.map((step) => step.time), [
      { label: 'Rebuffer ratio (%)', values: ratio, side: 'left', color: '#d97706' },
      { label: 'Stalls per minute', values: frequency, side: 'right', color: '#7c3aed' }
    ])
    loaded(body, chart.element, dataTable(['Start (UTC)', 'Rebuffer ratio', 'Stalls per minute'],
      steps.map((step, i) => [stepLabel(step.time, q.timeSegment), `${ratio[i] ?? 0} %`, String(frequency[i] ?? 0)])))
    markPlotted(element, chart)
  })
  return element
}

/** The fatal errors by code and message, the most frequent first. */
function failuresPanel (session: Session, path: string): HTMLElement {
  const { element, body } = panel(session, 'failures', 'Playback failures', path)
  element.classList.add('wide')
  void attempt(async () => {
    const { failures } = await session.client.request<Failures>('GET', path)
    if (failures.length === 0) {
      loaded(body, h('p', { class: 'empty' }, 'No playback failed in this range.'))
      return
    }
    loaded(body, h('table', { class: 'failures' },
      h('thead', {}, h('tr', {}, ...['Message', 'Code', 'Failures', 'Views', 'Last (UTC)'].map((text) => h('th', { scope: 'col' }, text)))),
      h('tbody', {}, ...failures.map((f) => h('tr', { 'data-code': f.code },
        h('th', { scope: 'row' }, f.message === '' ? '(no message)' : f.message), h('td', {}, h('code', {}, f.code)),
        h('td', {}, count(f.count)), h('td', {}, count(f.views)), h('td', {}, f.last_seen.replace('T', ' ').replace('Z', '')))))))
  })
  return element
}

/**
 * The asset page's retention curve over the last 30 days: the share of views still watching at each
 * percent of the asset's duration.
 */
export function retentionPanel (session: Session, assetId: string): HTMLElement {
  const today = Date.now()
  const path = `/v2/analytics/retention?${query({ asset_id: assetId, start_date: isoDay(new Date(today - 29 * 86_400_000)), end_date: isoDay(new Date(today + 86_400_000)) })}`
  const { element, body } = panel(session, 'retention', 'Retention, last 30 days', path)
  void attempt(async () => {
    const answer = await session.client.request<Retention>('GET', path)
    if (answer.views === 0) {
      loaded(body, h('p', { class: 'empty' }, 'No views in the last 30 days.'))
      return
    }
    const shares = answer.retention.map((point) => Math.round(point.share * 1e4) / 100)
    const chart = lineChart(answer.retention.map((point) => point.percent), [
      { label: 'Still watching (%)', values: shares, side: 'left', color: '#2563eb' }
    ], { time: false, unit: ' %' })
    loaded(body, h('p', { class: 'views' }, `${count(answer.views)} views`), chart.element,
      dataTable(['Percent of the duration', 'Still watching'], answer.retention.filter((point) => point.percent % 10 === 0).map((point) => [`${point.percent} %`, percent(point.share)])))
    markPlotted(element, chart)
  })
  return element
}
