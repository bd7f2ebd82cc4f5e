// Scenario 3: latency of page 1 against page 1,000 over 500k labels at limit=500 (keyset paging: the
// cost of a page must not grow with its depth).
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import { call, fixedSignedPath } from './lib/client.ts'
import { load } from './lib/load.ts'
import { report } from './lib/report.ts'
import { startReelhouse } from './lib/servers.ts'

const LABELS = Number(process.env.BENCH_LABELS ?? 500_000)

/** Seeds top-level labels straight into the SQLite file (WAL lets the server keep running). */
function seedLabels (file: string, accountId: string, count: number): void {
  const db = new SQLite(file)
  db.pragma('busy_timeout = 10000')
  const now = new Date().toISOString()
  const insert = db.prepare('INSERT INTO labels (id, account_id, name, parent_id, full_name, created_at, updated_at) VALUES (?, ?, ?, NULL, ?, ?, ?)')
  const batch = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const name = `label-${i}`
      insert.run(randomBytes(16).toString('hex'), accountId, name, `/${name}`, now, now)
    }
  })
  for (let i = 0; i < count; i += 50_000) batch(i, Math.min(count, i + 50_000))
  db.close()
}

export async function measurePagingDepth (seconds = 8): Promise<Record<string, unknown> & { ratio: number }> {
  const server = await startReelhouse()
  try {
    seedLabels(join(server.dataDir, 'reelhouse.db'), server.child.info.accountId, LABELS)
    let path = '/v2/labels?limit=500'
    const firstPath = path
    for (let page = 1; page < 1000; page++) {
      const res = await call(server.api, 'GET', path)
      if (res.status !== 200 || res.json.next_page === undefined) throw new Error(`page ${page}: ${res.status}`)
      path = res.json.next_page as string
    }
    const common = { seconds, connections: 4 }
    const first = await load({ ...common, url: server.api.base + fixedSignedPath(server.api, 'GET', firstPath) })
    const deep = await load({ ...common, url: server.api.base + fixedSignedPath(server.api, 'GET', path) })
    return { ratio: deep.latencyAvg / first.latencyAvg, labels: LABELS, page1: first, page1000: deep, rssMiB: Math.round(server.child.rssMiB()) }
  } finally {
    await server.stop()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await measurePagingDepth()
  report({ scenario: '3 paging depth: page 1,000 vs page 1 (500k labels, limit=500)', ratio: { value: figures.ratio, of: 'mean latency page 1000 / page 1', goal: '≤ 1.2', met: figures.ratio <= 1.2 }, figures })
}
