import type { Kysely } from 'kysely'
import type { DB } from '../db/tables/index.ts'
import type { OutboxEntry } from '../outbox/index.ts'
import type { SearchDocument, SearchRef, SearchStore } from '../search/index.ts'
import type { DocumentLoaders } from './document-loader-registry.ts'
import { mapLimit } from './map-limit.ts'
import type { IndexMetrics } from './metrics.ts'

export interface IndexingContext {
  db: Kysely<DB>
  store: SearchStore
  loaders: DocumentLoaders
  metrics: IndexMetrics
  /** Loads and store requests in flight at once. */
  concurrency: number
}

export type Outcome =
  | { entry: OutboxEntry, status: 'done' }
  /** `attributable`: the entry failed while others did not, so it counts toward parking it. */
  | { entry: OutboxEntry, status: 'failed', error: string, attributable: boolean }

/**
 * Brings the documents of `entries` (distinct resources) in line with the resources' current state:
 * upserted when the resource exists, deleted when it does not. Idempotent, so delivering an entry
 * twice is harmless. One store request per account for the batch; if it fails, each document is
 * written on its own so that one bad document cannot hold back the others.
 */
export async function indexEntries (ctx: IndexingContext, entries: OutboxEntry[]): Promise<Outcome[]> {
  const byAccount = new Map<string, OutboxEntry[]>()
  for (const entry of entries) {
    const list = byAccount.get(entry.accountId)
    if (list === undefined) byAccount.set(entry.accountId, [entry])
    else list.push(entry)
  }
  const groups = await mapLimit([...byAccount], ctx.concurrency, async ([accountId, group]) => await indexAccount(ctx, accountId, group))
  const outcomes = groups.flat()
  // When everything failed, the cause is most likely shared (database or search store away): no one
  // entry is to blame. A lone entry that fails is counted, so a poison entry is parked eventually.
  const allFailed = outcomes.every((outcome) => outcome.status === 'failed')
  return allFailed && outcomes.length > 1
    ? outcomes.map((outcome) => outcome.status === 'failed' ? { ...outcome, attributable: false } : outcome)
    : outcomes
}

type Loaded = { entry: OutboxEntry, doc: SearchDocument | null } | { entry: OutboxEntry, error: string }

async function indexAccount (ctx: IndexingContext, accountId: string, entries: OutboxEntry[]): Promise<Outcome[]> {
  const loaded = await loadAll(ctx, accountId, entries)
  const outcomes: Outcome[] = []
  const writes: Array<{ entry: OutboxEntry, doc: SearchDocument | null }> = []
  for (const item of loaded) {
    if ('error' in item) outcomes.push({ entry: item.entry, status: 'failed', error: item.error, attributable: true })
    else writes.push(item)
  }
  if (writes.length === 0) return outcomes
  try {
    await write(ctx, accountId, writes)
    for (const { entry } of writes) outcomes.push({ entry, status: 'done' })
  } catch (batchError) {
    // Isolate the document the store refuses: each on its own, then judge.
    const single = await mapLimit(writes, ctx.concurrency, async (item): Promise<Outcome> => {
      try {
        await write(ctx, accountId, [item])
        return { entry: item.entry, status: 'done' }
      } catch (error) {
        return { entry: item.entry, status: 'failed', error: `writing ${item.entry.type} ${item.entry.id}: ${messageOf(error)}`, attributable: true }
      }
    })
    const anyDone = single.some((outcome) => outcome.status === 'done')
    for (const outcome of single) {
      outcomes.push(outcome.status === 'failed' && !anyDone && single.length > 1 ? { ...outcome, attributable: false, error: `${outcome.error} (batch: ${messageOf(batchError)})` } : outcome)
    }
  }
  return outcomes
}

/** Each entry's document: by type, in one batch where the type has a batch loader, else one by one. */
async function loadAll (ctx: IndexingContext, accountId: string, entries: OutboxEntry[]): Promise<Loaded[]> {
  const loaded: Loaded[] = []
  const singles: OutboxEntry[] = []
  for (const type of new Set(entries.map((entry) => entry.type))) {
    const ofType = entries.filter((entry) => entry.type === type)
    const batch = ctx.loaders.batch(type)
    if (batch === undefined || ofType.length === 1) { singles.push(...ofType); continue }
    try {
      const docs = await batch(ctx.db, accountId, ofType.map((entry) => entry.id))
      for (const entry of ofType) loaded.push({ entry, doc: docs.get(entry.id) ?? null })
    } catch {
      // One at a time, so the failure lands on the entry that causes it.
      singles.push(...ofType)
    }
  }
  loaded.push(...await mapLimit(singles, ctx.concurrency, async (entry): Promise<Loaded> => {
    try {
      return { entry, doc: await ctx.loaders.load(ctx.db, accountId, entry.type, entry.id) }
    } catch (error) {
      return { entry, error: `loading ${entry.type} ${entry.id}: ${messageOf(error)}` }
    }
  }))
  return loaded
}

async function write (ctx: IndexingContext, accountId: string, items: Array<{ entry: OutboxEntry, doc: SearchDocument | null }>): Promise<void> {
  const upserts = items.flatMap((item) => item.doc === null ? [] : [item.doc])
  const removals: SearchRef[] = items.flatMap((item) => item.doc === null ? [{ type: item.entry.type, id: item.entry.id }] : [])
  const { metrics } = ctx
  if (upserts.length > 0) {
    metrics.storeRequests += 1
    await ctx.store.upsert(accountId, upserts)
    metrics.indexWrites += upserts.length
    for (const doc of upserts) metrics.documentsIndexed[doc.type] = (metrics.documentsIndexed[doc.type] ?? 0) + 1
  }
  if (removals.length > 0) {
    metrics.storeRequests += 1
    await ctx.store.remove(accountId, removals)
    metrics.indexWrites += removals.length
    for (const ref of removals) metrics.documentsRemoved[ref.type] = (metrics.documentsRemoved[ref.type] ?? 0) + 1
  }
  // The oldest change in the write: how far behind the indexer runs.
  const oldest = items.reduce((min, item) => item.entry.enqueuedAt < min ? item.entry.enqueuedAt : min, items[0].entry.enqueuedAt)
  metrics.lastLagSeconds = Math.max(0, (Date.now() - Date.parse(oldest)) / 1000)
}

export function messageOf (error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
