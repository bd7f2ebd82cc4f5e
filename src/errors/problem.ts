import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { ERRORS } from './catalogue.ts'
import { ApiError } from './api-error.ts'

/**
 * The one serializer of error bodies: the `message` clients of this API family read, plus the
 * RFC 9457 members, a stable `code` and the `request_id` (product.md §4).
 */
export function problemBody (error: ApiError, requestId: string): Record<string, unknown> {
  return {
    message: error.message,
    type: `/docs/errors#${error.code}`,
    title: ERRORS[error.code].title,
    status: error.status,
    detail: error.message,
    code: error.code,
    request_id: requestId,
    ...error.extras
  }
}

/** Maps whatever was thrown to an ApiError; unknown errors become a 500 without internals. */
export function toApiError (error: unknown): ApiError {
  if (error instanceof ApiError) return error
  const fastifyError = error as FastifyError & { validation?: Array<{ instancePath: string, keyword: string, message?: string, params: Record<string, unknown> }>, validationContext?: string }
  if (fastifyError.validation !== undefined) return fromValidation(fastifyError.validation, fastifyError.validationContext ?? 'body')
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE': return new ApiError('body_too_large', 'Request body is too large.')
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH': return new ApiError('bad_request', 'Content-Length does not match the body.')
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE': return new ApiError('body_malformed', 'Request body is not valid JSON.')
    case 'FST_ERR_BAD_URL': return new ApiError('bad_request', 'Malformed URL.')
  }
  if (typeof fastifyError.statusCode === 'number' && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    return new ApiError('bad_request', 'Bad request.')
  }
  return new ApiError('internal_error', 'Internal server error.')
}

interface AjvIssue { instancePath: string, keyword: string, message?: string, params: Record<string, unknown> }

/** Ajv issues to the `{field: [messages]}` shape and one readable message. */
function fromValidation (issues: AjvIssue[], context: string): ApiError {
  const errors: Record<string, string[]> = {}
  const add = (field: string, message: string): void => { (errors[field] ??= []).push(message) }
  for (const issue of issues) {
    const field = issue.instancePath.replace(/^\//, '').replace(/\//g, '.')
    if (issue.keyword === 'additionalProperties') add(joinField(field, String(issue.params.additionalProperty)), 'is not a known field')
    else if (issue.keyword === 'required') add(joinField(field, String(issue.params.missingProperty)), 'is required')
    else add(field === '' ? context : field, describe(issue))
  }
  const unknown = Object.entries(errors).filter(([, m]) => m.includes('is not a known field')).map(([f]) => f)
  if (unknown.length > 0) return new ApiError('validation_failed', `Unknown fields: ${unknown.join(', ')}.`, { errors })
  const first = Object.entries(errors)[0] as [string, string[]]
  if (first[0] === context && context === 'body') return new ApiError('validation_failed', `Request body ${first[1][0]}.`, { errors })
  const where = context === 'querystring' ? 'Parameter' : context === 'params' ? 'Path parameter' : 'Field'
  return new ApiError('validation_failed', `${where} ${first[0]} ${first[1][0]}.`, { errors })
}

const CONTROL_CHARACTERS = '^[^\\u0000-\\u001f\\u007f]*$'
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
    case 'pattern': return p.pattern === CONTROL_CHARACTERS ? 'must not contain control characters' : 'has an invalid format'
    case 'format': return `must be a valid ${String(p.format)}`
    default: return issue.message ?? 'is invalid'
  }
}

function joinField (parent: string, child: string): string {
  return parent === '' ? child : `${parent}.${child}`
}

/** Writes the problem document; JSON by default, problem+json when the client asks for it. */
export function sendProblem (request: FastifyRequest, reply: FastifyReply, error: ApiError): FastifyReply {
  const wantsProblem = (request.headers.accept ?? '').includes('application/problem+json')
  if (error.headers !== undefined) reply.headers(error.headers)
  return reply
    .code(error.status)
    .type(wantsProblem ? 'application/problem+json; charset=utf-8' : 'application/json; charset=utf-8')
    .send(problemBody(error, request.id))
}
