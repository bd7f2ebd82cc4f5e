/**
 * Whether a key was offered before, remembered in a fixed table of hashes: a cache's admission filter
 * for keys that are mostly seen once (a verified URL, when clients sign each request anew), so that only
 * a key seen twice takes a place in the cache. Memory is the table alone (4 bytes a slot), whatever the
 * keys. A key whose slot another key took since is forgotten (it is admitted one sight later); two keys
 * of one 32-bit hash count as one (one is admitted a sight early). Either way only what is cached
 * changes, never an answer.
 */
export class SeenBefore {
  readonly #slots: Uint32Array
  readonly #mask: number

  /** `slots` is rounded up to a power of two. */
  constructor (slots: number) {
    let size = 1
    while (size < slots) size *= 2
    this.#slots = new Uint32Array(size)
    this.#mask = size - 1
  }

  /** True when the key was offered before (and is then forgotten); false the first time (it is then remembered). */
  offer (key: string): boolean {
    const hash = fnv1a(key)
    const slot = hash & this.#mask
    const mark = (hash | 1) >>> 0 // never 0, which marks an empty slot
    if (this.#slots[slot] === mark) {
      this.#slots[slot] = 0
      return true
    }
    this.#slots[slot] = mark
    return false
  }

  clear (): void {
    this.#slots.fill(0)
  }
}

/** 32-bit FNV-1a over the UTF-16 code units. */
function fnv1a (text: string): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return hash
}
