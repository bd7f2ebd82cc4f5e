/** Retry timing shared by the relay and the consumers. */

export interface BackoffOptions {
  /** Delay after the first failure. */
  baseMs: number
  /** The delay never grows past this. */
  maxMs: number
}

/**
 * Exponential backoff with "equal jitter": between half and all of base·2^(attempt-1), capped. The
 * jitter keeps workers that failed together from retrying together.
 */
export function backoffMs (attempt: number, options: BackoffOptions, random: () => number = Math.random): number {
  const full = Math.min(options.maxMs, options.baseMs * 2 ** Math.max(0, Math.min(attempt - 1, 30)))
  return Math.round(full / 2 + random() * (full / 2))
}

/** The logging the workers need; a pino logger fits. */
export interface WorkerLogger {
  info: (obj: object, msg: string) => void
  warn: (obj: object, msg: string) => void
  error: (obj: object, msg: string) => void
}

export const silentLogger: WorkerLogger = { info: () => {}, warn: () => {}, error: () => {} }

/** A sleep that `wake()` ends early: loops poll when idle but react at once when told there is work. */
export class Waker {
  private pending: (() => void) | undefined
  private woken = false

  async sleep (ms: number): Promise<void> {
    if (this.woken) { this.woken = false; return }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms)
      const self = this
      function done (): void { clearTimeout(timer); self.pending = undefined; resolve() }
      this.pending = done
    })
    this.woken = false
  }

  wake (): void {
    if (this.pending !== undefined) this.pending()
    else this.woken = true
  }
}
