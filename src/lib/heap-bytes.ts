/**
 * V8's heap taken by a value, estimated on the high side: a string's header and characters (one byte
 * each when all are Latin-1), a number's box, an object's header and a slot per property (the names
 * are shared by every object of the same shape), an array's header and slots; nested values below
 * that, to a few levels. An object met twice (a caller shared by two entries) is counted twice. Bytes
 * outside the heap (a Buffer's contents) are not counted: their owner counts them.
 */
export function heapBytes (value: unknown, depth = 0): number {
  if (typeof value === 'string') return 16 + Math.ceil(value.length * (LATIN1.test(value) ? 1 : 2) / 8) * 8
  if (typeof value === 'number') return 16
  if (value === null || typeof value !== 'object') return 0
  if (depth > 4) return 64
  if (Array.isArray(value)) {
    let bytes = 32 + 8 * value.length
    for (const item of value) bytes += heapBytes(item, depth + 1)
    return bytes
  }
  let bytes = 32
  for (const name in value) bytes += 8 + heapBytes((value as Record<string, unknown>)[name], depth + 1)
  return bytes
}

const LATIN1 = /^[\u0000-\u00ff]*$/
