import { Type, type TSchema } from 'typebox'

/** Shared schema primitives; each resource keeps its own schemas next to its routes. */

export const HexId = Type.String({ pattern: '^[0-9a-f]{32}$', description: '32 lowercase hexadecimal characters' })

/** A name: 1–255 characters without control characters. */
export const Name = Type.String({ minLength: 1, maxLength: 255, pattern: '^[^\\u0000-\\u001f\\u007f]*$' })

export const Timestamp = Type.String({ description: 'ISO 8601 UTC, e.g. 2026-11-22T10:00:00Z' })

/** `true`/`false` as JSON booleans or the strings clients of this API family also send. */
export const BooleanInput = Type.Union([Type.Boolean(), Type.Literal('true'), Type.Literal('false')])

export function toBoolean (value: boolean | 'true' | 'false'): boolean {
  return value === true || value === 'true'
}

/** The signing parameters every signed request carries (interface-spec §5). */
export const SignedQuery = {
  api_key: Type.Optional(Type.String({ description: 'API key <account_code>.<random>' })),
  expires: Type.Optional(Type.String({ description: 'Unix time (seconds) after which the request is refused' })),
  signature: Type.Optional(Type.String({ description: 'Signature of interface-spec §5.1' }))
}

export const PageQuery = Type.Object({
  ...SignedQuery,
  limit: Type.Optional(Type.String({ description: 'Items per page, 1–500 (default 100)' })),
  page_token: Type.Optional(Type.String({ description: 'Opaque token from next_page' })),
  paging_token: Type.Optional(Type.String({ description: 'Synonym of page_token' }))
})

export function pageOf<T extends TSchema> (item: T) {
  return Type.Object({
    items: Type.Array(item),
    next_page: Type.Optional(Type.String({ description: 'Relative URL of the next page; absent on the last page' }))
  })
}

export const Problem = Type.Object({
  message: Type.String(),
  type: Type.String(),
  title: Type.String(),
  status: Type.Integer(),
  detail: Type.String(),
  code: Type.String(),
  request_id: Type.String(),
  errors: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String())))
}, { additionalProperties: true })

/** The error responses a signed route can give, for the OpenAPI document. */
export const SignedErrors = {
  400: Problem,
  401: Problem,
  403: Problem,
  404: Problem,
  429: Problem
}

export const Empty = Type.Object({})
