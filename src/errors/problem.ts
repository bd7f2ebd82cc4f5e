import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { ERRORS } from './catalogue.ts'
import { ApiError } from './api-error.ts'
import { isDatabaseBusy } from '../db/busy.ts'

/** Seconds a client waits before sending a write the busy database turned away again. */
const DATABASE_BUSY_RETRY_AFTER = '1'

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The error reference every problem's `type` links into: PUBLIC_API_URL's `/docs/errors`, absolute,
     * since the cached variant and the indexing service do not serve it themselves.
     */
    errorReference: string
  }
}

/** The error reference's absolute URL under the main service's public URL. */
export function errorReferenceOf (publicApiUrl: string): string {
  return `${publicApiUrl}/docs/errors`
}

/**
 * The one serializer of error bodies: the `message` clients of this API family read, plus the
 * RFC 9457 members, a stable `code` and the `request_id` (docs/api.md, "Responses and errors").
 */
export function problemBody (error: ApiError, requestId: string, errorReference: string): Record<string, unknown> {
  return {
    message: error.message,
    type: `${errorReference}#${error.code}`,
    title: ERRORS[error.code].title,
    status: error.status,
    detail: error.message,
    code: error.code,
    request_id: requestId,
    ...error.extras
  }
}

/**
 * Maps whatever was thrown to an ApiError; unknown errors become a 500 without internals. The request's
 * headers, when given, let a refused body say what was wrong with it.
 */
export function toApiError (error: unknown, request?: { headers: Record<string, unknown> }): ApiError {
  if (error instanceof ApiError) return error
  // Other writers held the database past the busy timeout: the write did not happen and can be sent again.
  if (isDatabaseBusy(error)) return new ApiError('database_busy', 'The database is busy with other writes; this request\'s write did not commit. Send the request again shortly.', undefined, { 'Retry-After': DATABASE_BUSY_RETRY_AFTER })
  const fastifyError = error as FastifyError & { validation?: AjvIssue[], validationContext?: string }
  if (fastifyError.validation !== undefined) return validationProblem(fastifyError.validation, fastifyError.validationContext ?? 'body')
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE': return new ApiError('body_too_large', 'Request body is too large.')
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH': return new ApiError('bad_request', 'Content-Length does not match the body.')
    case 'FST_ERR_CTP_EMPTY_JSON_BODY': return new ApiError('body_malformed', 'Request body is empty though its Content-Type is application/json: send {} for no fields.')
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE': return mediaTypeProblem(request?.headers['content-type'])
    case 'FST_ERR_BAD_URL': return new ApiError('bad_request', 'Malformed URL.')
  }
  if (typeof fastifyError.statusCode === 'number' && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    return new ApiError('bad_request', 'Bad request.')
  }
  return new ApiError('internal_error', 'Internal server error.')
}

/** A body in a type the service does not read (its routes take JSON with a JSON Content-Type). */
function mediaTypeProblem (contentType: unknown): ApiError {
  const given = typeof contentType === 'string' && contentType !== '' ? `Content-Type ${contentType.slice(0, 100)}` : 'no Content-Type'
  return new ApiError('body_malformed', `Request body must be JSON sent with Content-Type: application/json; this request had ${given}.`)
}

/** One Ajv validation issue, as Fastify hands it over. */
export interface AjvIssue { instancePath: string, keyword: string, message?: string, params: Record<string, unknown> }

/** Unknown fields the message names; the rest are counted ("and 12 more"). */
const NAMED = 20

/**
 * Ajv issues to the `{field: [messages]}` shape and one readable message. Unknown fields come first and
 * are all named, sorted by name ignoring case (docs/api.md, "Responses and errors"); `unknownCount` is
 * their number when the issues hold only the first of them.
 */
export function validationProblem (issues: AjvIssue[], context: string, unknownCount?: number): ApiError {
  const errors: Record<string, string[]> = Object.create(null) as Record<string, string[]>
  const add = (field: string, message: string): void => { (errors[field] ??= []).push(message) }
  const unknownIssues = issues.filter((issue) => issue.keyword === 'additionalProperties')
  const unknown = unknownIssues.map((issue) => joinField(fieldOf(issue), String(issue.params.additionalProperty))).sort(byName)
  for (const field of unknown) add(field, 'is not a known field')
  for (const issue of issues) {
    const field = fieldOf(issue)
    if (issue.keyword === 'required') add(joinField(field, String(issue.params.missingProperty)), 'is required')
    else if (issue.keyword !== 'additionalProperties') add(field === '' ? context : field, describe(issue))
  }
  if (unknown.length > 0) {
    const more = Math.max(unknownCount ?? unknown.length, unknown.length) - Math.min(unknown.length, NAMED)
    return new ApiError('validation_failed', `Unknown fields: ${unknown.slice(0, NAMED).join(', ')}${more > 0 ? ` and ${more} more` : ''}.${didYouMean(unknownIssues, unknown.slice(0, NAMED))}`, { errors })
  }
  const first = Object.entries(errors)[0] as [string, string[]]
  if (first[0] === context && context === 'body') return new ApiError('validation_failed', `Request body ${first[1][0]}.`, { errors })
  const where = context === 'querystring' ? 'Parameter' : context === 'params' ? 'Path parameter' : 'Field'
  return new ApiError('validation_failed', `${where} ${first[0]} ${first[1][0]}.`, { errors })
}

/**
 * " Did you mean parent_id?" for the named unknown fields that have a near known name (found by
 * src/http/unknown-fields.ts); with several, each says which field it is for.
 */
function didYouMean (issues: AjvIssue[], named: string[]): string {
  const hints = issues
    .filter((issue) => typeof issue.params.suggestion === 'string')
    .map((issue) => ({ field: joinField(fieldOf(issue), String(issue.params.additionalProperty)), known: joinField(fieldOf(issue), String(issue.params.suggestion)) }))
    .filter((hint) => named.includes(hint.field))
    .sort((a, b) => byName(a.field, b.field))
  if (hints.length === 0) return ''
  if (hints.length === 1) return ` Did you mean ${(hints[0] as { known: string }).known}?`
  return ` Did you mean ${hints.map((hint) => `${hint.known} (for ${hint.field})`).join(', ')}?`
}

function fieldOf (issue: AjvIssue): string {
  return issue.instancePath.replace(/^\//, '').replace(/\//g, '.')
}

function byName (a: string, b: string): number {
  const x = a.toLowerCase()
  const y = b.toLowerCase()
  return x < y ? -1 : x > y ? 1 : a < b ? -1 : a > b ? 1 : 0
}

const CONTROL_CHARACTERS = '^[^\\u0000-\\u001f\\u007f]*$'
/** Patterns whose refusal is worth more than "has an invalid format": the schemas use these exact strings. */
const PATTERN_PHRASES: Record<string, string> = {
  [CONTROL_CHARACTERS]: 'must not contain control characters',
  '^https?://[^\\s\\u0000-\\u001f\\u007f]+$': 'must be an absolute http(s) URL',
  '^https?://[^/?#\\s\\u0000-\\u001f\\u007f]+$': 'must be an origin: http(s), a host and a port, nothing after them',
  '^(https?|rtmps?|rtmpe|rtmpte?|rtsps?|mmsh?)://[^\\s\\u0000-\\u001f\\u007f]+$': 'must be an absolute URL with the scheme http, https, rtmp, rtmps, rtmpe, rtmpt, rtmpte, rtsp, rtsps, mms or mmsh'
}
const ARTICLE: Record<string, string> = { string: 'a string', integer: 'an integer', number: 'a number', boolean: 'a boolean', object: 'an object', array: 'an array', null: 'null' }

/** A short English phrase for one Ajv issue ("must be at most 255 characters long"). */
function describe (issue: AjvIssue): string {
  const p = issue.params
  switch (issue.keyword) {
    case 'type': return `must be ${String(p.type).split(',').map((t) => ARTICLE[t] ?? t).join(' or ')}`
    case 'enum': return `must be one of ${(p.allowedValues as unknown[]).join(', ')}`
    case 'const': return `must be ${JSON.stringify(p.allowedValue)}`
    case 'minLength': return p.limit === 1 ? 'must not be empty' : `must be at least ${String(p.limit)} characters long`
    case 'maxLength': return `must be at most ${String(p.limit)} characters long`
    case 'minimum': return `must be at least ${String(p.limit)}`
    case 'maximum': return `must be at most ${String(p.limit)}`
    case 'minItems': return `must have at least ${String(p.limit)} items`
    case 'maxItems': return `must have at most ${String(p.limit)} items`
    case 'maxProperties': return `must have at most ${String(p.limit)} entries`
    case 'pattern': return PATTERN_PHRASES[String(p.pattern)] ?? 'has an invalid format'
    case 'format': return `must be a valid ${String(p.format)}`
    default: return issue.message ?? 'is invalid'
  }
}

function joinField (parent: string, child: string): string {
  return parent === '' ? child : `${parent}.${child}`
}

/**
 * The challenge of a 401 (RFC 9110 §11.6.1 requires one): our signed-query scheme, with the parameters
 * it takes (docs/api.md, "Signing"). A 401 with a challenge of its own (the indexer's Basic) keeps it.
 */
const SIGNATURE_CHALLENGE = 'Reelhouse-Signature realm="reelhouse", params="api_key expires signature"'

/** Writes the problem document; JSON by default, problem+json when the client asks for it. */
export function sendProblem (request: FastifyRequest, reply: FastifyReply, error: ApiError): FastifyReply {
  const wantsProblem = (request.headers.accept ?? '').includes('application/problem+json')
  if (error.status === 401 && error.headers?.['WWW-Authenticate'] === undefined) reply.header('www-authenticate', SIGNATURE_CHALLENGE)
  if (error.headers !== undefined) reply.headers(error.headers)
  return reply
    .code(error.status)
    .type(wantsProblem ? 'application/problem+json; charset=utf-8' : 'application/json; charset=utf-8')
    .send(problemBody(error, request.id, request.server.errorReference))
}
