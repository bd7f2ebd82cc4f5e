import type { Metric, Report } from 'reelhouse/client'
import type { Chart } from './charts.ts'
import { h } from './dom.ts'
import { signedCurl, type ReportQuery } from './reports.ts'
import { attempt, type Session } from './shell.ts'

// A chart's panel as every analytics chart in the console has it: a title, its body, and "Show request",
// which gives the one request the panel makes as a signed curl command (with a copy button).

/** A panel: title, body, and the "Show request" disclosure with the signed curl command and a copy button. */
export function panel (session: Session, id: string, title: string, path: string): { element: HTMLElement, body: HTMLElement } {
  const body = h('div', { class: 'panel-body', 'aria-busy': 'true' }, h('p', { class: 'loading' }, 'Loading…'))
  const code = h('code', {})
  const copy = h('button', { type: 'button', class: 'secondary' }, 'Copy')
  const copied = h('span', { role: 'status', class: 'status-line' })
  const request = h('details', { class: 'request' }, h('summary', {}, 'Show request'), h('pre', {}, code), copy, copied)
  request.addEventListener('toggle', () => {
    if (request.open) void attempt(async () => { code.textContent = await signedCurl(session, path) })
  })
  copy.addEventListener('click', () => {
    void attempt(async () => {
      if (code.textContent === '') code.textContent = await signedCurl(session, path)
      await navigator.clipboard.writeText(code.textContent ?? '')
      copied.textContent = 'Copied.'
    })
  })
  const element = h('figure', { class: 'card panel', id, 'aria-labelledby': `${id}-title`, 'data-request': path },
    h('figcaption', { id: `${id}-title` }, title), body, request)
  return { element, body }
}

export function loaded (body: HTMLElement, ...children: Node[]): void {
  body.replaceChildren(...children)
  body.setAttribute('aria-busy', 'false')
}

/** Once drawn, the chart's first series total as uPlot holds it: what a reader can check against the report. */
export function markPlotted (element: HTMLElement, chart: Chart): void {
  chart.element.addEventListener('plotted', () => {
    element.dataset.plottedTotal = String((chart.plotted()[0] ?? []).reduce((a, b) => a + b, 0))
  }, { once: true })
}

/** The same numbers as a table, behind a disclosure: readable without the chart. */
export function dataTable (headings: string[], rows: string[][]): HTMLElement {
  return h('details', { class: 'data' }, h('summary', {}, 'Show data'),
    h('table', {}, h('thead', {}, h('tr', {}, ...headings.map((text) => h('th', { scope: 'col' }, text)))),
      h('tbody', {}, ...rows.map((row) => h('tr', {}, ...row.map((cell, i) => i === 0 ? h('th', { scope: 'row' }, cell) : h('td', {}, cell)))))))
}

const STEP_MS = { hour: 3_600_000, day: 86_400_000 } as const

/** One step of a report over time: its start (Unix seconds) and its metrics (none for a step without events). */
export interface Step { time: number, metrics: Partial<Record<Metric, number | null>> }

/** The report's segments on every step of the range, the steps without events included. */
export function timeline (results: Report['results'], query: ReportQuery): Step[] {
  const stepMs = STEP_MS[query.timeSegment === 'hour' ? 'hour' : 'day']
  const byStart = new Map(results.map((r) => [Date.parse(r.start_date), r.data[0]?.metrics ?? {}]))
  const steps: Step[] = []
  for (let t = Date.parse(`${query.start}T00:00:00Z`); t < Date.parse(`${query.end}T00:00:00Z`); t += stepMs) steps.push({ time: t / 1000, metrics: byStart.get(t) ?? {} })
  return steps
}

/** A step's start as the data tables show it (UTC). */
export function stepLabel (time: number, segment: ReportQuery['timeSegment']): string {
  return new Date(time * 1000).toISOString().slice(0, segment === 'hour' ? 16 : 10).replace('T', ' ')
}
