import { SerializerSelector } from '@fastify/fast-json-stringify-compiler'
import { chargeDerived } from '../db/read-cache.ts'

type Serializer = (data: unknown) => string

const LATIN1 = /^[\u0000-\u00ff]*$/
type BuildSerializer = ReturnType<typeof SerializerSelector>

/** An answer made from a cached row, by the row (see `madeFrom`). */
const sources = new WeakMap<object, object>()
/** The JSON of such an answer, with the serializer (the route's response schema) that wrote it. */
const texts = new WeakMap<object, { serializer: Serializer, json: string }>()

/**
 * Says that `answer` was made from `row`, a value the read cache holds, and is never changed after: its
 * JSON is then written once per response schema and reused while the row stays cached, counted in the
 * read cache's byte budget (docs/benchmarks.md). Returns the answer.
 */
export function madeFrom<T extends object> (answer: T, row: object): T {
  sources.set(answer, row)
  return answer
}

/**
 * Fastify's serializer compiler (fast-json-stringify), whose serializers reuse the JSON of an answer
 * made from a cached row (`madeFrom`). For `schemaController.compilersFactory.buildSerializer`.
 */
export function reusingSerializer (): BuildSerializer {
  const build = SerializerSelector()
  return ((externalSchemas: unknown, options: unknown) => {
    const compile = (build as (...args: unknown[]) => (route: unknown) => Serializer)(externalSchemas, options)
    return (route: unknown) => reusing(compile(route))
  }) as unknown as BuildSerializer
}

function reusing (serializer: Serializer): Serializer {
  return (data) => {
    if (typeof data !== 'object' || data === null) return serializer(data)
    const known = texts.get(data)
    if (known !== undefined && known.serializer === serializer) return known.json
    const json = serializer(data)
    const row = sources.get(data)
    // A string's header and characters: one byte each when all are Latin-1, else two (as V8 stores it).
    if (row !== undefined && chargeDerived(row, 32 + json.length * (LATIN1.test(json) ? 1 : 2))) texts.set(data, { serializer, json })
    return json
  }
}
