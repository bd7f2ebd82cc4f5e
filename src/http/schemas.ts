import { Type, type TSchema } from 'typebox'

/**
 * Shared schema primitives; each resource keeps its own schemas next to its routes. Every field carries
 * a description and an example for the API reference; a schema with a `title` is shown there once, under
 * `components`, and referred to wherever it is used.
 */

/**
 * `schema` with its own description and example: the same rules under the name a field gives them. The
 * copy keeps TypeBox's hidden markers (an optional stays optional).
 * @example described(HexId, 'The parent label', '3f2a9c0e5b7d4e1fa6c8b0d2e4f60718')
 */
export function described<T extends TSchema> (schema: T, description: string, example: unknown): T {
  const copy = Object.defineProperties({}, Object.getOwnPropertyDescriptors(schema)) as T
  return Object.assign(copy, { description, examples: [example] })
}

export const HexId = Type.String({ pattern: '^[0-9a-f]{32}$', description: '32 lowercase hexadecimal characters', examples: ['3f2a9c0e5b7d4e1fa6c8b0d2e4f60718'] })

/** A name: 1–255 characters without control characters. */
export const Name = Type.String({ minLength: 1, maxLength: 255, pattern: '^[^\\u0000-\\u001f\\u007f]*$', description: '1–255 characters, no control characters', examples: ['Sports'] })

export const Timestamp = Type.String({ description: 'ISO 8601 UTC to the second', examples: ['2026-11-22T10:00:00Z'] })

/** `true`/`false` as JSON booleans or the strings clients of this API family also send. */
export const BooleanInput = Type.Union([Type.Boolean(), Type.Literal('true'), Type.Literal('false')], {
  description: 'true or false; the strings "true" and "false" are accepted too',
  examples: [true]
})

export function toBoolean (value: boolean | 'true' | 'false'): boolean {
  return value === true || value === 'true'
}

/**
 * The signing parameters every signed request carries (docs/api.md, "Signing"). The API reference shows
 * them once, as its security schemes, and leaves them out of each operation's parameters.
 */
export const SignedQuery = {
  api_key: Type.Optional(Type.String({ description: 'API key <account_code>.<random>' })),
  expires: Type.Optional(Type.String({ description: 'Unix time (seconds) after which the request is refused' })),
  signature: Type.Optional(Type.String({ description: 'The request signature (see the signing scheme)' }))
}

const PageToken = Type.String({ description: 'Opaque token from `next_page`, to fetch the next page', examples: ['eyJwIjpbIjIwMjYtMTEtMjJUMTA6MDA6MDBaIl19.Zk3j'] })

export const PageQuery = Type.Object({
  ...SignedQuery,
  limit: Type.Optional(Type.String({ description: 'Items per page, 1–500 (default 100)', examples: ['50'] })),
  page_token: Type.Optional(PageToken),
  paging_token: Type.Optional(described(PageToken, 'Synonym of page_token', 'eyJwIjpbIjIwMjYtMTEtMjJUMTA6MDA6MDBaIl19.Zk3j'))
})

/** A page of a list: `items` and, but on the last page, `next_page`. Shown in the reference as `<Item>Page`. */
export function pageOf<T extends TSchema> (item: T) {
  const title = (item as { title?: unknown }).title
  return Type.Object({
    items: Type.Array(item, { description: 'The items of this page, in the list\'s order' }),
    next_page: Type.Optional(Type.String({
      description: 'Relative URL of the next page, to sign and request as it is; absent on the last page',
      examples: ['/v2/labels?limit=50&page_token=eyJwIjpbIjIwMjYtMTEtMjJUMTA6MDA6MDBaIl19.Zk3j']
    }))
  }, {
    description: 'One page of a list: `items`, and `next_page` unless this is the last page',
    ...(typeof title === 'string' ? { title: `${title}Page` } : {})
  })
}

export const Problem = Type.Object({
  message: Type.String({ description: 'What went wrong, for people; the text clients of this API family match on', examples: ['Invalid signature.'] }),
  type: Type.String({ description: 'Link to this code\'s entry in the error reference', examples: ['/docs/errors#signature_invalid'] }),
  title: Type.String({ description: 'The code\'s short, fixed title', examples: ['Invalid signature'] }),
  status: Type.Integer({ description: 'The HTTP status, repeated', examples: [401] }),
  detail: Type.String({ description: 'This occurrence explained; the message, or more where there is more to say', examples: ['The signature does not match. The server hashed SHA-256 of: <secret> + "GET" + "/v2/labels" + …'] }),
  code: Type.String({ description: 'Stable error code; every code is explained at /docs/errors', examples: ['signature_invalid'] }),
  request_id: Type.String({ description: 'The X-Request-Id of the request, to find it in the server log', examples: ['0aeb775a-5060-4a2e-b236-8c7f836bb74e'] }),
  errors: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String()), {
    description: 'Validation errors: each field with its problems',
    examples: [{ name: ['is required'], colour: ['is not a known field'] }]
  }))
}, {
  additionalProperties: true,
  title: 'Problem',
  description: 'An error (RFC 9457 problem details). Some codes add members: `string_to_sign` (signature_invalid), `missing_labels`, `position`.'
})

/** The error responses a signed route can give, for the OpenAPI document. */
export const SignedErrors = {
  400: Problem,
  401: Problem,
  403: Problem,
  404: Problem,
  429: Problem
}

export const Empty = Type.Object({}, { description: 'Done: an empty object', examples: [{}] })
