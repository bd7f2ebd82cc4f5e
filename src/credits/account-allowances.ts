import { LRUCache } from 'lru-cache'
import { systemClock, type Clock } from '../lib/clock.ts'
import { allowanceFor } from './credit-store.ts'
import { WINDOW_MS } from './window.ts'

/** Reads an account's own allowance (`accounts.credits_per_minute`; null: none). */
export type AllowanceLoader = (accountId: string) => Promise<number | null | undefined>

/** An account's allowance as read at `readAt`; `value` once the read has answered. */
interface Known { allowance: Promise<number>, readAt: number, value: number | undefined }

/** Accounts whose allowance one process remembers; beyond that the least recently charged are read again. */
const MAX_ACCOUNTS = 10_000

/**
 * Each account's allowance per minute: its own `credits_per_minute`, else CREDITS_PER_MINUTE.
 * Read at most once a minute per account and process, so the charge on every request costs no query;
 * a changed override therefore takes effect within a minute. Concurrent first requests share one read.
 */
export class AccountAllowances {
  private readonly known = new LRUCache<string, Known>({ max: MAX_ACCOUNTS })

  constructor (
    private readonly load: AllowanceLoader,
    private readonly globalPerMinute: number,
    private readonly clock: Clock = systemClock,
    private readonly maxAgeMs: number = WINDOW_MS
  ) {}

  async of (accountId: string): Promise<number> {
    const known = this.fresh(accountId)
    if (known !== undefined) return await known.allowance
    const allowance = this.load(accountId).then((own) => allowanceFor(own, this.globalPerMinute))
    const entry: Known = { allowance, readAt: this.clock.now(), value: undefined }
    this.known.set(accountId, entry)
    allowance.then((value) => { entry.value = value }, () => {
      // A failed read is not remembered: the next request tries again.
      if (this.known.get(accountId) === entry) this.known.delete(accountId)
    })
    return await allowance
  }

  /** The allowance when it is already read and still fresh, without waiting; else undefined (use `of`). */
  now (accountId: string): number | undefined {
    return this.fresh(accountId)?.value
  }

  private fresh (accountId: string): Known | undefined {
    const now = this.clock.now()
    const known = this.known.get(accountId)
    return known !== undefined && now >= known.readAt && now - known.readAt < this.maxAgeMs ? known : undefined
  }
}
