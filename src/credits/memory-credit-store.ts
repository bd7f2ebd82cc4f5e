import { systemClock, type Clock } from '../lib/clock.ts'
import { checkArguments, type CreditBalance, type CreditCharge, type CreditStore } from './credit-store.ts'
import { resetSeconds, windowIndex } from './window.ts'

/**
 * In-process counters (the embedded default, docs/configuration.md). Node runs this synchronously between
 * awaits, so a charge is atomic within the process. Only the current window is kept: when the clock
 * enters a new window the whole map is dropped, so memory holds one minute of keys at most.
 */
export class MemoryCreditStore implements CreditStore {
  private window = Number.NaN
  private used = new Map<string, number>()

  constructor (private readonly clock: Clock = systemClock) {}

  async charge (key: string, cost: number, allowance: number): Promise<CreditCharge> {
    return this.chargeNow(key, cost, allowance)
  }

  async peek (key: string, allowance: number): Promise<CreditBalance> {
    return this.peekNow(key, allowance)
  }

  chargeNow (key: string, cost: number, allowance: number): CreditCharge {
    checkArguments(cost, allowance)
    const now = this.clock.now()
    const used = this.usedIn(windowIndex(now), key)
    const left = Math.max(0, allowance - used)
    if (cost > left) return { allowed: false, remaining: left, resetSeconds: resetSeconds(now), degraded: false }
    if (cost > 0) this.used.set(key, used + cost)
    return { allowed: true, remaining: left - cost, resetSeconds: resetSeconds(now), degraded: false }
  }

  peekNow (key: string, allowance: number): CreditBalance {
    checkArguments(0, allowance)
    const now = this.clock.now()
    const used = this.usedIn(windowIndex(now), key)
    return { remaining: Math.max(0, allowance - used), resetSeconds: resetSeconds(now), degraded: false }
  }

  private usedIn (window: number, key: string): number {
    // `!==` rather than `>`: a clock set backwards also starts afresh instead of reusing stale counts.
    if (window !== this.window) {
      this.window = window
      this.used = new Map()
    }
    return this.used.get(key) ?? 0
  }
}
