// Scenario 4: write throughput, POST /v2/labels and PATCH /v2/assets/:id, on SQLite and PostgreSQL.
// Every request is signed afresh (bodies differ), as a real client would.
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { signedPath } from '../src/signing/index.ts'
import { call, type Target } from './lib/client.ts'
import { load, type LoadResult } from './lib/load.ts'
import { report } from './lib/report.ts'
import { startReelhouse } from './lib/servers.ts'

const PG_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

function signedRequests (target: Target, method: 'POST' | 'PATCH', path: string, body: (n: number) => unknown) {
  let n = 0
  return [{
    method,
    path,
    setupRequest: (request: any) => {
      const payload = JSON.stringify(body(n++))
      request.body = payload
      request.path = signedPath({ apiKey: target.apiKey, secret: target.secret, method, path, body: payload })
      return request
    }
  }]
}

async function measureOn (env: Record<string, string>, seconds: number): Promise<{ labels: LoadResult, assets: LoadResult, rssMiB: number }> {
  const server = await startReelhouse(env)
  try {
    const run = randomBytes(3).toString('hex')
    const labels = await load({ url: server.api.base, seconds, connections: 8, requests: signedRequests(server.api, 'POST', '/v2/labels', (n) => ({ name: `w-${run}-${n}` })) as any })
    const asset = await call(server.api, 'POST', '/v2/assets', { name: 'Bench asset', asset_type: 'remote_asset', stream_urls: { source_file: 'https://example.com/a.mp4' }, duration: 1000 })
    if (asset.status !== 200) throw new Error(`could not create the asset: ${asset.status} ${JSON.stringify(asset.json)}`)
    const path = `/v2/assets/${asset.json.embed_code as string}`
    const assets = await load({ url: server.api.base, seconds, connections: 8, requests: signedRequests(server.api, 'PATCH', path, (n) => ({ name: `renamed ${n}` })) as any })
    for (const [what, result] of [['POST /v2/labels', labels], ['PATCH /v2/assets', assets]] as const) {
      if (result.non2xx > 0) throw new Error(`${what}: ${result.non2xx} non-2xx answers`)
    }
    return { labels, assets, rssMiB: Math.round(server.child.rssMiB()) }
  } finally {
    await server.stop()
  }
}

/** A throw-away PostgreSQL database for one run, or undefined when no server answers. */
async function scratchDatabase (): Promise<{ url: string, drop: () => Promise<void> } | undefined> {
  const admin = new pg.Client({ connectionString: PG_URL })
  try { await admin.connect() } catch { return undefined }
  const name = `reelhouse_bench_${randomBytes(4).toString('hex')}`
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  const url = new URL(PG_URL)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    drop: async () => {
      const again = new pg.Client({ connectionString: PG_URL })
      await again.connect()
      await again.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await again.end()
    }
  }
}

export async function measureWrites (seconds = 8): Promise<Record<string, unknown>> {
  const sqlite = await measureOn({}, seconds)
  const database = await scratchDatabase()
  if (database === undefined) return { sqlite, postgres: 'skipped: no PostgreSQL at ' + PG_URL }
  try {
    return { sqlite, postgres: await measureOn({ DATABASE_URL: database.url }, seconds) }
  } finally {
    await database.drop()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await measureWrites() as { sqlite: { labels: LoadResult }, postgres: { labels: LoadResult } | string }
  const pgRate = typeof figures.postgres === 'string' ? NaN : figures.postgres.labels.requestsPerSecond
  report({ scenario: '4 writes: POST /v2/labels, PostgreSQL vs SQLite', ratio: { value: pgRate / figures.sqlite.labels.requestsPerSecond, of: 'req/s PostgreSQL / req/s SQLite (context, no goal)', goal: 'none', met: true }, figures })
}
