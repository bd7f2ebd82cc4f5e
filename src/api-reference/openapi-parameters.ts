type Node = Record<string, unknown>

function isObject (value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Swagger UI fills "Try it out" with each parameter's `example`: a page token that belongs to no query,
 * `recursive=true` on a delete. An optional parameter's example therefore moves into its schema's
 * `examples` (which the UI does not prefill) and is quoted in its description, so a reader still sees
 * it; a required one keeps its `example`, to be replaced by the reader's own value.
 */
export function quietOptionalExamples (document: { paths?: unknown }): void {
  for (const operations of Object.values((document.paths ?? {}) as Record<string, Node>)) {
    for (const operation of Object.values(operations)) {
      const parameters = isObject(operation) && Array.isArray(operation.parameters) ? operation.parameters : []
      for (const parameter of parameters) {
        if (!isObject(parameter) || parameter.required === true || parameter.example === undefined) continue
        const example = parameter.example
        delete parameter.example
        parameter.schema = { ...(isObject(parameter.schema) ? parameter.schema : {}), examples: [example] }
        const shown = typeof example === 'string' ? example : JSON.stringify(example)
        parameter.description = `${String(parameter.description ?? '').replace(/\.?$/, '.')} Example: \`${shown}\`.`
      }
    }
  }
}
