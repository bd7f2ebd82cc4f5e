import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Caller } from '../auth/caller.ts'
import { ApiError } from '../errors/index.ts'
import type { SignedRequest } from '../http/request-types.ts'
import type { Clock } from '../lib/clock.ts'
import type { AccountAllowances } from './account-allowances.ts'
import { costOf, type QueryLike } from './cost-table.ts'
import { accountCreditKey, clientCreditKey, type CreditBalance, type CreditCharge, type CreditStore } from './credit-store.ts'
import { resetSeconds } from './window.ts'

/** Credits left in the window after this request (docs/credits-and-cache.md). */
export const CREDITS_HEADER = 'x-ratelimit-credits'
/** Seconds until the window resets, 1 to 60. */
export const RESET_HEADER = 'x-ratelimit-reset'

/**
 * What a request that fails authentication costs its client address, whatever its route: the
 * expensive work never ran, and a balance read (cost 0) must not make guessing free.
 */
export const FAILED_AUTHENTICATION_COST = 1

export interface CreditsGateDeps {
  store: CreditStore
  allowances: AccountAllowances
  /** CREDITS_PER_MINUTE: the budget of each client address (failed authentication). */
  globalAllowance: number
  clock: Clock
}

/**
 * Where the request pipeline charges credits and writes the credit headers. Exactly one charge per
 * request: to the account once the signature is verified, or to the client address when it is not.
 */
export interface CreditsGate {
  /**
   * Charges an authenticated request its cost; throws the 429 before the handler when it is refused.
   * Undefined when the charge was made at once (an in-process store, an allowance already read), so
   * the hot path makes no promise.
   */
  chargeAccount: (request: FastifyRequest, reply: FastifyReply, accountId: string) => Promise<void> | undefined
  /**
   * The lean lane's charge (src/http/lean-lane/): charges the account what `method` on route `url` costs
   * when that can be done at once and is allowed, and returns the credit headers the answer carries, as
   * name, value, name, value. Undefined, having charged nothing, when it cannot be done at once (a shared
   * store, an allowance not yet read) or would be refused: the full pipeline then charges and answers.
   */
  chargeAtOnce: (accountId: string, method: string, url: string, pairs: QueryLike) => string[] | undefined
  /** Charges a request refused before its signature was verified to its client address; returns what to answer (the error, or a 429). */
  chargeFailedAuthentication: (request: FastifyRequest, reply: FastifyReply, error: unknown) => Promise<unknown>
  /** The credit headers of an account's balance, not charged (cache hits, which answer outside Fastify's reply). */
  balanceHeaders: (accountId: string) => Promise<Record<string, string>>
  /**
   * The same headers at once, as name, value, name, value (the hit lane's path without a promise);
   * undefined when they must be asked with `balanceHeaders` (a shared store, an allowance not yet read).
   */
  balanceNow: (accountId: string) => string[] | undefined
  /**
   * onSend: gives a response that was not charged (unsigned route, early error) the client address'
   * balance. Undefined when there is nothing to wait for (a charged response already carries its
   * balance), so the hot path makes no promise.
   */
  fillHeaders: (request: FastifyRequest, reply: FastifyReply) => Promise<void> | undefined
}

export function createCreditsGate (deps: CreditsGateDeps): CreditsGate {
  const { store, allowances, globalAllowance, clock } = deps
  // Each account's counter key, made once: a key built per request is a new string to hash on every charge.
  const accountKeys = new Map<string, string>()
  const accountKey = (accountId: string): string => {
    let key = accountKeys.get(accountId)
    if (key === undefined) {
      if (accountKeys.size >= 10_000) accountKeys.clear()
      key = accountCreditKey(accountId)
      accountKeys.set(accountId, key)
    }
    return key
  }

  function chargeAccount (request: FastifyRequest, reply: FastifyReply, accountId: string): Promise<void> | undefined {
    // The route pattern when there is one, so an odd encoding of the path cannot change the price.
    const signed = request.signed
    const cost = costOf(request.method, signed.policy.url ?? request.url, signed.pairs)
    const allowance = store.chargeNow === undefined ? undefined : allowances.now(accountId)
    if (allowance === undefined || store.chargeNow === undefined) return chargeLater(request, reply, accountId, cost)
    charged(request, reply, accountId, store.chargeNow(accountKey(accountId), cost, allowance))
    return undefined
  }

  function chargeAtOnce (accountId: string, method: string, url: string, pairs: QueryLike): string[] | undefined {
    if (store.chargeNow === undefined) return undefined
    const allowance = allowances.now(accountId)
    if (allowance === undefined) return undefined
    // An in-process store refuses without counting (MemoryCreditStore), so the full pipeline's charge of the same request is its only one.
    const charge = store.chargeNow(accountKey(accountId), costOf(method, url, pairs), allowance)
    return charge.allowed ? [CREDITS_HEADER, String(charge.remaining), RESET_HEADER, String(charge.resetSeconds)] : undefined
  }

  async function chargeLater (request: FastifyRequest, reply: FastifyReply, accountId: string, cost: number): Promise<void> {
    charged(request, reply, accountId, await store.charge(accountCreditKey(accountId), cost, await allowances.of(accountId)))
  }

  function charged (request: FastifyRequest, reply: FastifyReply, accountId: string, charge: CreditCharge): void {
    request.signed.credits = charge
    setHeaders(reply, charge)
    if (!charge.allowed) throw exhausted(`account ${accountId}`, charge.resetSeconds)
  }

  async function chargeFailedAuthentication (request: FastifyRequest, reply: FastifyReply, error: unknown): Promise<unknown> {
    // Our own failures (5xx) are not the client's to pay for.
    if (!(error instanceof ApiError) || error.status >= 500) return error
    const charge = await store.charge(clientCreditKey(request.ip), FAILED_AUTHENTICATION_COST, globalAllowance)
    setHeaders(reply, charge)
    return charge.allowed ? error : exhausted(`client address ${request.ip}`, charge.resetSeconds)
  }

  async function balanceHeaders (accountId: string): Promise<Record<string, string>> {
    return headersOf(await safePeek(accountCreditKey(accountId), async () => await allowances.of(accountId)))
  }

  function fillHeaders (request: FastifyRequest, reply: FastifyReply): Promise<void> | undefined {
    if (reply.hasHeader(CREDITS_HEADER)) return undefined
    const balance = callerIfAny(request) === undefined ? peekNow(clientCreditKey(request.ip), globalAllowance) : undefined
    if (balance === undefined) return fillUncharged(request, reply)
    setHeaders(reply, balance)
    return undefined
  }

  function balanceNow (accountId: string): string[] | undefined {
    const allowance = store.peekNow === undefined ? undefined : allowances.now(accountId)
    const balance = allowance === undefined ? undefined : peekNow(accountKey(accountId), allowance)
    return balance === undefined ? undefined : [CREDITS_HEADER, String(balance.remaining), RESET_HEADER, String(balance.resetSeconds)]
  }

  /** A balance an in-process store answers at once; undefined otherwise, or when it fails (`safePeek` then decides). */
  function peekNow (key: string, allowance: number): CreditBalance | undefined {
    try {
      return store.peekNow?.(key, allowance)
    } catch {
      return undefined
    }
  }

  async function fillUncharged (request: FastifyRequest, reply: FastifyReply): Promise<void> {
    // Set only when the account's own charge failed (credits store down): show the account, not the address.
    const caller = callerIfAny(request)
    if (caller !== undefined) reply.headers(await balanceHeaders(caller.accountId))
    else setHeaders(reply, await safePeek(clientCreditKey(request.ip), async () => globalAllowance))
  }

  /** A balance to show, never an error: when it cannot be read, the full allowance is the estimate. */
  async function safePeek (key: string, allowanceOf: () => Promise<number>): Promise<Pick<CreditBalance, 'remaining' | 'resetSeconds'>> {
    try {
      return await store.peek(key, await allowanceOf())
    } catch {
      return { remaining: globalAllowance, resetSeconds: resetSeconds(clock.now()) }
    }
  }

  return { chargeAccount, chargeAtOnce, chargeFailedAuthentication, balanceHeaders, balanceNow, fillHeaders }
}

/** The verified caller, if any: a request refused before the pipeline began (a URL Fastify cannot decode) has no pipeline state. */
function callerIfAny (request: FastifyRequest): Caller | undefined {
  return (request.signed as SignedRequest | undefined)?.caller
}

function setHeaders (reply: FastifyReply, balance: Pick<CreditBalance, 'remaining' | 'resetSeconds'>): void {
  reply.header(CREDITS_HEADER, String(balance.remaining))
  reply.header(RESET_HEADER, String(balance.resetSeconds))
}

function headersOf (balance: Pick<CreditBalance, 'remaining' | 'resetSeconds'>): Record<string, string> {
  // Assigned rather than a literal with computed names, which V8 can define through its runtime
  // (`DefineKeyedOwnPropertyInLiteral`) on every call (docs/benchmarks.md, instruction counts).
  const headers: Record<string, string> = {}
  headers[CREDITS_HEADER] = String(balance.remaining)
  headers[RESET_HEADER] = String(balance.resetSeconds)
  return headers
}

/** The 429 of docs/credits-and-cache.md, with Retry-After in seconds (RFC 9110 §10.2.3). */
function exhausted (who: string, seconds: number): ApiError {
  return new ApiError('credits_exhausted', `Request limit exceeded for ${who}. Try again after ${seconds} seconds.`,
    undefined, { 'Retry-After': String(seconds) })
}

/**
 * CREDITS_ENABLED=false: nothing is charged and no credit headers are sent; the balance route answers
 * the full allowance. For private deployments and for measuring what credits cost (bench/).
 */
export function createDisabledCreditsGate (deps: Pick<CreditsGateDeps, 'globalAllowance' | 'clock'>): CreditsGate {
  return {
    chargeAccount: async (request) => {
      request.signed.credits = { remaining: deps.globalAllowance, resetSeconds: resetSeconds(deps.clock.now()) }
    },
    chargeAtOnce: () => [],
    chargeFailedAuthentication: async (_request, _reply, error) => error,
    balanceHeaders: async () => ({}),
    balanceNow: () => [],
    fillHeaders: () => undefined
  }
}
