import { isDeepStrictEqual } from 'node:util'

type Node = Record<string, unknown>

interface OpenApiDocument {
  paths?: unknown
  webhooks?: unknown
  components?: { schemas?: Record<string, unknown>, responses?: Record<string, unknown> }
}

const PREFIX = '#/components/schemas/'

/**
 * Moves every schema that has a `title` (the problem document, the page shapes, each resource's item) to
 * `components.schemas` under that title and leaves a `$ref` in its place, in the operations and in the
 * components themselves. The route schemas stay whole for validation and serialization; only the
 * document shares them. Two different schemas with one title are a mistake, refused here.
 */
export function hoistComponents (document: OpenApiDocument): void {
  const components = ((document.components ??= {}).schemas ??= {})
  // Each title's schema as first met, before its own members were replaced: what later ones must equal.
  const found = new Map<string, Node>()

  const replace = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(replace)
    if (!isObject(node)) return node
    const title = node.title
    if (typeof title === 'string' && isSchema(node)) {
      const first = found.get(title)
      if (first === undefined) found.set(title, node)
      else if (first !== node && !isDeepStrictEqual(first, node)) {
        throw new Error(`two different schemas are titled ${title}: give one of them another title`)
      }
      return { $ref: PREFIX + title }
    }
    return replaceInside(node)
  }
  const replaceInside = (node: Node): Node => Object.fromEntries(Object.entries(node).map(([key, value]) => [key, replace(value)]))

  document.paths = replace(document.paths)
  if (document.webhooks !== undefined) document.webhooks = replace(document.webhooks)
  // A component may hold others (an asset holds labels and a player): those are found on the way.
  for (const [title, schema] of found) {
    if (components[title] === undefined) components[title] = replaceInside(schema)
  }
}

function isObject (value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A JSON Schema node, as opposed to an operation or a response that merely has a title-like member. */
function isSchema (node: Node): boolean {
  return 'type' in node || 'anyOf' in node || 'properties' in node || 'enum' in node
}

/** The name of each error status's shared response. */
const RESPONSE_NAMES: Record<string, string> = {
  400: 'BadRequest',
  401: 'Unauthenticated',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  413: 'TooLarge',
  429: 'OutOfCredits',
  503: 'Unavailable'
}

/**
 * Every operation answers an error status with the same problem document and description, so each is
 * written once under `components.responses` and referred to. An operation whose error response is
 * something else (`/ready` answers 503 with its checks) keeps its own.
 */
export function shareErrorResponses (document: OpenApiDocument): void {
  const responses = ((document.components ??= {}).responses ??= {})
  for (const operations of Object.values((document.paths ?? {}) as Record<string, Node>)) {
    for (const operation of Object.values(operations)) {
      const answers = isObject(operation) && isObject(operation.responses) ? operation.responses : {}
      for (const [status, answer] of Object.entries(answers)) {
        const name = RESPONSE_NAMES[status]
        if (name === undefined || !isProblem(answer)) continue
        responses[name] ??= answer
        if (isDeepStrictEqual(responses[name], answer)) answers[status] = { $ref: `#/components/responses/${name}` }
      }
    }
  }
}

function isProblem (answer: unknown): boolean {
  const content = isObject(answer) && isObject(answer.content) ? answer.content['application/json'] : undefined
  return isObject(content) && isObject(content.schema) && content.schema.$ref === `${PREFIX}Problem`
}
