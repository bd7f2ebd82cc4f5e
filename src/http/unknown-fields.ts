/** An unknown field in the shape Ajv reports one (`additionalProperties`), so one formatter reads both. */
export interface UnknownFieldIssue {
  instancePath: string
  keyword: 'additionalProperties'
  /** `suggestion`: the known field of the same object whose name is nearest, when one is near enough. */
  params: { additionalProperty: string, suggestion?: string }
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
        const suggestion = nearestName(key, Object.keys(properties))
        found.issues.push({ instancePath: pointer, keyword: 'additionalProperties', params: { additionalProperty: key, ...(suggestion === undefined ? {} : { suggestion }) }, message: 'must NOT have additional properties' })
      }
    }
  }
}

/** Names longer than this are not compared (a crafted body's keys may be long; none of ours is). */
const LONGEST_COMPARED = 64

/**
 * The known name an unknown one most likely meant: the same apart from case, `_` and `-` (`parentId`,
 * `Parent-ID` → `parent_id`), else the nearest by edit distance — a transposition counting as one
 * edit, as git's "did you mean" — within one edit for names up to 4 characters, two beyond (`colr` →
 * `color`, `descripton` → `description`). Ties go to the first name in alphabetical order.
 */
export function nearestName (unknown: string, known: string[]): string | undefined {
  if (unknown.length > LONGEST_COMPARED) return undefined
  const squash = (name: string): string => name.toLowerCase().replace(/[_-]/g, '')
  const same = known.filter((name) => squash(name) === squash(unknown)).sort()[0]
  if (same !== undefined) return same
  const limit = unknown.length <= 2 ? 0 : unknown.length <= 4 ? 1 : 2
  let best: { name: string, distance: number } | undefined
  for (const name of [...known].sort()) {
    if (Math.abs(name.length - unknown.length) > limit) continue
    const distance = editDistance(unknown.toLowerCase(), name.toLowerCase())
    if (distance <= limit && (best === undefined || distance < best.distance)) best = { name, distance }
  }
  return best?.name
}

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps. */
function editDistance (a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)))
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = rows[i] as number[]
      const above = rows[i - 1] as number[]
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      row[j] = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j] as number, ((rows[i - 2] as number[])[j - 2] as number) + 1)
    }
  }
  return (rows[a.length] as number[])[b.length] as number
}

function isSchema (value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
