import type { RunContext } from './ffmpeg-arguments.ts'
import { evenWithin } from './picture-size.ts'
import type { ProbeResult } from './processing-types.ts'

/**
 * The storyboard (docs/media.md, "Storyboards"): a thumbnail every few seconds, tiled into JPEG sprite
 * sheets by one more branch of the ladder's single decode, and a WebVTT file whose cues point at each
 * thumbnail's rectangle (`sprite-00000.jpg#xywh=160,90,160,90`). Sheets are written whole as they fill,
 * so the storyboard grows with the renditions.
 */

export const STORYBOARD_DIR = 'storyboard'
export const SPRITE_PATTERN = 'sprite-%05d.jpg'
export const SPRITE_NAME = /^sprite-\d{5}\.jpg$/
/** The generated preview images: a few full-size frames from the same decode, one of which a user may pick as the preview. */
export const FRAMES_DIR = 'frames'
export const FRAME_PATTERN = 'frame-%05d.jpg'
export const FRAME_NAME = /^frame-\d{5}\.jpg$/
/** About ten generated frames, at least 1 s apart; at most 640 pixels wide, like the preview. */
const FRAME_COUNT = 10
const FRAME_MAX_WIDTH = 640

/** Thumbnails fit a 160×160 box, keeping the picture's shape. */
const THUMB_BOX = 160
/** 5×5 thumbnails a sheet: at a frame every 2 s, a sheet holds 50 s of media. */
const COLUMNS = 5
const ROWS = 5
/** A frame every 2 s, wider apart for long media, so a storyboard has at most about 300 frames. */
const MIN_INTERVAL_SECONDS = 2
const MAX_FRAMES = 300

export interface StoryboardPlan {
  intervalSeconds: number
  columns: number
  rows: number
  /** One thumbnail's size in pixels (even). */
  width: number
  height: number
  /** The generated preview images: one frame each `intervalSeconds` from 0, at this size. */
  frames: { intervalSeconds: number, width: number, height: number }
}

/** The storyboard of a video (null for audio-only media), sized from its display size and its claimed duration. */
export function planStoryboard (probe: ProbeResult): StoryboardPlan | null {
  const video = probe.streams.find((s) => s.type === 'video')
  if (video?.displayWidth == null || video.displayHeight == null) return null
  const { displayWidth: w, displayHeight: h } = video
  const width = w >= h ? evenWithin(Math.min(THUMB_BOX, w), w) : evenWithin(THUMB_BOX * w / h, w)
  const height = w >= h ? evenWithin(THUMB_BOX * h / w, h) : evenWithin(Math.min(THUMB_BOX, h), h)
  const intervalSeconds = Math.max(MIN_INTERVAL_SECONDS, Math.ceil(probe.durationMs / 1000 / MAX_FRAMES))
  const frameWidth = evenWithin(Math.min(FRAME_MAX_WIDTH, w), w)
  const frames = { intervalSeconds: Math.max(1, Math.ceil(probe.durationMs / 1000 / FRAME_COUNT)), width: frameWidth, height: evenWithin(h * frameWidth / w, h) }
  return { intervalSeconds, columns: COLUMNS, rows: ROWS, width, height, frames }
}

/** The branch of the generated preview images: one frame each interval, at the preview's size. */
export function framesFilter (plan: StoryboardPlan): string {
  return `fps=1/${plan.frames.intervalSeconds},scale=${plan.frames.width}:${plan.frames.height},setsar=1`
}

/** Their output: one JPEG each, whole once named. */
export function framesOutput (run: RunContext, label: string): string[] {
  return [
    '-map', `[${label}]`, '-map_metadata', '-1', '-map_chapters', '-1',
    '-c:v', 'mjpeg', '-q:v', '3', '-huffman', 'default', '-an',
    '-f', 'image2', '-start_number', '0', '-atomic_writing', '1',
    '-y', `${run.outDir}/${FRAMES_DIR}/${FRAME_PATTERN}`
  ]
}

/** The filter chain of the storyboard's branch of the split: one frame each interval, scaled, tiled. */
export function storyboardFilter (plan: StoryboardPlan): string {
  return `fps=1/${plan.intervalSeconds},scale=${plan.width}:${plan.height},setsar=1,tile=${plan.columns}x${plan.rows}`
}

/**
 * The storyboard's output of the ladder run: each full sheet (and the last, partial one) as a JPEG,
 * written to a temporary name and renamed when whole (`-atomic_writing`), so a sheet that exists is complete.
 */
export function storyboardOutput (run: RunContext, label: string): string[] {
  return [
    '-map', `[${label}]`, '-map_metadata', '-1', '-map_chapters', '-1',
    '-c:v', 'mjpeg', '-q:v', '5', '-huffman', 'default', '-an',
    '-f', 'image2', '-start_number', '0', '-atomic_writing', '1',
    '-y', `${run.outDir}/${STORYBOARD_DIR}/${SPRITE_PATTERN}`
  ]
}

/** The name of sheet `index` (`sprite-00003.jpg`). */
export function spriteName (index: number): string {
  return `sprite-${String(index).padStart(5, '0')}.jpg`
}

/**
 * The WebVTT file of the sheets made so far. While the decode goes on, only full sheets are listed;
 * once it is done (`durationMs` given), the last sheet holds the frames the fps filter made of the
 * media that played (one each interval, the last at the rounded end), and the last cue ends at the end.
 */
export function renderStoryboardVtt (plan: StoryboardPlan, sheets: number, durationMs: number | null): string {
  const perSheet = plan.columns * plan.rows
  const frames = durationMs === null
    ? sheets * perSheet
    : Math.min(sheets * perSheet, Math.max((sheets - 1) * perSheet + 1, Math.round(durationMs / 1000 / plan.intervalSeconds)))
  const lines = ['WEBVTT', '']
  for (let i = 0; i < frames; i++) {
    const start = i * plan.intervalSeconds * 1000
    const end = durationMs !== null && i === frames - 1 ? Math.max(start + 1, durationMs) : (i + 1) * plan.intervalSeconds * 1000
    const cell = i % perSheet
    const x = (cell % plan.columns) * plan.width
    const y = Math.floor(cell / plan.columns) * plan.height
    lines.push(`${vttTime(start)} --> ${vttTime(end)}`, `${spriteName(Math.floor(i / perSheet))}#xywh=${x},${y},${plan.width},${plan.height}`, '')
  }
  return lines.join('\n')
}

function vttTime (ms: number): string {
  const h = Math.floor(ms / 3_600_000)
  const m = Math.floor(ms / 60_000) % 60
  const s = Math.floor(ms / 1000) % 60
  const pad = (n: number, width = 2): string => String(n).padStart(width, '0')
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(Math.round(ms % 1000), 3)}`
}
