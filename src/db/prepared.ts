import type { Compilable, Kysely } from 'kysely'
import type { DB } from './tables/index.ts'
import { idleSqliteHandle } from './sqlite-handle.ts'

/** Stands, in a query given to `prepared`, for a value supplied at each run. */
export const SLOT = '\u0000prepared-slot\u0000'

/** A query compiled once and run with new values: see `prepared`. */
export interface PreparedQuery<R> {
  /** The first row, or undefined. `values` fill the query's SLOTs in the order they appear in the SQL. */
  first: (runner: Kysely<any>, ...values: unknown[]) => Promise<R | undefined>
}

/**
 * Builds and compiles a select once, for the lookups every request makes (the credential, a resource
 * by id). Building a Kysely query (immutable node trees, then the compiler's visit) costs more than
 * SQLite takes to run a small indexed one (docs/benchmarks.md). The query is written out in full where
 * it is declared, with SLOT where a run supplies a value; other parameters (a `limit`) stay as built.
 * It runs on whichever runner it is given, a transaction included. On SQLite with no transaction
 * open, the statement runs at once on the connection, without a trip through Kysely's executor.
 */
export function prepared<R> (query: Compilable<R>): PreparedQuery<R> {
  const compiled = query.compile()
  const slots = compiled.parameters.flatMap((value, index) => (value === SLOT ? [index] : []))
  return {
    first: async (runner, ...values) => {
      if (values.length !== slots.length) throw new Error(`prepared query takes ${slots.length} values, got ${values.length}: ${compiled.sql}`)
      const parameters = [...compiled.parameters]
      for (let i = 0; i < slots.length; i++) parameters[slots[i]] = values[i]
      const sqlite = idleSqliteHandle(runner)
      if (sqlite !== undefined) return sqlite.prepare(compiled.sql).get(parameters) as R | undefined
      const result = await runner.executeQuery<R>({ ...compiled, parameters })
      return result.rows[0]
    }
  }
}

/** The lookup of one row by account and id, which every GET of a single resource makes: see `prepared`. */
export function preparedFindById<R> (db: Kysely<DB>, table: keyof DB): PreparedQuery<R> {
  // Every table this serves has `account_id` and `id`; Kysely cannot check that for a table chosen at run time.
  return prepared<R>((db as Kysely<any>).selectFrom(table).selectAll().where('account_id', '=', SLOT).where('id', '=', SLOT))
}
