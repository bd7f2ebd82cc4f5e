import assert from 'node:assert/strict'
import { documentLoaders } from '../../src/app/resource-document-loaders.ts'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import SQLite from 'better-sqlite3'
import { startWorker } from '../../src/indexer/index.ts'
import { createFts5Store, MAPPING_VERSION } from '../../src/search/index.ts'
import { openTestDatabase } from '../support/backends.ts'

describe('index mapping versions', () => {
  it('logs "reindex required" at start when an index was written with another mapping version', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'reelhouse-mapping-'))
    const path = join(dir, 'search.sqlite')
    const store = createFts5Store({ path })
    await store.ensureIndex('acc1')
    await store.ensureIndex('acc2')
    const file = new SQLite(path)
    file.prepare('UPDATE search_index_versions SET mapping_version = ? WHERE name = ?').run(MAPPING_VERSION - 1, 'flex-account-acc2')
    file.close()
    const warnings: Array<[object, string]> = []
    const database = await openTestDatabase('sqlite')
    const worker = await startWorker({ config: { amqpUrl: undefined }, database, store, loaders: documentLoaders() }, {
      consume: false,
      logger: { info: () => {}, error: () => {}, warn: (obj, msg) => { warnings.push([obj, msg]) } }
    })
    await worker.stop()
    await database.close()
    await store.close()
    rmSync(dir, { recursive: true, force: true })
    assert.deepEqual(warnings, [[
      { indices: ['flex-account-acc2'], mappingVersion: MAPPING_VERSION },
      `reindex required: flex-account-acc2 (mapping ${MAPPING_VERSION - 1}) ≠ mapping ${MAPPING_VERSION}; run \`reelhouse reindex\``
    ]])
  })
})
