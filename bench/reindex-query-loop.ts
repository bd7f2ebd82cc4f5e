// `reelhouse reindex` of 20,000 assets while searches run back to back (the scenario of
// test/indexer/reindex-query-loop.test.ts at full size): every answer must be complete; prints the
// searches made, how many ran while the new index was being built, and the reindex's duration.
// Run: node --import tsx bench/reindex-query-loop.ts   (BENCH_ASSETS to resize; TEST_AMQP_URL and
// TEST_RABBITMQ_MANAGEMENT_URL set: through RabbitMQ's `/` virtual host, with its queue purged by
// nobody else meanwhile)
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { TEST_MASTER_KEY } from '../test/support/app.ts'
import { reindexDuringQueryLoop } from '../test/indexer/support/query-loop.ts'

const assets = Number(process.env.BENCH_ASSETS ?? 20_000)
const amqp = process.env.TEST_AMQP_URL
const management = process.env.TEST_RABBITMQ_MANAGEMENT_URL
const queues: Array<[string, Record<string, string>]> = [['embedded', {}]]
if (amqp !== undefined && management !== undefined) queues.push(['rabbitmq', { AMQP_URL: amqp, RABBITMQ_MANAGEMENT_URL: management }])
for (const [queue, extra] of queues) {
  const dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-bench-reindex-loop-'))
  try {
    const result = await reindexDuringQueryLoop({ REELHOUSE_DATA_DIR: dataDir, REELHOUSE_MASTER_KEY: TEST_MASTER_KEY, ...extra }, assets)
    console.log(`reindex during a query loop, ${queue} queue: ${JSON.stringify(result)} (every answer complete)`)
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}
