import { h } from './dom.ts'
import { duration as clock } from './format.ts'

/** One cue of a storyboard's WebVTT file: a time range and the region of a sprite sheet that shows it. */
export interface StoryboardCue { start: number, end: number, sprite: string, x: number, y: number, w: number, h: number }

const TIMING = /^(\d+):(\d\d):(\d\d(?:\.\d+)?) --> (\d+):(\d\d):(\d\d(?:\.\d+)?)/
const seconds = (hours: string, minutes: string, rest: string): number => Number(hours) * 3600 + Number(minutes) * 60 + Number(rest)

/**
 * The cues of a storyboard WebVTT file (docs/media.md, "Storyboards"): each timing line followed by
 * `sheet.jpg#xywh=x,y,w,h`, the sheet's URL relative to the file's own. Blocks of another shape are
 * skipped.
 */
export function parseStoryboard (text: string, fileUrl: string): StoryboardCue[] {
  const cues: StoryboardCue[] = []
  for (const block of text.replace(/\r\n?/g, '\n').split('\n\n')) {
    const lines = block.trim().split('\n')
    const at = lines.findIndex((line) => TIMING.test(line))
    const timing = at === -1 ? null : TIMING.exec(lines[at] as string)
    const target = at === -1 ? undefined : lines[at + 1]
    const hash = target?.lastIndexOf('#xywh=') ?? -1
    if (timing === null || target === undefined || hash === -1) continue
    const [x, y, w, hh] = target.slice(hash + 6).split(',').map(Number)
    if (![x, y, w, hh].every((n) => Number.isFinite(n))) continue
    const [, h1, m1, s1, h2, m2, s2] = timing as unknown as string[]
    cues.push({
      start: seconds(h1 as string, m1 as string, s1 as string),
      end: seconds(h2 as string, m2 as string, s2 as string),
      sprite: new URL(target.slice(0, hash), fileUrl).href,
      x: x as number, y: y as number, w: w as number, h: hh as number
    })
  }
  return cues
}

/** The cue showing `time` (seconds), or undefined past the cues known so far. */
export function cueAt (cues: readonly StoryboardCue[], time: number): StoryboardCue | undefined {
  return cues.find((cue) => time >= cue.start && time < cue.end) ?? (time >= 0 && cues.length > 0 && time === cues.at(-1)?.end ? cues.at(-1) : undefined)
}

/**
 * A timeline under the video: a seek bar that follows playback, and over it, where the pointer hovers,
 * the storyboard thumbnail of that moment (the sheet's `#xywh` region, drawn on a canvas) with its
 * time. The storyboard of a ladder still encoding grows: the file is read again when the pointer goes
 * past its last cue. The tip's place along the bar is a custom property set through the CSSOM, which
 * the page's policy allows (it refuses `style` attributes, not style properties).
 */
export function storyboardTimeline (media: HTMLVideoElement, storyboardUrl: string, knownSeconds: number | null): HTMLElement {
  const bar = h('input', { type: 'range', class: 'seek', min: 0, max: knownSeconds ?? 0, step: 'any', value: 0, 'aria-label': 'Timeline: seek, hover for thumbnails' })
  const canvas = h('canvas', { class: 'storyboard-thumb', width: 160, height: 90 })
  const label = h('span', { class: 'storyboard-time' })
  const tip = h('div', { class: 'storyboard-tip', hidden: true, 'aria-hidden': 'true' }, canvas, label)
  const element = h('div', { class: 'timeline' }, tip, bar)
  const sheets = new Map<string, HTMLImageElement>()
  let cues: StoryboardCue[] = []
  let readAt = 0
  let shown: { time: number, fraction: number } | undefined

  // The asset's duration when known: a playlist still growing tells the element only what exists so far.
  const total = (): number => knownSeconds ?? (Number.isFinite(media.duration) ? media.duration : 0)
  const read = async (): Promise<void> => {
    readAt = Date.now()
    try {
      const res = await fetch(storyboardUrl, { credentials: 'omit' })
      if (res.ok) cues = parseStoryboard(await res.text(), res.url === '' ? storyboardUrl : res.url)
    } catch {
      // Without a storyboard the bar still seeks; the next hover past the known cues reads it again.
    }
    if (shown !== undefined) show(shown.time, shown.fraction)
  }

  function sheet (url: string): HTMLImageElement {
    let image = sheets.get(url)
    if (image === undefined) {
      image = new Image()
      image.addEventListener('load', () => { if (shown !== undefined) show(shown.time, shown.fraction) })
      image.src = url
      sheets.set(url, image)
    }
    return image
  }

  function show (time: number, fraction: number): void {
    shown = { time, fraction }
    const cue = cueAt(cues, time)
    if (cue === undefined) {
      tip.hidden = true
      if (Date.now() - readAt > 2000) void read()
      return
    }
    const image = sheet(cue.sprite)
    canvas.width = cue.w
    canvas.height = cue.h
    canvas.dataset.sprite = cue.sprite
    canvas.dataset.xywh = `${cue.x},${cue.y},${cue.w},${cue.h}`
    canvas.dataset.drawn = 'false'
    if (image.complete && image.naturalWidth > 0) {
      canvas.getContext('2d')?.drawImage(image, cue.x, cue.y, cue.w, cue.h, 0, 0, cue.w, cue.h)
      canvas.dataset.drawn = 'true'
    }
    label.textContent = clock(Math.round(time * 1000))
    tip.style.setProperty('--at', String(Math.min(1, Math.max(0, fraction))))
    tip.hidden = false
  }

  bar.addEventListener('pointermove', (event) => {
    const box = bar.getBoundingClientRect()
    const fraction = box.width === 0 ? 0 : (event.clientX - box.left) / box.width
    show(fraction * total(), fraction)
  })
  bar.addEventListener('pointerleave', () => { shown = undefined; tip.hidden = true })
  bar.addEventListener('input', () => { media.currentTime = Number(bar.value) })
  const follow = (): void => {
    bar.max = String(total())
    if (document.activeElement !== bar) bar.value = String(media.currentTime)
  }
  media.addEventListener('durationchange', follow)
  media.addEventListener('timeupdate', follow)
  void read()
  return element
}
