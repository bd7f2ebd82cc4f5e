import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { QUERIES_DIR, renderSnapshots } from '../../scripts/sql-snapshots.ts'

describe('the SQL snapshots in src/queries/', () => {
  it('match the SQL the code compiles for SQLite and PostgreSQL (regenerate with scripts/sql-snapshots.ts)', async () => {
    for (const [name, text] of await renderSnapshots()) {
      assert.equal(readFileSync(join(QUERIES_DIR, name), 'utf8'), text, `src/queries/${name} is out of date`)
    }
  })
})
