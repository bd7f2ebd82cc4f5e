import type { Kysely } from 'kysely'
import type { DB } from '../db/tables/index.ts'
import type { IndexedType } from '../outbox/index.ts'
import type { SearchDocument } from '../search/index.ts'

/**
 * Reads a resource's current state as its search document; null when it no longer exists (its
 * document is then deleted). Each resource module defines its own (`<name>-document.ts`); the
 * composition root hands the consumers the set, so the indexer stays generic: queue → loader → store.
 */
export type DocumentLoader = (db: Kysely<DB>, accountId: string, id: string) => Promise<SearchDocument | null>

/** Optional: the documents of many resources of one account in a few queries; missing ids are deleted. */
export type BatchDocumentLoader = (db: Kysely<DB>, accountId: string, ids: readonly string[]) => Promise<Map<string, SearchDocument>>

/** Which loader builds the document of each resource type. */
export class DocumentLoaders {
  private readonly loaders = new Map<string, DocumentLoader>()
  private readonly batchLoaders = new Map<string, BatchDocumentLoader>()

  constructor (initial: Partial<Record<IndexedType, DocumentLoader>> = {}, batches: Partial<Record<IndexedType, BatchDocumentLoader>> = {}) {
    for (const [type, loader] of Object.entries(initial)) this.loaders.set(type, loader)
    for (const [type, loader] of Object.entries(batches)) this.batchLoaders.set(type, loader)
  }

  /** Registers the loader of a type; a batch loader may come with it (replacing a type drops its old one). */
  register (type: IndexedType, loader: DocumentLoader, batch?: BatchDocumentLoader): void {
    this.loaders.set(type, loader)
    if (batch === undefined) this.batchLoaders.delete(type)
    else this.batchLoaders.set(type, batch)
  }

  /** A copy with some loaders replaced (tests, or a resource with its own rules). */
  with (overrides: Partial<Record<IndexedType, DocumentLoader>>): DocumentLoaders {
    const copy = new DocumentLoaders()
    for (const [type, loader] of this.loaders) copy.loaders.set(type, loader)
    for (const [type, loader] of this.batchLoaders) copy.batchLoaders.set(type, loader)
    for (const [type, loader] of Object.entries(overrides)) copy.register(type as IndexedType, loader)
    return copy
  }

  /** The batch loader of a type, if it has one. */
  batch (type: string): BatchDocumentLoader | undefined {
    return this.batchLoaders.get(type)
  }

  async load (db: Kysely<DB>, accountId: string, type: string, id: string): Promise<SearchDocument | null> {
    const loader = this.loaders.get(type)
    if (loader === undefined) throw new Error(`no document loader for resource type ${JSON.stringify(type)}`)
    return await loader(db, accountId, id)
  }
}
