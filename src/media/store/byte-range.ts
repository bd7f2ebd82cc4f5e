import { InvalidRangeError } from './store-errors.ts'

/** One byte range as HTTP states it: `bytes=a-b` / `bytes=a-` (`end` absent) or `bytes=-n` (the last n bytes). */
export type ByteRange = { start: number, end?: number } | { suffix: number }

/** A range resolved against an object's size: both ends inclusive, inside the object. */
export interface ResolvedRange {
  start: number
  end: number
}

const SINGLE_RANGE = /^bytes=(\d{0,15})-(\d{0,15})$/

/**
 * Reads a `Range` header. Anything other than one byte range (another unit, several ranges, a reversed
 * range, garbage) gives undefined: RFC 9110 lets a server ignore such a header and send the whole object,
 * which is what a media server should do.
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-14.2
 */
export function parseRangeHeader (header: string | undefined): ByteRange | undefined {
  if (header === undefined) return undefined
  const match = SINGLE_RANGE.exec(header.trim())
  if (match === null) return undefined
  const [, first = '', last = ''] = match
  if (first === '' && last === '') return undefined
  if (first === '') return { suffix: Number(last) }
  const start = Number(first)
  if (last === '') return { start }
  const end = Number(last)
  return end < start ? undefined : { start, end }
}

/** The range argument of `get`: a ByteRange, or a header value that must be one (else InvalidRangeError). */
export function toByteRange (range: ByteRange | string): ByteRange {
  if (typeof range !== 'string') return range
  const parsed = parseRangeHeader(range)
  if (parsed === undefined) throw new InvalidRangeError(range)
  return parsed
}

/**
 * Places a range inside an object of `size` bytes, or null when no byte of it exists (a start at or past
 * the end, a zero-length suffix, any range of an empty object): that is the 416 case.
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-14.1.2
 */
export function resolveRange (range: ByteRange, size: number): ResolvedRange | null {
  if ('suffix' in range) {
    if (range.suffix === 0 || size === 0) return null
    return { start: Math.max(0, size - range.suffix), end: size - 1 }
  }
  if (range.start >= size) return null
  return { start: range.start, end: range.end === undefined ? size - 1 : Math.min(range.end, size - 1) }
}

/** The `Range` header an S3 request carries for this range. */
export function rangeHeader (range: ByteRange): string {
  if ('suffix' in range) return `bytes=-${range.suffix}`
  return `bytes=${range.start}-${range.end ?? ''}`
}

/** `Content-Range` of a partial answer. */
export function contentRange (range: ResolvedRange, size: number): string {
  return `bytes ${range.start}-${range.end}/${size}`
}

const CONTENT_RANGE = /^bytes (\d+)-(\d+)\/(\d+)$/

/** Reads a `Content-Range: bytes a-b/size` answer (an S3 ranged GET); undefined when absent or odd. */
export function parseContentRange (value: string | undefined): { range: ResolvedRange, size: number } | undefined {
  const match = value === undefined ? null : CONTENT_RANGE.exec(value)
  if (match === null) return undefined
  return { range: { start: Number(match[1]), end: Number(match[2]) }, size: Number(match[3]) }
}
