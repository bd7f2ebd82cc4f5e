import type { ErrorCode } from '../generated/errors.ts'

/** Everything the client throws is a `ReelhouseError`. */
export class ReelhouseError extends Error {
  override name = 'ReelhouseError'
}

/** The problem document the server answers errors with (docs/api.md, "Responses and errors"). */
export interface Problem {
  message: string
  code?: ErrorCode | (string & {})
  request_id?: string
  /** Validation errors: field → messages. */
  errors?: Record<string, string[]>
  [member: string]: unknown
}

/**
 * An error answer of the API: its status, the server's stable `code`, the `requestId` to quote in a bug
 * report, the response headers and the problem document. Subclasses name the status family.
 */
export class APIError extends ReelhouseError {
  override name = 'APIError'
  /** The HTTP status. */
  readonly status: number
  /** The problem document as answered. */
  readonly body: Problem | undefined
  readonly headers: Headers
  /** The server's stable error code (`label_not_found`, `credits_exhausted`, …). */
  readonly code: Problem['code']
  /** `X-Request-Id` of the answer: the server's logs know this request by it. */
  readonly requestId: string | undefined
  /** Validation errors by field, when the server named fields. */
  readonly errors: Record<string, string[]> | undefined

  constructor (status: number, body: Problem | undefined, headers: Headers, message: string) {
    super(message)
    this.status = status
    this.body = body
    this.headers = headers
    this.code = body?.code
    this.requestId = headers.get('x-request-id') ?? body?.request_id
    this.errors = body?.errors
  }
}

/** 400: the request was refused as it stands; `code` says why, `errors` which fields. */
export class BadRequestError extends APIError {
  override name = 'BadRequestError'
  /** An incomplete upload: the chunks the server never received. */
  get missingChunks (): string[] | undefined { return this.body?.missing_chunks as string[] | undefined }
  /** An incomplete upload: the chunks whose size did not match their range. */
  get badChunks (): string[] | undefined { return this.body?.bad_chunks as string[] | undefined }
}

/** 401: unknown key, wrong signature or an expired request. */
export class AuthenticationError extends APIError {
  override name = 'AuthenticationError'
}

/** 403: the user's role may not do this (or HTTPS is required). */
export class PermissionDeniedError extends APIError {
  override name = 'PermissionDeniedError'
}

/** 404: no such resource in this account (another account's ids are 404 too). */
export class NotFoundError extends APIError {
  override name = 'NotFoundError'
}

/** 409: the resource's state forbids the change, or a request with the same idempotency key is still running. */
export class ConflictError extends APIError {
  override name = 'ConflictError'
}

/** 429: the account's credits for this minute are spent. */
export class RateLimitError extends APIError {
  override name = 'RateLimitError'
  /** Seconds until the credits reset, from `Retry-After` (else `X-RateLimit-Reset`). */
  readonly retryAfter: number | undefined

  constructor (status: number, body: Problem | undefined, headers: Headers, message: string) {
    super(status, body, headers, message)
    this.retryAfter = retryAfterSeconds(headers) ?? numberHeader(headers, 'x-ratelimit-reset')
  }
}

/** 5xx: the server failed, or a dependency of it is down (503). */
export class InternalServerError extends APIError {
  override name = 'InternalServerError'
}

/** The server could not be reached, or the connection broke before an answer arrived. */
export class APIConnectionError extends ReelhouseError {
  override name = 'APIConnectionError'
}

/** No answer within the client's `timeout`. */
export class APIConnectionTimeoutError extends APIConnectionError {
  override name = 'APIConnectionTimeoutError'
}

/** The caller's `AbortSignal` ended the request. */
export class APIUserAbortError extends ReelhouseError {
  override name = 'APIUserAbortError'
}

const BY_STATUS: Record<number, typeof APIError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  429: RateLimitError
}

/** The error class of an error answer, by status family. */
export function errorOf (status: number, body: Problem | undefined, headers: Headers): APIError {
  const Class = BY_STATUS[status] ?? (status >= 500 ? InternalServerError : APIError)
  return new Class(status, body, headers, body?.message ?? `HTTP ${status}`)
}

/** `Retry-After` in seconds: a number of seconds or an HTTP date (RFC 9110 §10.2.3). */
export function retryAfterSeconds (headers: Headers): number | undefined {
  const value = headers.get('retry-after')
  if (value === null) return undefined
  if (/^\d+$/.test(value.trim())) return Number(value)
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000))
}

export function numberHeader (headers: Headers, name: string): number | undefined {
  const value = headers.get(name)
  return value !== null && /^\d+$/.test(value.trim()) ? Number(value) : undefined
}
