import { Ajv } from 'ajv'
import formats from 'ajv-formats'
import type { FastifySchemaCompiler } from 'fastify'

/**
 * Two Ajv instances: query strings and path parameters arrive as text and are coerced; JSON bodies are
 * not (a number sent as "12" is an error, booleans accept "true"/"false" through their schemas).
 * Unknown body fields are reported, never silently removed (product.md §8).
 */
function ajv (coerceTypes: boolean): Ajv {
  const instance = new Ajv({ coerceTypes, removeAdditional: false, useDefaults: true, allErrors: false, strict: false })
  formats.default(instance)
  return instance
}

export function validatorCompiler (): FastifySchemaCompiler<any> {
  const textAjv = ajv(true)
  const bodyAjv = ajv(false)
  return ({ schema, httpPart }) => (httpPart === 'body' ? bodyAjv : textAjv).compile(schema)
}
