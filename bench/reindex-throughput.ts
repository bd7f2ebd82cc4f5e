// Reindex throughput, embedded: 100k assets (100 accounts × 1,000, with labels and metadata) in a
// SQLite file, queued by POST /api/reindex's code path and drained by the embedded consumer into
// SQLite FTS5. Baseline in the same run: the same documents written straight to a fresh FTS5 store
// (no outbox, no loading), i.e. what the search store alone can take.
// Run: node --import tsx bench/reindex-throughput.ts   (BENCH_ASSETS, BENCH_ACCOUNTS to resize)
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { migrateToLatest, openDatabase } from '../src/db/index.ts'
import { documentLoaders } from '../src/app/resource-document-loaders.ts'
import { createEmbeddedConsumer, IndexMetrics, queueReindex } from '../src/indexer/index.ts'
import { createFts5Store, type SearchDocument } from '../src/search/index.ts'
import { report } from './lib/report.ts'
import { insertAccount, insertAssets, insertLabel } from '../test/indexer/support/seed.ts'

export async function measureReindexThroughput (assets = 100_000, accounts = 100): Promise<Record<string, number>> {
  const dir = mkdtempSync(join(tmpdir(), 'reelhouse-bench-reindex-'))
  try {
    const database = await openDatabase(`sqlite:${join(dir, 'reelhouse.db')}`)
    await migrateToLatest(database.db)
    const perAccount = Math.ceil(assets / accounts)
    const accountIds: string[] = []
    for (let a = 0; a < accounts; a++) {
      const account = await insertAccount(database.db)
      const news = await insertLabel(database.db, account, 'News', undefined, false)
      const sports = await insertLabel(database.db, account, 'Sports', news, false)
      const music = await insertLabel(database.db, account, 'Music', undefined, false)
      await insertAssets(database.db, account, perAccount, [news.id, sports.id, music.id])
      accountIds.push(account)
    }

    const store = createFts5Store({ path: join(dir, 'search.sqlite') })
    const queueStart = performance.now()
    const queued = await queueReindex({ db: database.db, dialect: database.dialect }, undefined)
    const queueSeconds = (performance.now() - queueStart) / 1000
    const metrics = new IndexMetrics()
    const drainStart = performance.now()
    await createEmbeddedConsumer(database, store, metrics, { batchSize: 500, concurrency: 8, loaders: LOADERS }).drain()
    const drainSeconds = (performance.now() - drainStart) / 1000
    const indexed = metrics.documentsIndexed.asset + metrics.documentsIndexed.label

    // Baseline: the same documents, already built, written straight to a fresh store in batches of 500.
    const docs: Array<[string, SearchDocument]> = []
    for (const account of accountIds) {
      for (const doc of await allDocuments(database.db, account)) docs.push([account, doc])
    }
    const bare = createFts5Store({ path: join(dir, 'bare.sqlite') })
    const bareStart = performance.now()
    for (let i = 0; i < docs.length; i += 500) {
      const slice = docs.slice(i, i + 500)
      for (const account of new Set(slice.map(([a]) => a))) await bare.upsert(account, slice.filter(([a]) => a === account).map(([, d]) => d))
    }
    const bareSeconds = (performance.now() - bareStart) / 1000
    await bare.close()
    await store.close()
    await database.close()
    return {
      assets: accounts * perAccount,
      queued,
      indexed,
      queueSeconds: round(queueSeconds),
      drainSeconds: round(drainSeconds),
      docsPerSecond: Math.round(indexed / drainSeconds),
      endToEndDocsPerSecond: Math.round(indexed / (queueSeconds + drainSeconds)),
      bareStoreDocsPerSecond: Math.round(docs.length / bareSeconds),
      rssMiB: Math.round(process.memoryUsage().rss / 2 ** 20)
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const LOADERS = documentLoaders()

async function allDocuments (db: Parameters<typeof LOADERS.load>[0], account: string): Promise<SearchDocument[]> {
  const ids = await (db as any).selectFrom('assets').select('id').where('account_id', '=', account).execute() as Array<{ id: string }>
  const docs: SearchDocument[] = []
  for (const { id } of ids) docs.push(await LOADERS.load(db, account, 'asset', id) as SearchDocument)
  return docs
}

function round (value: number): number {
  return Math.round(value * 100) / 100
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await measureReindexThroughput(Number(process.env.BENCH_ASSETS ?? 100_000), Number(process.env.BENCH_ACCOUNTS ?? 100))
  console.log(`reindex throughput (embedded, ${figures.assets} assets): ${figures.docsPerSecond} docs/s indexing, ${figures.endToEndDocsPerSecond} docs/s including queueing`)
  const ratio = figures.docsPerSecond / figures.bareStoreDocsPerSecond
  report({ scenario: 'reindex throughput, 100k assets embedded, vs bare FTS5 upserts', ratio: { value: ratio, of: 'docs/s outbox→load→index→ack / docs/s prebuilt documents into FTS5', goal: 'context (no goal)', met: true }, figures })
}
