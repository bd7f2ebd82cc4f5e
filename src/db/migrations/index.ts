import type { Migration } from 'kysely'
import * as core from './0001-core.ts'

/**
 * Every migration, by name; names sort in the order they run. Add one line per new migration file.
 */
export const migrations: Record<string, Migration> = {
  '0001-core': core
}
