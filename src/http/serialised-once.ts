import { SerializerSelector } from '@fastify/fast-json-stringify-compiler'
import { chargeDerived } from '../db/read-cache.ts'

type Serializer = (data: unknown) => string

const LATIN1 = /^[\u0000-\u00ff]*$/
type BuildSerializer = ReturnType<typeof SerializerSelector>

/** An answer made from a cached row, by the row (see `madeFrom`). */
const sources = new WeakMap<object, object>()
/** The JSON of such an answer, with the serializer (the route's response schema) that wrote it, and its length in bytes once asked. */
const texts = new WeakMap<object, { serializer: Serializer, json: string, bytes?: number }>()

/**
 * Says that `answer` was made from `row`, a value the read cache holds, and is never changed after: its
 * JSON is then written once per response schema and reused while the row stays cached, counted in the
 * read cache's byte budget (docs/benchmarks.md). Returns the answer.
 */
export function madeFrom<T extends object> (answer: T, row: object): T {
  sources.set(answer, row)
  return answer
}

interface CompiledRoute { method?: string, url?: string, httpStatus?: string | number }

/**
 * The serializers one app compiled, by route and status, so that the JSON an answer already has can be
 * found without Fastify's reply (the lean lane, src/http/lean-lane/).
 */
export class WrittenAnswers {
  readonly #byRoute = new Map<string, Serializer>()

  /** @internal Called as the app compiles each route's serializer. */
  add (route: CompiledRoute, serializer: Serializer): void {
    this.#byRoute.set(`${String(route.method)} ${String(route.url)} ${String(route.httpStatus)}`, serializer)
  }

  /**
   * What the `status` answer of route `method url` has already written for an answer (and still keeps),
   * with its length in bytes; undefined when it has not (another route's or app's schema wrote it, or
   * none did). The serializer is looked up once it has been compiled, so the lean lane's per-request
   * path builds no key.
   */
  reader (method: string, url: string, status = 200): (answer: object) => Written | undefined {
    const key = `${method} ${url} ${status}`
    let serializer: Serializer | undefined
    return (answer) => {
      serializer ??= this.#byRoute.get(key)
      return serializer === undefined ? undefined : writtenBy(answer, serializer)
    }
  }
}

/** JSON already written for an answer, with its length in bytes. */
export interface Written { json: string, bytes: number }

function writtenBy (answer: object, serializer: Serializer): Written | undefined {
  const known = texts.get(answer)
  if (known?.serializer !== serializer) return undefined
  known.bytes ??= Buffer.byteLength(known.json)
  return known as Written
}

/**
 * Fastify's serializer compiler (fast-json-stringify), whose serializers reuse the JSON of an answer
 * made from a cached row (`madeFrom`). For `schemaController.compilersFactory.buildSerializer`; `written`
 * learns each route's serializer.
 */
export function reusingSerializer (written?: WrittenAnswers): BuildSerializer {
  const build = SerializerSelector()
  return ((externalSchemas: unknown, options: unknown) => {
    const compile = (build as (...args: unknown[]) => (route: unknown) => Serializer)(externalSchemas, options)
    return (route: CompiledRoute) => {
      const serializer = compile(route)
      written?.add(route, serializer)
      return reusing(serializer)
    }
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
