import { LRUCache } from 'lru-cache'
import { systemClock, type Clock } from '../lib/clock.ts'
import { allowanceFor } from './credit-store.ts'
import { WINDOW_MS } from './window.ts'

/** Reads an account's own allowance (`accounts.credits_per_minute`; null: none). */
export type AllowanceLoader = (accountId: string) => Promise<number | null | undefined>

/** Accounts whose allowance one process remembers; beyond that the least recently charged are read again. */
const MAX_ACCOUNTS = 10_000

/**
 * Each account's allowance per minute: its own `credits_per_minute`, else CREDITS_PER_MINUTE.
 * Read at most once a minute per account and process, so the charge on every request costs no query;
 * a changed override therefore takes effect within a minute. Concurrent first requests share one read.
 */
export class AccountAllowances {
  private readonly known = new LRUCache<string, { allowance: Promise<number>, readAt: number }>({ max: MAX_ACCOUNTS })

  constructor (
    private readonly load: AllowanceLoader,
    private readonly globalPerMinute: number,
    private readonly clock: Clock = systemClock,
    private readonly maxAgeMs: number = WINDOW_MS
  ) {}

  async of (accountId: string): Promise<number> {
    const now = this.clock.now()
    const known = this.known.get(accountId)
    if (known !== undefined && now >= known.readAt && now - known.readAt < this.maxAgeMs) return await known.allowance
    const allowance = this.load(accountId).then((own) => allowanceFor(own, this.globalPerMinute))
    this.known.set(accountId, { allowance, readAt: now })
    // A failed read is not remembered: the next request tries again.
    allowance.catch(() => { if (this.known.get(accountId)?.allowance === allowance) this.known.delete(accountId) })
    return await allowance
  }
}
