import { XMLParser, XMLValidator } from 'fast-xml-parser'
import * as mediaCaptions from 'media-captions'

// media-captions' declaration files import each other without file extensions, which TypeScript's
// NodeNext resolution does not follow: the one function used here, typed as the package documents it.
interface ParsedCueText {
  cues: Array<{ startTime: number, endTime: number, text: string }>
  errors: Array<{ line: number, message: string }>
}
const { parseText } = mediaCaptions as unknown as { parseText: (text: string, options: { type: 'vtt' | 'srt', errors: boolean }) => Promise<ParsedCueText> }

/** The formats a caption track may be uploaded in, as the API names them. */
export type CaptionFormat = 'dfxp' | 'webvtt' | 'srt'

/** One cue, in milliseconds from the start of the media, with its text as WebVTT cue text. */
export interface Cue {
  startMs: number
  endMs: number
  text: string
}

/** A track that passed every check: its format, the language it declares (TTML `xml:lang`), its cues. */
export interface ParsedTrack {
  format: CaptionFormat
  declaredLanguage: string | undefined
  cues: Cue[]
}

/** Why a caption body was refused, in a sentence that names the line when there is one. */
export class CaptionError extends Error {}

/** The largest caption body taken, in bytes. */
export const MAX_CAPTION_BYTES = 5 * 1024 * 1024

// Control characters but TAB, LF and CR (and DEL).
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/

/** The body as text: UTF-8 only, no control characters but TAB, CR and LF, a leading byte-order mark dropped. */
export function captionText (body: Buffer): string {
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body)
  } catch {
    throw new CaptionError(`Caption body is not UTF-8 text (line ${lineAtByte(body, firstInvalidUtf8(body))}).`)
  }
  if (text.startsWith('\uFEFF')) text = text.slice(1)
  const control = CONTROL.exec(text)
  if (control !== null) {
    const code = control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')
    throw new CaptionError(`Line ${lineAt(text, control.index)}: control character U+${code}; a caption body holds no control characters but TAB, CR and LF.`)
  }
  if (text.trim() === '') throw new CaptionError('Caption body is empty.')
  return text
}

/** The format of a caption body, read from its content. */
export function detectFormat (text: string): CaptionFormat {
  const start = text.trimStart()
  if (start.startsWith('WEBVTT')) return 'webvtt'
  if (start.startsWith('<')) return 'dfxp'
  if (/^\d+\s*\r?\n\s*\d{1,2}:\d{2}:\d{2}[,.]\d{1,3}\s*-->/.test(start)) return 'srt'
  throw new CaptionError('Line 1: not a caption track: DFXP/TTML starts with an XML tag, WebVTT with "WEBVTT", SRT with a cue number and its times.')
}

/** Parses and checks a caption body of any format: every cue well formed, in order, none overlapping. */
export async function parseCaptions (text: string): Promise<ParsedTrack> {
  const format = detectFormat(text)
  if (format === 'dfxp') return { format, ...parseTtml(text) }
  return { format, declaredLanguage: undefined, cues: await parseCueText(text, format) }
}

// --- WebVTT and SRT -------------------------------------------------------------------------------

const VTT_TIME = /^(?:(\d{2,}):)?([0-5]\d):([0-5]\d)\.(\d{3})$/
const SRT_TIME = /^(\d{1,3}):([0-5]\d):([0-5]\d)[,.](\d{1,3})$/

function timeOf (value: string, format: 'webvtt' | 'srt'): number | undefined {
  const match = (format === 'webvtt' ? VTT_TIME : SRT_TIME).exec(value)
  if (match === null) return undefined
  const [, h = '0', m = '0', s = '0', frac = '0'] = match
  return ((Number(h) * 60 + Number(m)) * 60 + Number(s)) * 1000 + Number(frac.padEnd(3, '0'))
}

interface Block { line: number, lines: string[] }

function blocksOf (text: string): Block[] {
  const blocks: Block[] = []
  let current: Block | undefined
  text.split(/\r\n|\r|\n/).forEach((line, i) => {
    if (line.trim() === '') {
      current = undefined
      return
    }
    if (current === undefined) {
      current = { line: i + 1, lines: [] }
      blocks.push(current)
    }
    current.lines.push(line)
  })
  return blocks
}

/**
 * WebVTT and SRT: media-captions reads the cues (header, timestamps, cue settings, payloads) and reports
 * what it cannot read; the blocks are walked here too, since the parser skips silently what the checks
 * refuse (a block that is no cue, a cue that ends before it starts).
 */
async function parseCueText (text: string, format: 'webvtt' | 'srt'): Promise<Cue[]> {
  const parsed = await parseText(text, { type: format === 'webvtt' ? 'vtt' : 'srt', errors: true })
  const first = parsed.errors[0]
  if (first !== undefined) throw new CaptionError(`Line ${first.line}: ${first.message.replace(/ on line \d+$/, '')}.`)
  const blocks = blocksOf(text)
  const timed: Array<{ line: number, startMs: number, endMs: number }> = []
  for (const [index, block] of blocks.entries()) {
    if (format === 'webvtt' && index === 0) continue // the header
    if (format === 'webvtt' && /^(NOTE|STYLE|REGION)\b/.test(block.lines[0] ?? '')) continue
    const at = block.lines.findIndex((line) => line.includes('-->'))
    if (at < 0 || at > 1) throw new CaptionError(`Line ${block.line}: expected a cue (${format === 'srt' ? 'its number, then ' : ''}a "start --> end" line and its text); found "${clip(block.lines[0] ?? '')}".`)
    if (format === 'srt' && (at !== 1 || !/^\d+$/.test((block.lines[0] ?? '').trim()))) {
      throw new CaptionError(`Line ${block.line}: an SRT cue starts with its number.`)
    }
    const line = block.line + at
    const [startText = '', rest = ''] = (block.lines[at] ?? '').split('-->').map((part) => part.trim())
    const endText = rest.split(/\s+/)[0] ?? ''
    const startMs = timeOf(startText, format)
    const endMs = timeOf(endText, format)
    if (startMs === undefined) throw new CaptionError(`Line ${line}: the cue's start "${clip(startText)}" is not a time.`)
    if (endMs === undefined) throw new CaptionError(`Line ${line}: the cue's end "${clip(endText)}" is not a time.`)
    if (block.lines.length === at + 1) throw new CaptionError(`Line ${line}: the cue has no text.`)
    timed.push({ line, startMs, endMs })
  }
  checkTimes(timed)
  if (parsed.cues.length !== timed.length) throw new CaptionError(`Line 1: ${timed.length} cues found, ${parsed.cues.length} readable.`)
  return parsed.cues.map((cue, i) => ({
    startMs: timed[i]?.startMs ?? Math.round(cue.startTime * 1000),
    endMs: timed[i]?.endMs ?? Math.round(cue.endTime * 1000),
    text: format === 'srt' ? srtToVttText(cue.text) : cue.text
  }))
}

/** Every cue ends after it starts, and starts no earlier than the one before it ends. */
function checkTimes (cues: Array<{ line: number, startMs: number, endMs: number }>): void {
  let previous: { line: number, startMs: number, endMs: number } | undefined
  for (const cue of cues) {
    if (cue.endMs <= cue.startMs) {
      throw new CaptionError(`Line ${cue.line}: the cue ends at ${clock(cue.endMs)}, ${cue.endMs === cue.startMs ? 'when' : 'before'} it starts (${clock(cue.startMs)}).`)
    }
    if (previous !== undefined && cue.startMs < previous.endMs) {
      throw new CaptionError(`Line ${cue.line}: the cue starts at ${clock(cue.startMs)}, before the cue of line ${previous.line} ends (${clock(previous.endMs)}).`)
    }
    previous = cue
  }
}

/** SRT text as WebVTT cue text: its b/i/u tags kept, other markup and bare `&`, `<`, `>` escaped. */
function srtToVttText (text: string): string {
  return text
    .replace(/&(?!(?:amp|lt|gt|nbsp|lrm|rlm);)/g, '&amp;')
    .replace(/<(?!\/?[biu]>)/g, '&lt;')
    .replace(/(?<!<\/?[biu])>/g, '&gt;')
}

// --- DFXP/TTML ------------------------------------------------------------------------------------

type XmlNode = Record<string, unknown>
const ATTRIBUTES = ':@'

/**
 * DFXP/TTML: fast-xml-parser's validator names the line of any XML error; the document must be one
 * `tt` element with nothing after it; each `p` of the body with its begin and end (or dur) is a cue,
 * its `span`s flattened and its `br`s line breaks.
 */
function parseTtml (text: string): { declaredLanguage: string | undefined, cues: Cue[] } {
  const valid = XMLValidator.validate(text)
  if (valid !== true) throw new CaptionError(`Line ${valid.err.line}: ${valid.err.msg.replace(/\.$/, '')} (column ${valid.err.col}).`)
  const parser = new XMLParser({
    preserveOrder: true, ignoreAttributes: false, attributeNamePrefix: '', trimValues: false,
    processEntities: true, captureMetaData: true, removeNSPrefix: true
  })
  const document = parser.parse(text) as XmlNode[]
  const roots = document.filter((node) => elementName(node) !== undefined && !elementName(node)?.startsWith('?'))
  const root = roots[0]
  if (root === undefined || elementName(root) !== 'tt') throw new CaptionError('Line 1: a DFXP/TTML document\'s root element is tt.')
  if (roots.length > 1) throw new CaptionError(`Line ${lineOfNode(text, roots[1] as XmlNode)}: content after the end of the tt element.`)
  const rootAttributes = attributesOf(root)
  const tickRate = Number(rootAttributes.tickRate ?? 0) || undefined
  const frameRate = Number(rootAttributes.frameRate ?? 30) || 30
  const timed: Array<{ line: number, startMs: number, endMs: number, text: string }> = []

  const walk = (nodes: XmlNode[], offsetMs: number): void => {
    for (const node of nodes) {
      const name = elementName(node)
      if (name === undefined || name.startsWith('?') || name === 'head') continue
      const attributes = attributesOf(node)
      const line = lineOfNode(text, node)
      const begin = attributes.begin === undefined ? undefined : ttmlTime(attributes.begin, line, 'begin', tickRate, frameRate)
      if (name === 'p') {
        const end = attributes.end === undefined ? undefined : ttmlTime(attributes.end, line, 'end', tickRate, frameRate)
        const dur = attributes.dur === undefined ? undefined : ttmlTime(attributes.dur, line, 'dur', tickRate, frameRate)
        if (begin === undefined) throw new CaptionError(`Line ${line}: the p element has no begin time.`)
        const startMs = offsetMs + begin
        const endMs = end !== undefined ? offsetMs + end : dur !== undefined ? startMs + dur : undefined
        if (endMs === undefined) throw new CaptionError(`Line ${line}: the p element has neither an end time nor a dur.`)
        const cueText = escapeVtt(flatten(children(node))).split('\n').map((part) => part.trim()).filter((part) => part !== '').join('\n')
        if (cueText === '') throw new CaptionError(`Line ${line}: the p element has no text.`)
        timed.push({ line, startMs, endMs, text: cueText })
        continue
      }
      walk(children(node), offsetMs + (name === 'body' || name === 'div' ? begin ?? 0 : 0))
    }
  }
  walk(children(root), 0)
  checkTimes(timed)
  const lang = rootAttributes.lang
  return { declaredLanguage: typeof lang === 'string' && lang !== '' ? lang : undefined, cues: timed.map(({ startMs, endMs, text: cueText }) => ({ startMs, endMs, text: cueText })) }
}

function elementName (node: XmlNode): string | undefined {
  return Object.keys(node).find((key) => key !== ATTRIBUTES && key !== '#text')
}

function children (node: XmlNode): XmlNode[] {
  const name = elementName(node)
  const value = name === undefined ? undefined : node[name]
  return Array.isArray(value) ? value as XmlNode[] : []
}

function attributesOf (node: XmlNode): Record<string, string> {
  return (node[ATTRIBUTES] ?? {}) as Record<string, string>
}

const META = XMLParser.getMetaDataSymbol() as unknown as symbol

function lineOfNode (text: string, node: XmlNode): number {
  const meta = (node as Record<symbol, { startIndex?: number } | undefined>)[META]
  return meta?.startIndex === undefined ? 1 : lineAt(text, meta.startIndex)
}

function flatten (nodes: XmlNode[]): string {
  return nodes.map((node) => {
    if (typeof node['#text'] === 'string' || typeof node['#text'] === 'number') return String(node['#text']).replace(/\s+/g, ' ')
    const name = elementName(node)
    if (name === 'br') return '\n'
    return flatten(children(node))
  }).join('')
}

const CLOCK_TIME = /^(\d{2,}):(\d{2}):(\d{2})(?:\.(\d+)|:(\d{2,})(?:\.\d+)?)?$/
const UNIT_MS = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 } as const
const OFFSET_TIME = /^(\d+(?:\.\d+)?)(h|ms|m|s|f|t)$/

function ttmlTime (value: string, line: number, attribute: string, tickRate: number | undefined, frameRate: number): number {
  const clockTime = CLOCK_TIME.exec(value.trim())
  if (clockTime !== null) {
    const [, h = '0', m = '0', s = '0', fraction, frames] = clockTime
    const base = ((Number(h) * 60 + Number(m)) * 60 + Number(s)) * 1000
    if (fraction !== undefined) return base + Math.round(Number(`0.${fraction}`) * 1000)
    if (frames !== undefined) return base + Math.round(Number(frames) * 1000 / frameRate)
    return base
  }
  const offset = OFFSET_TIME.exec(value.trim())
  if (offset !== null) {
    const amount = Number(offset[1])
    const unit = offset[2]
    const perUnit: Record<string, number> = { ...UNIT_MS, f: 1000 / frameRate, t: 1000 / (tickRate ?? 1) }
    const ms = amount * (perUnit[unit ?? 's'] ?? 1000)
    return Math.round(ms)
  }
  throw new CaptionError(`Line ${line}: ${attribute}="${clip(value)}" is not a TTML time.`)
}

// --- WebVTT rendering -----------------------------------------------------------------------------

function escapeVtt (text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

/** `HH:MM:SS.mmm`. */
export function clock (ms: number): string {
  const h = Math.floor(ms / 3_600_000)
  const m = Math.floor(ms / 60_000) % 60
  const s = Math.floor(ms / 1000) % 60
  const pad = (n: number, width = 2): string => String(n).padStart(width, '0')
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}`
}

/** The cues as a WebVTT file. */
export function renderWebVtt (cues: readonly Cue[]): string {
  return `WEBVTT\n\n${cues.map((cue) => `${clock(cue.startMs)} --> ${clock(cue.endMs)}\n${cue.text}\n`).join('\n')}`
}

// --- lines ----------------------------------------------------------------------------------------

function lineAt (text: string, index: number): number {
  let line = 1
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) line++
  return line
}

function lineAtByte (body: Buffer, index: number): number {
  let line = 1
  for (let i = 0; i < index; i++) if (body[i] === 10) line++
  return line
}

/** The offset of the first byte that breaks UTF-8 (a prefix that breaks it stays broken: a binary search). */
function firstInvalidUtf8 (body: Buffer): number {
  const broken = (end: number): boolean => {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(body.subarray(0, end), { stream: true })
      return false
    } catch {
      return true
    }
  }
  let low = 0
  let high = body.length
  while (low < high) {
    const middle = (low + high) >> 1
    if (broken(middle + 1)) high = middle
    else low = middle + 1
  }
  return low
}

function clip (value: string): string {
  return value.length > 40 ? `${value.slice(0, 40)}…` : value
}
