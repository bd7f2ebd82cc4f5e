import { Ajv, type ValidateFunction } from 'ajv'
import formats from 'ajv-formats'
import type { FastifySchemaCompiler } from 'fastify'
import { validationProblem, type AjvIssue } from '../errors/problem.ts'
import { unknownFields } from './unknown-fields.ts'

/**
 * Two Ajv instances: query strings and path parameters arrive as text and are coerced; JSON bodies are
 * not (a number sent as "12" is an error, booleans accept "true"/"false" through their schemas).
 * Unknown body fields are reported, never silently removed (docs/resources.md).
 */
function ajv (coerceTypes: boolean): Ajv {
  const instance = new Ajv({ coerceTypes, removeAdditional: false, useDefaults: true, allErrors: false, strict: false })
  formats.default(instance)
  return instance
}

export function validatorCompiler (): FastifySchemaCompiler<any> {
  const textAjv = ajv(true)
  const bodyAjv = ajv(false)
  return ({ schema, httpPart }) => (httpPart === 'body' ? namingUnknownFields(bodyAjv.compile(schema), schema) : textAjv.compile(schema))
}

/**
 * A body validator that, once a body has failed, names every unknown field in it (docs/api.md, "Responses
 * and errors") beside Ajv's first problem. A valid body costs nothing more than Ajv's own check.
 */
function namingUnknownFields (validate: ValidateFunction, schema: unknown): (data: unknown, context?: object) => boolean | { error: Error } {
  const check = (data: unknown, context?: object): boolean | { error: Error } => {
    if (validate(data, context as never)) return true
    const issues = (validate.errors ?? []) as AjvIssue[]
    const unknown = unknownFields(schema, data)
    if (unknown.count === 0) {
      check.errors = issues
      return false
    }
    const others = issues.filter((issue) => issue.keyword !== 'additionalProperties')
    return { error: validationProblem([...unknown.issues, ...others], 'body', unknown.count) }
  }
  check.errors = [] as AjvIssue[]
  // Fastify hands Ajv validators the request as the body's parent, which lets defaults reach the root.
  return Object.assign(check, { schemaEnv: validate.schemaEnv })
}
