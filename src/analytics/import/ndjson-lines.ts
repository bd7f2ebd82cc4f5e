/** Bytes or text in pieces: a request stream, a file stream, or an array (sync iterables work with for await). */
export type ByteSource = AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>

/** One line of an NDJSON stream: its 1-based number and text, or why it could not be read. */
export type NdjsonLine = { line: number, text: string } | { line: number, error: string }

export const MAX_LINE_BYTES = 64 * 1024

/**
 * Splits a byte stream into lines without holding more than one line in memory. `\r\n` ends a line
 * too; a line longer than `maxLineBytes` or not valid UTF-8 is reported, not decoded.
 */
export async function * ndjsonLines (source: ByteSource, maxLineBytes = MAX_LINE_BYTES): AsyncGenerator<NdjsonLine> {
  const decoder = new TextDecoder('utf-8', { fatal: true })
  let parts: Buffer[] = []
  let size = 0
  let tooLong = false
  let number = 0
  const finish = (): NdjsonLine => {
    number++
    if (tooLong) return { line: number, error: `line is longer than ${maxLineBytes} bytes.` }
    let bytes = parts.length === 1 ? parts[0] : Buffer.concat(parts)
    if (bytes.at(-1) === 13) bytes = bytes.subarray(0, -1)
    try {
      return { line: number, text: decoder.decode(bytes) }
    } catch {
      return { line: number, error: 'line is not valid UTF-8.' }
    }
  }
  const take = (piece: Buffer): void => {
    if (tooLong) return
    size += piece.length
    if (size > maxLineBytes + 1) { tooLong = true; parts = [] } else parts.push(piece)
  }
  for await (const chunk of source) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
    let start = 0
    for (let nl = buffer.indexOf(10, start); nl !== -1; nl = buffer.indexOf(10, start)) {
      take(buffer.subarray(start, nl))
      yield finish()
      parts = []
      size = 0
      tooLong = false
      start = nl + 1
    }
    // Copy the tail: the caller may reuse the chunk's memory once we ask for the next one.
    if (start < buffer.length) take(Buffer.from(buffer.subarray(start)))
  }
  if (size > 0 || tooLong) yield finish()
}
