// Runs a store adapter against a fresh stand-in engine, as a backend for the contract suite.
import type { EngineStoreOptions } from '../../src/search/engine-store.ts'
import type { SearchStore } from '../../src/search/index.ts'
import { startFakeSearchEngine, type FakeSearchEngine, type Flavor } from './fake-search-engine.ts'
import type { StoreBackend } from './search-store-contract.ts'

export type StoreFactory = (options: EngineStoreOptions) => SearchStore

export function engineBackend (flavor: Flavor, create: StoreFactory): () => Promise<StoreBackend> {
  return async () => {
    const engine: FakeSearchEngine = await startFakeSearchEngine(flavor)
    const stores: SearchStore[] = []
    return {
      open: (prefix = 'flex-account') => {
        const store = create({ node: engine.url, prefix })
        stores.push(store)
        return store
      },
      setStoredVersion: async (index, version) => {
        const mappings = engine.indices.get(index)?.mappings
        if (mappings === undefined) throw new Error(`no index ${index}`)
        if (version === null) delete mappings._meta
        else mappings._meta = { mapping_version: version }
      },
      concrete: (alias) => `${alias}-v1`,
      close: async () => {
        for (const store of stores) await store.close()
        await engine.close()
      }
    }
  }
}
