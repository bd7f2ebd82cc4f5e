import uPlot from 'uplot'
import { h } from './dom.ts'

export interface LineSeries {
  label: string
  /** A null is a gap in the line (a time without any sample). */
  values: Array<number | null>
  /** Which y axis: `left` or `right`. */
  side: 'left' | 'right'
  color: string
  /** A count: ticks at whole numbers. */
  whole?: boolean
}

export interface Chart {
  element: HTMLElement
  /** The numbers the chart plots, as uPlot holds them: series index → values. Fires `plotted` on `element` once drawn. */
  plotted: () => number[][]
}

const HEIGHT = 260
/** Below this width a chart drops its axis titles and spaces its ticks wider (a phone held upright). */
const NARROW = 520
/** Tick steps for counts (plays): whole numbers only, never "2.5 plays". */
const WHOLE = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000, 1_000_000, 10_000_000]

/**
 * A uPlot chart that follows its container's width, so one view reads at 375 px and at 1440 px: it is
 * drawn again with the narrow options when the width crosses `NARROW`, else resized.
 */
function mount (makeOptions: (width: number, narrow: boolean) => uPlot.Options, data: uPlot.AlignedData): Chart {
  const element = h('div', { class: 'chart-canvas' })
  let chart: uPlot | undefined
  let drawnNarrow = false
  const observer = new ResizeObserver(() => {
    const width = Math.max(240, Math.floor(element.clientWidth))
    const narrow = width < NARROW
    if (chart === undefined || narrow !== drawnNarrow) {
      const first = chart === undefined
      chart?.destroy()
      drawnNarrow = narrow
      // eslint-disable-next-line new-cap -- the library's own name for its class.
      chart = new uPlot(makeOptions(width, narrow), data, element)
      if (first) element.dispatchEvent(new Event('plotted'))
    } else if (chart.width !== width) chart.setSize({ width, height: HEIGHT })
  })
  observer.observe(element)
  return {
    element,
    plotted: () => (chart?.data ?? data).slice(1).map((values) => Array.from(values as ArrayLike<number | null>, (value) => value ?? 0))
  }
}

/** What x stands for: time (Unix seconds, shown in UTC), or plain numbers with their unit after them. */
export type XAxis = { time: true } | { time: false, unit: string }

/**
 * Time on x (Unix seconds) unless told otherwise, one or two y axes. The legend names the series
 * without the hover values (nothing to show until a pointer rests on the chart); narrow, the axes lose
 * their titles (the legend says which line is which) and the dates are spaced wider.
 */
export function lineChart (xs: number[], series: LineSeries[], x: XAxis = { time: true }): Chart {
  return mount((width, narrow) => ({
    width,
    height: HEIGHT,
    tzDate: x.time ? (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC') : undefined,
    scales: { x: { time: x.time } },
    legend: { live: false },
    series: [{}, ...series.map((s) => ({ label: s.label, stroke: s.color, width: 2, scale: s.side, points: { show: xs.length < 60 && !narrow } }))],
    axes: [
      x.time ? { space: narrow ? 70 : 50 } : { space: narrow ? 70 : 50, values: (_u, splits) => splits.map((v) => `${v}${x.unit}`) },
      ...series.map((s) => ({ scale: s.side, side: s.side === 'left' ? 3 : 1, label: narrow ? undefined : s.label, size: narrow ? 40 : 50, grid: { show: s.side === 'left' }, ...(s.whole === true ? { incrs: WHOLE } : {}) }))
    ]
  }), [xs, ...series.map((s) => s.values)])
}

/** A bar's label cut to the room it has (about 7 px a character), never running into its neighbour's. */
function fitted (text: string, room: number): string {
  const chars = Math.max(2, Math.floor(room / 7) - 1)
  return text.length > chars ? `${text.slice(0, Math.max(1, chars - 1))}…` : text
}

/**
 * One bar per category, in the given order. Each label is cut to its bar's share of the width (the full
 * names are in the chart's data table); no legend: the axis says what is counted.
 */
export function barChart (labels: string[], values: number[], label: string, color: string): Chart {
  const xs = labels.map((_, index) => index)
  return mount((width, narrow) => ({
    width,
    height: HEIGHT,
    scales: { x: { time: false, range: [-0.5, Math.max(0.5, labels.length - 0.5)] }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
    series: [
      {},
      { label, stroke: color, fill: color, width: 0, paths: uPlot.paths.bars?.({ size: [0.6, 80] }), points: { show: false } }
    ],
    axes: [
      { splits: () => xs, values: (u, splits) => splits.map((i) => fitted(labels[i] ?? '', (u.bbox.width / devicePixelRatio) / Math.max(1, labels.length))), gap: 4 },
      { label: narrow ? undefined : label, size: narrow ? 40 : 50, incrs: WHOLE }
    ],
    legend: { show: false }
  }), [xs, values])
}
