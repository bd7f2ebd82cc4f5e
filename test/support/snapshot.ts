import type { AppContext } from '../../src/app/context.ts'

/**
 * Every row of the given tables in a stable order, to show that a refused request wrote nothing.
 * Unlike `snapshot()` it needs no `id` column (asset_labels and metadata have composite keys).
 */
export async function snapshotTables (ctx: AppContext, tables: string[]): Promise<string> {
  const parts: unknown[] = []
  for (const table of tables) {
    const rows = await (ctx.db as any).selectFrom(table).selectAll().execute() as Array<Record<string, unknown>>
    parts.push(rows.map((row) => JSON.stringify(row)).sort())
  }
  return JSON.stringify(parts)
}
