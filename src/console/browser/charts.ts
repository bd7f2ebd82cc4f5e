import uPlot from 'uplot'
import { h } from './dom.ts'

export interface LineSeries {
  label: string
  values: number[]
  /** Which y axis: `left` or `right`. */
  side: 'left' | 'right'
  color: string
}

export interface Chart {
  element: HTMLElement
  /** The numbers the chart plots, as uPlot holds them: series index → values. Fires `plotted` on `element` once drawn. */
  plotted: () => number[][]
}

const HEIGHT = 260

/** A uPlot chart that follows its container's width, so one view reads at 375 px and at 1440 px. */
function mount (makeOptions: (width: number) => uPlot.Options, data: uPlot.AlignedData): Chart {
  const element = h('div', { class: 'chart-canvas' })
  let chart: uPlot | undefined
  const observer = new ResizeObserver(() => {
    const width = Math.max(240, Math.floor(element.clientWidth))
    if (chart === undefined) {
      // eslint-disable-next-line new-cap -- the library's own name for its class.
      chart = new uPlot(makeOptions(width), data, element)
      element.dispatchEvent(new Event('plotted'))
    } else if (chart.width !== width) chart.setSize({ width, height: HEIGHT })
  })
  observer.observe(element)
  return {
    element,
    plotted: () => (chart?.data ?? data).slice(1).map((values) => Array.from(values as ArrayLike<number | null>, (value) => value ?? 0))
  }
}

/** Time on x (Unix seconds), one or two y axes. */
export function lineChart (times: number[], series: LineSeries[], utc = true): Chart {
  return mount((width) => ({
    width,
    height: HEIGHT,
    tzDate: utc ? (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC') : undefined,
    scales: { x: { time: true } },
    series: [{}, ...series.map((s) => ({ label: s.label, stroke: s.color, width: 2, scale: s.side, points: { show: times.length < 60 } }))],
    axes: [{}, ...series.map((s) => ({ scale: s.side, side: s.side === 'left' ? 3 : 1, label: s.label, grid: { show: s.side === 'left' } }))]
  }), [times, ...series.map((s) => s.values)])
}

/** One bar per category, in the given order. */
export function barChart (labels: string[], values: number[], label: string, color: string): Chart {
  const xs = labels.map((_, index) => index)
  const short = labels.map((text) => text.length > 14 ? `${text.slice(0, 13)}…` : text)
  return mount((width) => ({
    width,
    height: HEIGHT,
    scales: { x: { time: false, range: [-0.5, Math.max(0.5, labels.length - 0.5)] }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
    series: [
      { label: 'Item', value: (_u, v) => labels[v] ?? '' },
      { label, stroke: color, fill: color, width: 0, paths: uPlot.paths.bars?.({ size: [0.6, 80] }), points: { show: false } }
    ],
    axes: [{ splits: () => xs, values: (_u, splits) => splits.map((i) => short[i] ?? ''), gap: 4 }, { label }],
    legend: { show: true }
  }), [xs, values])
}
