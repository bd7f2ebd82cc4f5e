// For tests of `where` text predicates through the app: the search index is updated by the worker,
// which tests built with buildTestApp do not run. This indexes everything pending, now.
import type { AppContext } from '../../../src/app/context.ts'
import { documentLoaders } from '../../../src/app/resource-document-loaders.ts'
import { createEmbeddedConsumer, IndexMetrics } from '../../../src/indexer/index.ts'

/** Drains the outbox into the app's search store; the number of entries indexed. */
export async function indexNow (ctx: Pick<AppContext, 'database' | 'search'>, metrics = new IndexMetrics()): Promise<number> {
  return await createEmbeddedConsumer(ctx.database, ctx.search, metrics, { loaders: documentLoaders() }).drain()
}
