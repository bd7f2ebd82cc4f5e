import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import SQLite from 'better-sqlite3'
import { createFts5Store, type SearchStore } from '../../src/search/index.ts'
import { matchExpression } from '../../src/search/fts5-store.ts'
import { asset, searchStoreContract } from './search-store-contract.ts'

// A file rather than :memory: so that stores with other prefixes and the version-forging
// connection below all see the same database.
searchStoreContract('SQLite FTS5', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'reelhouse-fts5-'))
  const path = join(dir, 'search.sqlite')
  const stores: SearchStore[] = []
  return {
    open: (prefix) => {
      const store = createFts5Store({ path, ...(prefix === undefined ? {} : { prefix }) })
      stores.push(store)
      return store
    },
    setStoredVersion: async (index, version) => {
      const db = new SQLite(path)
      if (version === null) db.prepare('DELETE FROM search_index_versions WHERE name = ?').run(index)
      else db.prepare('UPDATE search_index_versions SET mapping_version = ? WHERE name = ?').run(version, index)
      db.close()
    },
    concrete: (alias) => alias,
    close: async () => {
      for (const store of stores) await store.close()
      rmSync(dir, { recursive: true, force: true })
    }
  }
})

describe('SQLite FTS5 store', () => {
  it('works in memory, one FTS5 table per account index with unicode61 remove_diacritics 2', async () => {
    const store = createFts5Store({ path: ':memory:' })
    await store.upsert('acc1', [asset('a1', { name: 'Crème brûlée' })])
    assert.deepEqual(await store.search('acc1', { clauses: [{ field: 'name', text: 'creme brulee' }] }), ['a1'])
    assert.equal(store.kind, 'fts5')
    await store.close()
  })

  it('quotes every word, so user text is never FTS5 syntax', () => {
    assert.equal(matchExpression({ clauses: [{ field: 'name', text: 'big "cat" OR' }, { field: 'labels', text: 'News/Sports' }] }),
      'name : "big" AND name : "cat" AND name : "OR" AND labels : "News Sports"')
    assert.equal(matchExpression({ clauses: [] }), '')
    assert.equal(matchExpression({ clauses: [{ field: 'description', text: '*' }] }), null)
  })

  it('drops only the prefixed FTS5 tables and their shadow tables when deleting all indices', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'reelhouse-fts5-'))
    const path = join(dir, 'search.sqlite')
    const store = createFts5Store({ path })
    await store.upsert('acc1', [asset('a1', { name: 'One' })])
    await store.ensureIndex('acc2')
    const db = new SQLite(path)
    db.exec('CREATE TABLE "flex-account-notes" (x)')
    const tables = (): string[] => db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[]
    assert.ok(tables().includes('flex-account-acc1_data'))
    assert.deepEqual(await store.deleteAllIndices(), ['flex-account-acc1', 'flex-account-acc2'])
    assert.deepEqual(tables(), ['flex-account-notes', 'search_index_versions'])
    assert.equal(db.prepare('SELECT count(*) FROM search_index_versions').pluck().get(), 0)
    db.close()
    await store.close()
    rmSync(dir, { recursive: true, force: true })
  })
})

describe('SQLite FTS5 store: an index written by mapping 1', () => {
  it('keeps taking every other document until the reindex, and has no transcripts to find', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'reelhouse-fts5-v1-'))
    const path = join(dir, 'search.sqlite')
    const old = new SQLite(path)
    old.exec(`CREATE VIRTUAL TABLE "flex-account-acc1" USING fts5(type UNINDEXED, id UNINDEXED, doc UNINDEXED,
      name, description, labels, tokenize = 'unicode61 remove_diacritics 2')`)
    old.close()
    const store = createFts5Store({ path })
    try {
      await store.upsert('acc1', [asset('a1', { name: 'Coffee hour' }),
        { type: 'transcript', id: 'a1', fields: { cues: [{ language: 'en', start_ms: 0, end_ms: 900, text: 'coffee' }] } }])
      assert.deepEqual(await store.search('acc1', { clauses: [{ field: 'name', text: 'coffee' }] }), ['a1'])
      assert.deepEqual(await store.searchTranscripts('acc1', { text: 'coffee', limit: 10 }), [])
      assert.equal(await store.storedMappingVersion('acc1'), null, 'reported as needing a reindex')
    } finally {
      await store.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
