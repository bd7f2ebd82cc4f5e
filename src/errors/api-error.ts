import { ERRORS, type ErrorCode } from './catalogue.ts'

/** Extra members of the problem document (validation `errors`, `missing_chunks`, …). */
export type ProblemExtras = Record<string, unknown>

/**
 * The only error type our code throws on purpose. Its status comes from the catalogue, so a code
 * always means the same status.
 * @example throw new ApiError('user_not_found', 'User 1f2e… does not exist.')
 */
export class ApiError extends Error {
  readonly code: ErrorCode
  readonly status: number
  readonly extras: ProblemExtras | undefined
  readonly headers: Record<string, string> | undefined

  constructor (code: ErrorCode, message: string, extras?: ProblemExtras, headers?: Record<string, string>) {
    super(message)
    this.name = 'ApiError'
    this.code = code
    this.status = ERRORS[code].status
    this.extras = extras === undefined ? undefined : plainErrors(extras)
    this.headers = headers
  }
}

/**
 * Validation `errors` are gathered in tables without a prototype, so that a field named `constructor`
 * or `__proto__` is an ordinary entry; the error carries them as a plain object with the same own
 * entries (`Object.fromEntries` defines each key, `__proto__` included, as data), as clients and
 * tests compare it.
 */
function plainErrors (extras: ProblemExtras): ProblemExtras {
  const errors = extras.errors
  if (typeof errors !== 'object' || errors === null || Object.getPrototypeOf(errors) !== null) return extras
  return { ...extras, errors: Object.fromEntries(Object.entries(errors)) }
}

/** A 400 that names the offending fields, in the `{field: [messages]}` shape clients of this API family read. */
export function validationError (message: string, errors: Record<string, string[]>): ApiError {
  return new ApiError('validation_failed', message, { errors })
}
