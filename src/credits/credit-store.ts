import { ApiError } from '../errors/index.ts'

/** What a counter says about one key in the current window. */
export interface CreditBalance {
  /** Credits left in the current window after this call (never negative). */
  remaining: number
  /** Seconds until the window resets, 1 to 60 (see window.ts). */
  resetSeconds: number
  /**
   * True when the shared store could not be reached and the failure mode is `serve`: the request
   * was let through uncounted and `remaining` is an estimate (the allowance minus this cost).
   */
  degraded: boolean
}

export interface CreditCharge extends CreditBalance {
  /** False when the cost exceeds what is left; then nothing was consumed. */
  allowed: boolean
}

/**
 * Per-key credit counters in fixed one-minute windows. Implementations take the window from an
 * injected clock. A charge either consumes `cost` in full or, when `cost` exceeds what is left,
 * refuses and consumes nothing. A cost of 0 reads without writing and is always allowed, so the
 * balance can be read even when it is empty.
 *
 * When a shared store is unreachable, implementations either answer `degraded: true` (failure mode
 * `serve`) or throw CreditsUnavailableError (failure mode `refuse`).
 */
export interface CreditStore {
  charge: (key: string, cost: number, allowance: number) => Promise<CreditCharge>
  peek: (key: string, allowance: number) => Promise<CreditBalance>
  /** The same as `charge` and `peek`, answered at once: only a store that keeps its counters in this process has them. */
  chargeNow?: (key: string, cost: number, allowance: number) => CreditCharge
  peekNow?: (key: string, allowance: number) => CreditBalance
}

/** What to do when the shared store is unreachable (REDIS_FAILURE_MODE): serve and log, or refuse with 503. */
export type CreditFailureMode = 'serve' | 'refuse'

/** Seconds a client is told to wait when credits cannot be checked; short, since outages are. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5

/**
 * Thrown in failure mode `refuse` when the credits store cannot be reached. It is an ApiError
 * (503 `dependency_unavailable` with Retry-After), so the one error handler answers it unchanged;
 * the Redis error is kept in `cause` for the log and never reaches the client.
 */
export class CreditsUnavailableError extends ApiError {
  constructor (cause: unknown) {
    super('dependency_unavailable', 'Credits cannot be checked right now. Try again shortly.', undefined,
      { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) })
    this.name = 'CreditsUnavailableError'
    this.cause = cause
  }
}

/** The part of a pino logger the stores use. */
export interface StoreLogger {
  warn: (obj: object, msg: string) => void
  info: (obj: object, msg: string) => void
}

export const silentLogger: StoreLogger = { warn: () => {}, info: () => {} }

/** Counter key of an account: what authenticated requests are charged to. */
export function accountCreditKey (accountId: string): string {
  return `account:${accountId}`
}

/**
 * Counter key of a client address: what requests that fail authentication are charged to, so a
 * stranger naming someone's API key cannot spend that account's credits.
 */
export function clientCreditKey (address: string): string {
  return `client:${address}`
}

/** An account's allowance per minute: its own setting (`accounts.credits_per_minute`) or the global one. */
export function allowanceFor (accountCreditsPerMinute: number | null | undefined, globalCreditsPerMinute: number): number {
  return accountCreditsPerMinute ?? globalCreditsPerMinute
}

/** Programming errors, not client errors: a negative or fractional cost would corrupt counters. */
export function checkArguments (cost: number, allowance: number): void {
  if (!Number.isSafeInteger(cost) || cost < 0) throw new RangeError(`cost must be a non-negative integer, got ${cost}`)
  if (!Number.isSafeInteger(allowance) || allowance < 0) throw new RangeError(`allowance must be a non-negative integer, got ${allowance}`)
}
