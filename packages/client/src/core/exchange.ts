import { APIConnectionError, APIConnectionTimeoutError, APIUserAbortError, errorOf, type Problem } from './errors.ts'
import { retryDelay, type RetryPolicy } from './retry.ts'

/** A `fetch`: the global one by default; pass your own for a proxy, a private CA or tests. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>

export interface ExchangeOptions {
  fetch: FetchLike
  /** Builds the request of each attempt (a signed request is signed again, with a fresh `expires`). */
  prepare: (attempt: number) => Promise<{ url: string, init: RequestInit }>
  /** When the request may be sent again (see `retryPolicy`). */
  retry: RetryPolicy
  maxRetries: number
  /** A wait the server asks for that is longer than this (ms) is not waited for: the error is thrown. */
  maxRetryDelay: number
  /** Per attempt (ms). */
  timeout: number
  signal?: AbortSignal
  /** Sees the headers of every answer (the credit balance is read from them). */
  onAnswer?: (headers: Headers) => void
  /**
   * An error status that means success when an earlier attempt may have reached the server: a DELETE
   * whose first answer was lost finds the resource gone (404) because that attempt deleted it.
   */
  doneAlready?: (status: number) => boolean
}

/** An answer, read whole. */
export interface Answer {
  status: number
  headers: Headers
  text: string
}

/**
 * One request, with the retries it may have: resolves with the first successful answer, throws the
 * error answer (`APIError` and its subclasses) or `APIConnectionError` when no answer came.
 */
export async function exchange (options: ExchangeOptions): Promise<Answer> {
  // Whether an attempt went out and its answer was lost: the server may have applied it.
  let mayHaveApplied = false
  for (let attempt = 0; ; attempt++) {
    const mayRetry = attempt < options.maxRetries
    const { url, init } = await options.prepare(attempt)
    let response: Answer
    try {
      response = await fetchWithTimeout(options, url, init)
    } catch (error) {
      if (error instanceof APIUserAbortError || !mayRetry || !options.retry.afterNetworkError) throw error
      mayHaveApplied = true
      await wait(retryDelay(attempt, undefined, undefined), options.signal)
      continue
    }
    options.onAnswer?.(response.headers)
    if (response.status < 400 || (mayHaveApplied && options.doneAlready?.(response.status) === true)) return response
    const problem = problemOf(response.text)
    if (mayRetry && options.retry.afterAnswer(response.status, problem?.code)) {
      const delay = retryDelay(attempt, response.headers, response.status)
      if (delay <= options.maxRetryDelay) {
        await wait(delay, options.signal)
        continue
      }
    }
    throw errorOf(response.status, problem, response.headers)
  }
}

async function fetchWithTimeout (options: ExchangeOptions, url: string, init: RequestInit): Promise<Answer> {
  const controller = new AbortController()
  const outer = options.signal
  // A function, so the compiler does not take the state read before the await for the state after it.
  const userAborted = (): boolean => outer?.aborted === true
  if (userAborted()) throw new APIUserAbortError('The request was aborted.')
  const abort = (): void => { controller.abort() }
  outer?.addEventListener('abort', abort, { once: true })
  let timedOut = false
  const timer = setTimeout(() => { timedOut = true; controller.abort() }, options.timeout)
  try {
    const response = await options.fetch(url, { ...init, signal: controller.signal })
    // The body is read here, under the same timeout and signal, so a stalled body counts as a timeout.
    return { status: response.status, headers: response.headers, text: await response.text() }
  } catch (error) {
    if (userAborted()) throw new APIUserAbortError('The request was aborted.', { cause: error })
    if (timedOut) throw new APIConnectionTimeoutError(`No answer from ${origin(url)} within ${options.timeout} ms.`, { cause: error })
    throw new APIConnectionError(`Could not reach ${origin(url)}: ${reason(error)}`, { cause: error })
  } finally {
    clearTimeout(timer)
    outer?.removeEventListener('abort', abort)
  }
}

/** The problem document of an error answer, if it is one. */
function problemOf (text: string): Problem | undefined {
  try {
    const body: unknown = JSON.parse(text)
    return typeof body === 'object' && body !== null && typeof (body as Problem).message === 'string' ? body as Problem : undefined
  } catch {
    return undefined
  }
}

function wait (ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(new APIUserAbortError('The request was aborted.'))
      return
    }
    const timer = setTimeout(() => { signal?.removeEventListener('abort', stop); resolve() }, ms)
    const stop = (): void => { clearTimeout(timer); reject(new APIUserAbortError('The request was aborted.')) }
    signal?.addEventListener('abort', stop, { once: true })
  })
}

/** Scheme, host and port only: a signed URL's query is nobody's business in an error message. */
function origin (url: string): string {
  try {
    return new URL(url).origin
  } catch {
    return 'the server'
  }
}

function reason (error: unknown): string {
  const cause = (error as { cause?: { code?: string, message?: string } } | undefined)?.cause
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error))
}
