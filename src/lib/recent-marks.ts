/**
 * When each key was last marked (a tag purged, an account's rows forgotten), as a sequence number, for
 * the most recent `max` keys only. A cache consults it before storing what a request read: if one of
 * the request's keys was marked after the request began, what it read may be stale. Forgetting old
 * marks never gives a wrong "not marked": a request that began before the newest forgotten mark is
 * answered "marked", as if everything had been, so at worst one answer goes unstored.
 */
export class RecentMarks {
  #sequence = 0
  /** Requests that began before this sequence number may have missed a forgotten mark. */
  #floor = 0
  /** Insertion order is sequence order: a key marked again is moved to the end. */
  readonly #at = new Map<string, number>()

  constructor (private readonly max: number) {}

  /** The current sequence number: read when a request begins, handed back to `markedSince`. */
  get sequence (): number { return this.#sequence }

  /** How many marks are remembered. */
  get size (): number { return this.#at.size }

  /** Marks the keys at one new sequence number, forgetting the oldest marks past the bound. */
  mark (keys: Iterable<string>): void {
    this.#sequence += 1
    for (const key of keys) {
      this.#at.delete(key)
      this.#at.set(key, this.#sequence)
    }
    for (const [key, at] of this.#at) {
      if (this.#at.size <= this.max) break
      this.#at.delete(key)
      this.#floor = Math.max(this.#floor, at)
    }
  }

  /** Marks everything: any request begun before now is answered "marked". */
  markAll (): void {
    this.#sequence += 1
    this.#floor = this.#sequence
    this.#at.clear()
  }

  /** Whether any of `keys` may have been marked after `sequence` was read. */
  markedSince (sequence: number, keys: Iterable<string>): boolean {
    if (this.#floor > sequence) return true
    for (const key of keys) if ((this.#at.get(key) ?? 0) > sequence) return true
    return false
  }
}
