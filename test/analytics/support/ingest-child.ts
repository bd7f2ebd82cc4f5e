// A server stand-in for the durability test: accepts batches through the real ingest path, says so
// on stdout, then idles until the parent kills it with SIGKILL. It never flushes on its own (the
// interval is an hour), so whatever the parent later finds in the store came from the spool replay.
import { openAnalytics } from '../../../src/analytics/index.ts'
import { ManualClock } from '../../../src/lib/clock.ts'
import { PAGE_KEY, resources } from './harness.ts'
import { durabilityBatch } from './durability-batches.ts'

const [dataDir, url, pgSchema] = process.argv.slice(2)
const analytics = await openAnalytics({
  url: url === '-' ? undefined : url,
  pgSchema: pgSchema === '-' ? undefined : pgSchema,
  dataDir,
  resources,
  pageTokens: PAGE_KEY,
  clock: new ManualClock(),
  ingest: { flushIntervalMs: 3_600_000, flushRows: 1_000_000 }
})
// The first batch reaches the store; its spool segment is still there when the process dies, so the
// replay must recognise it as applied and not count it twice.
await analytics.collect(durabilityBatch('first', 3))
await analytics.flush()
await analytics.collect(durabilityBatch('second', 5))
process.stdout.write('accepted\n')
setInterval(() => {}, 1000)
