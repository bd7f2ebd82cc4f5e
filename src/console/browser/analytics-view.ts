import { where, type Metric, type Report } from 'reelhouse/client'
import { barChart, lineChart } from './charts.ts'
import { field, h } from './dom.ts'
import { count, duration, isoDay } from './format.ts'
import { qualityPanels } from './quality-panels.ts'
import { dataTable, loaded, markPlotted, panel, stepLabel, timeline } from './report-panel.ts'
import { reportPath, runReport, type ReportQuery } from './reports.ts'
import { attempt, mainView, type Session } from './shell.ts'

const DAY_MS = 86_400_000
const TOTALS: Array<{ metric: Metric, label: string, show: (value: number) => string }> = [
  { metric: 'displays', label: 'Displays', show: count },
  { metric: 'plays_requested', label: 'Plays', show: count },
  { metric: 'video_starts', label: 'Video starts', show: count },
  { metric: 'uniq_plays_requested', label: 'Unique viewers', show: count },
  { metric: 'time_watched', label: 'Time watched', show: duration },
  { metric: 'avg_time_watched_per_video', label: 'Average per video', show: duration }
]

/**
 * Analytics: a date range (UTC days, both ends included) and a time step; the totals, plays and time
 * watched over time (line chart), and the top assets, countries and devices (bar charts). Each panel is
 * one report request, which "Show request" gives as a signed curl command.
 */
export function analyticsView (session: Session): void {
  const main = mainView('Analytics')
  const params = new URLSearchParams(location.hash.split('?')[1] ?? '')
  const today = new Date()
  const from = h('input', { type: 'date', name: 'from', required: true, value: params.get('from') ?? isoDay(new Date(today.getTime() - 29 * DAY_MS)) })
  const to = h('input', { type: 'date', name: 'to', required: true, value: params.get('to') ?? isoDay(today) })
  const step = h('select', { name: 'step' }, h('option', { value: 'day' }, 'Day'), h('option', { value: 'hour' }, 'Hour'))
  step.value = params.get('step') === 'hour' ? 'hour' : 'day'
  const form = h('form', { class: 'filters', 'aria-label': 'Report range' },
    field('From', from), field('To (included)', to), field('Step', step), h('button', { type: 'submit' }, 'Show'))
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    location.hash = `#/analytics?${new URLSearchParams({ from: from.value, to: to.value, step: step.value }).toString()}`
  })
  const grid = h('div', { class: 'charts' })
  main.append(h('div', { class: 'view-head' }, h('h1', {}, 'Analytics')), form, grid)

  const start = from.value
  const end = isoDay(new Date(Date.parse(`${to.value}T00:00:00Z`) + DAY_MS))
  const segment = step.value === 'hour' ? 'hour' : 'day'
  grid.append(
    totalsPanel(session, { start, end, timeSegment: 'total', metrics: TOTALS.map((t) => t.metric) }),
    overTimePanel(session, { start, end, timeSegment: segment, metrics: ['plays_requested', 'time_watched'] }),
    barPanel(session, 'top-assets', 'Top assets by plays', { start, end, timeSegment: 'total', dimensions: ['asset'], metrics: ['plays_requested'], sort: '-plays_requested', limit: 10 }, 'asset'),
    barPanel(session, 'countries', 'Countries by plays', { start, end, timeSegment: 'total', dimensions: ['country'], metrics: ['plays_requested'], sort: '-plays_requested', limit: 15 }, 'country'),
    barPanel(session, 'devices', 'Devices by plays', { start, end, timeSegment: 'total', dimensions: ['device_type'], metrics: ['plays_requested'], sort: '-plays_requested', limit: 10 }, 'device_type'))
  main.append(h('h2', { class: 'section-title', id: 'quality-title' }, 'Viewer experience'),
    h('div', { class: 'charts', 'aria-labelledby': 'quality-title' }, ...qualityPanels(session, { start, end, segment })))
}

function totalsPanel (session: Session, query: ReportQuery): HTMLElement {
  const path = reportPath(query)
  const { element, body } = panel(session, 'totals', 'Totals', path)
  element.classList.add('wide')
  void attempt(async () => {
    const metrics = (await runReport(session, path))[0]?.data[0]?.metrics ?? {}
    loaded(body, h('dl', { class: 'totals' }, ...TOTALS.flatMap((t) => [
      h('dt', {}, t.label), h('dd', { 'data-metric': t.metric, 'data-value': metrics[t.metric] ?? 0 }, t.show(metrics[t.metric] ?? 0))])))
  })
  return element
}

function overTimePanel (session: Session, query: ReportQuery): HTMLElement {
  const path = reportPath(query)
  const { element, body } = panel(session, 'over-time', `Plays and time watched by ${query.timeSegment}`, path)
  element.classList.add('wide')
  void attempt(async () => {
    const steps = timeline(await runReport(session, path), query)
    const times = steps.map((step) => step.time)
    const plays = steps.map((step) => step.metrics.plays_requested ?? 0)
    const minutes = steps.map((step) => Math.round((step.metrics.time_watched ?? 0) / 600) / 100)
    const chart = lineChart(times, [
      { label: 'Plays', values: plays, side: 'left', color: '#2563eb', whole: true },
      { label: 'Minutes watched', values: minutes, side: 'right', color: '#d97706' }
    ])
    loaded(body, chart.element, dataTable(['Start (UTC)', 'Plays', 'Minutes watched'],
      times.map((t, i) => [stepLabel(t, query.timeSegment), count(plays[i] ?? 0), String(minutes[i] ?? 0)])))
    markPlotted(element, chart)
  })
  return element
}

function barPanel (session: Session, id: string, title: string, query: ReportQuery, dimension: string): HTMLElement {
  const path = reportPath(query)
  const { element, body } = panel(session, id, title, path)
  void attempt(async () => {
    const rows: Report['results'][number]['data'] = (await runReport(session, path))[0]?.data ?? []
    const keys = rows.map((row) => row.group[dimension] ?? 'unknown')
    const names = dimension === 'asset' ? await assetNames(session, keys) : new Map<string, string>()
    const labels = keys.map((key) => names.get(key) ?? key)
    const values = rows.map((row) => row.metrics.plays_requested ?? 0)
    if (rows.length === 0) {
      loaded(body, h('p', { class: 'empty' }, 'No plays in this range.'))
      return
    }
    const chart = barChart(labels, values, 'Plays', '#2563eb')
    loaded(body, chart.element, dataTable([dimension === 'device_type' ? 'Device' : dimension === 'asset' ? 'Asset' : 'Country', 'Plays'], labels.map((label, i) => [label, count(values[i] ?? 0)])))
    markPlotted(element, chart)
  })
  return element
}

/** The names of the top assets, for roles that may read assets; the embed codes stay for the others. */
async function assetNames (session: Session, codes: string[]): Promise<Map<string, string>> {
  const known = codes.filter((code) => code !== 'unknown')
  if (!session.can.library || known.length === 0) return new Map()
  const assets = await session.client.assets.list({ where: where('embed_code', 'IN', known), limit: known.length }).toArray()
  return new Map(assets.map((asset) => [asset.embed_code, asset.name]))
}
