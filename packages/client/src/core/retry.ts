import { numberHeader, retryAfterSeconds } from './errors.ts'

/** What may be sent again: after a failure to get any answer, and after which answers. */
export interface RetryPolicy {
  afterNetworkError: boolean
  afterAnswer: (status: number, code: string | undefined) => boolean
}

/** Answers worth another attempt: the server was busy, failed, or out of credits for this minute. */
function isRetryableAnswer (status: number, code: string | undefined): boolean {
  return status === 408 || status === 429 || status >= 500 || (status === 409 && code === 'idempotency_key_in_use')
}

export const NEVER: RetryPolicy = { afterNetworkError: false, afterAnswer: () => false }
const SAFE: RetryPolicy = { afterNetworkError: true, afterAnswer: isRetryableAnswer }

/**
 * When a request may be sent again (docs/client.md, "Retries"):
 *
 * - GET, HEAD, PUT and DELETE are idempotent: retried after a network error, a timeout, a 5xx or a 429.
 * - POST and PATCH are retried only with an `Idempotency-Key`: the server then answers a repeat with the
 *   first answer instead of writing twice, and a 409 `idempotency_key_in_use` (the first attempt still
 *   running) is worth waiting for too.
 */
export function retryPolicy (method: string, idempotencyKey: string | undefined): RetryPolicy {
  const idempotent = method === 'GET' || method === 'HEAD' || method === 'PUT' || method === 'DELETE' || idempotencyKey !== undefined
  return idempotent ? SAFE : NEVER
}

export interface BackoffOptions {
  /** The first wait, doubled at each attempt (ms). */
  initialDelay: number
  /** No computed wait is longer (ms). */
  maxDelay: number
}

export const DEFAULT_BACKOFF: BackoffOptions = { initialDelay: 500, maxDelay: 8000 }

/**
 * How long to wait before attempt `attempt + 1` (ms). The server's word first: `Retry-After`, or for
 * a 429 the credits' `X-RateLimit-Reset`; else exponential backoff with up to 25 % jitter, so clients
 * that failed together do not come back together.
 */
export function retryDelay (attempt: number, headers: Headers | undefined, status: number | undefined, backoff: BackoffOptions = DEFAULT_BACKOFF): number {
  if (headers !== undefined) {
    const told = retryAfterSeconds(headers) ?? (status === 429 ? numberHeader(headers, 'x-ratelimit-reset') : undefined)
    if (told !== undefined) return told * 1000
  }
  const delay = Math.min(backoff.initialDelay * 2 ** attempt, backoff.maxDelay)
  return delay * (1 - Math.random() * 0.25)
}
