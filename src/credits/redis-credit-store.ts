import type { Redis } from 'ioredis'
import { systemClock, type Clock } from '../lib/clock.ts'
import {
  checkArguments, CreditsUnavailableError, silentLogger,
  type CreditBalance, type CreditCharge, type CreditFailureMode, type CreditStore, type StoreLogger
} from './credit-store.ts'
import { msUntilReset, resetSeconds, windowIndex, WINDOW_MS } from './window.ts'

/**
 * Charges and reads in one round trip, atomically: Redis runs a script without interleaving, so two
 * processes charging the same key can never both take the last credits.
 * KEYS[1] counter of one key in one window; ARGV cost, allowance, expiry in ms. Returns {allowed, used}.
 */
const CHARGE_LUA = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local cost = tonumber(ARGV[1])
if cost == 0 then return {1, used} end
if used + cost > tonumber(ARGV[2]) then return {0, used} end
used = redis.call('INCRBY', KEYS[1], cost)
if used == cost then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return {1, used}
`

const COMMAND = 'reelhouseCreditCharge'

type ChargeCommand = (key: string, cost: number, allowance: number, expiryMs: number) => Promise<[number, number]>

export interface RedisCreditStoreOptions {
  /**
   * The caller owns the connection. Create it with `enableOfflineQueue: false` (and a
   * `commandTimeout`), so a charge fails at once while Redis is away instead of waiting in the
   * offline queue; wait for `ready` before serving.
   */
  redis: Redis
  clock?: Clock
  /** Default `serve`. */
  failureMode?: CreditFailureMode
  /** Prepended to every key; tests use a unique one per run. Default `reelhouse:credits:`. */
  keyPrefix?: string
  logger?: StoreLogger
}

/**
 * Counters shared by every process (docs/credits-and-cache.md, scale-out). One key per counter and window,
 * `<prefix><key>:<minute>`, expiring a minute after its window ends: the window is part of the
 * name, so the expiry only collects garbage and a slow clock on one host cannot cut a window short.
 */
export class RedisCreditStore implements CreditStore {
  private readonly redis: Redis
  private readonly chargeCommand: ChargeCommand
  private readonly clock: Clock
  private readonly failureMode: CreditFailureMode
  private readonly keyPrefix: string
  private readonly logger: StoreLogger
  private failing = false
  private failedCalls = 0
  /** Requests refused (failure mode `refuse`) since start: `reelhouse_redis_refusals_total`. */
  refusals = 0

  constructor (options: RedisCreditStoreOptions) {
    this.redis = options.redis
    this.clock = options.clock ?? systemClock
    this.failureMode = options.failureMode ?? 'serve'
    this.keyPrefix = options.keyPrefix ?? 'reelhouse:credits:'
    this.logger = options.logger ?? silentLogger
    // defineCommand sends EVALSHA and falls back to EVAL once per connection when the script is not loaded.
    this.redis.defineCommand(COMMAND, { numberOfKeys: 1, lua: CHARGE_LUA })
    this.chargeCommand = (this.redis as unknown as Record<string, ChargeCommand>)[COMMAND].bind(this.redis)
  }

  async charge (key: string, cost: number, allowance: number): Promise<CreditCharge> {
    checkArguments(cost, allowance)
    const now = this.clock.now()
    const reset = resetSeconds(now)
    let reply: [number, number]
    try {
      reply = await this.chargeCommand(this.keyFor(key, now), cost, allowance, msUntilReset(now) + WINDOW_MS)
    } catch (error) {
      // One charge per request: a refused charge is a refused request (the headers' peek after it is not).
      if (this.failureMode === 'refuse') this.refusals++
      this.failed(error)
      return { allowed: true, remaining: Math.max(0, allowance - cost), resetSeconds: reset, degraded: true }
    }
    this.succeeded()
    const [allowed, used] = reply
    return { allowed: allowed === 1, remaining: Math.max(0, allowance - used), resetSeconds: reset, degraded: false }
  }

  async peek (key: string, allowance: number): Promise<CreditBalance> {
    checkArguments(0, allowance)
    const now = this.clock.now()
    const reset = resetSeconds(now)
    let used: string | null
    try {
      used = await this.redis.get(this.keyFor(key, now))
    } catch (error) {
      this.failed(error)
      return { remaining: allowance, resetSeconds: reset, degraded: true }
    }
    this.succeeded()
    return { remaining: Math.max(0, allowance - Number(used ?? 0)), resetSeconds: reset, degraded: false }
  }

  private keyFor (key: string, now: number): string {
    return `${this.keyPrefix}${key}:${windowIndex(now)}`
  }

  /** Logs the first failure of an outage only (then one line on recovery), so an outage cannot flood the log. */
  private failed (error: unknown): void {
    if (!this.failing) {
      this.failing = true
      this.failedCalls = 0
      const effect = this.failureMode === 'serve' ? 'serving requests without counting credits' : 'refusing requests with 503'
      this.logger.warn({ err: error, failureMode: this.failureMode }, `credits store (Redis) unreachable: ${effect}`)
    }
    this.failedCalls++
    if (this.failureMode === 'refuse') throw new CreditsUnavailableError(error)
  }

  private succeeded (): void {
    if (!this.failing) return
    this.failing = false
    this.logger.info({ failedCalls: this.failedCalls }, 'credits store (Redis) reachable again')
  }
}
