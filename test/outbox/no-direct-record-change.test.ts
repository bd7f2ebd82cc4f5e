import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, it } from 'node:test'

const ROOT = join(import.meta.dirname, '..', '..')
/** The functions that queue a document by name; writes derive their entries instead (src/outbox/derive-entries.ts). */
const NAMED_ENTRY = /\brecord(Change|Changes|Selected|LabelTree)\b/
/** The reindex queues documents without changing them: the one caller outside the outbox. */
const ALLOWED = new Set(['src/indexer/reindex.ts'])

function sourcesUnder (folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
}

describe('outbox entries are derived, never named by a service', () => {
  it('finds no call of recordChange (or its kin) in any module but the outbox and the reindex', () => {
    const scanned = sourcesUnder('src').filter((file) => !file.startsWith('src/outbox/'))
    // The trees that hold the services: the scan must reach them.
    assert.ok(scanned.filter((file) => file.startsWith('src/resources/')).length > 20)
    assert.ok(scanned.filter((file) => file.startsWith('src/media/')).length > 20)
    const offenders = scanned.filter((file) => !ALLOWED.has(file) && NAMED_ENTRY.test(readFileSync(join(ROOT, file), 'utf8')))
    assert.deepEqual(offenders, [], 'these modules name outbox entries; let the write derive them (docs/architecture.md)')
  })

  it('still finds the reindex queueing through recordChanges (the scan sees what it looks for)', () => {
    assert.match(readFileSync(join(ROOT, 'src/indexer/reindex.ts'), 'utf8'), NAMED_ENTRY)
  })
})
