/** An unknown field in the shape Ajv reports one (`additionalProperties`), so one formatter reads both. */
export interface UnknownFieldIssue {
  instancePath: string
  keyword: 'additionalProperties'
  params: { additionalProperty: string }
  message: string
}

type Schema = Record<string, unknown>

/** Issues kept for the answer; the rest are only counted (a crafted body may hold thousands). */
const KEPT = 100

/**
 * Every field of a JSON body that its schema does not name, at any depth a closed object
 * (`additionalProperties: false`) reaches, in the order met. Ajv stops at the first problem (with
 * `allErrors` a crafted body makes it collect errors without bound), so a body with `colour`, `bogus`
 * and a missing `name` would be answered about one of them; this walk runs only once validation has
 * failed, and is linear in the size of the body. `count` is the number found, `issues` the first 100.
 */
export function unknownFields (schema: unknown, data: unknown): { issues: UnknownFieldIssue[], count: number } {
  const found = { issues: [] as UnknownFieldIssue[], count: 0 }
  walk(schema, data, '', found)
  return found
}

function walk (schema: unknown, data: unknown, pointer: string, found: { issues: UnknownFieldIssue[], count: number }): void {
  if (typeof data !== 'object' || data === null || !isSchema(schema)) return
  if (Array.isArray(data)) {
    const items = (Array.isArray(schema.anyOf) ? schema.anyOf.find((member) => isSchema(member) && member.type === 'array') : schema) as Schema | undefined
    if (isSchema(items?.items)) data.forEach((item, i) => { walk(items.items, item, `${pointer}/${i}`, found) })
    return
  }
  // A nullable object is `anyOf: [object, null]`: its fields are the object member's.
  const object = (Array.isArray(schema.anyOf) ? schema.anyOf.find((member) => isSchema(member) && member.type === 'object') : schema) as Schema | undefined
  if (object === undefined) return
  const properties = (isSchema(object.properties) ? object.properties : {})
  const patterns = isSchema(object.patternProperties) ? Object.entries(object.patternProperties) : []
  for (const [key, value] of Object.entries(data)) {
    const child = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`
    if (Object.hasOwn(properties, key)) {
      walk(properties[key], value, child, found)
      continue
    }
    const pattern = patterns.find(([source]) => new RegExp(source, 'u').test(key))
    if (pattern !== undefined) walk(pattern[1], value, child, found)
    else if (object.additionalProperties === false) {
      found.count++
      if (found.issues.length < KEPT) {
        found.issues.push({ instancePath: pointer, keyword: 'additionalProperties', params: { additionalProperty: key }, message: 'must NOT have additional properties' })
      }
    }
  }
}

function isSchema (value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
