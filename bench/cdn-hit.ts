// Scenario 2 (and 6): a cache hit on the cached plain-HTTP variant against a bare Fastify plain-HTTP
// handler answering the same JSON.
import { call, fixedSignedPath } from './lib/client.ts'
import { load, type LoadResult } from './lib/load.ts'
import { report } from './lib/report.ts'
import { startBare, startReelhouse } from './lib/servers.ts'

export type CdnFigures = { reelhouse: LoadResult, bare: LoadResult, rssMiB: number }

export async function measureCdnHit (options: { seconds?: number, rate?: number, env?: Record<string, string> } = {}): Promise<CdnFigures> {
  const server = await startReelhouse(options.env, 'api,cdn')
  try {
    const created = await call(server.api, 'POST', '/v2/players', { name: 'Cached player' })
    if (created.status !== 200) throw new Error(`could not create the player: ${created.status}`)
    const path = `/v2/players/${created.json.id as string}`
    const url = `${server.cdn.base}${fixedSignedPath(server.cdn, 'GET', path)}`
    const first = await call(server.cdn, 'GET', path)
    const bare = await startBare(first.json)
    try {
      const common = { seconds: options.seconds ?? 10, rate: options.rate, connections: 10 }
      const bareResult = await load({ ...common, url: `http://127.0.0.1:${bare.info.port}${path}` })
      const ours = await load({ ...common, url })
      if (ours.non2xx > 0) throw new Error(`${ours.non2xx} non-2xx answers from the cached variant`)
      return { reelhouse: ours, bare: bareResult, rssMiB: Math.round(server.child.rssMiB()) }
    } finally {
      await bare.stop()
    }
  } finally {
    await server.stop()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await measureCdnHit()
  const value = figures.reelhouse.requestsPerSecond / figures.bare.requestsPerSecond
  report({ scenario: '2 cached-variant hit vs bare Fastify (HTTP)', ratio: { value, of: 'req/s Reelhouse / req/s bare', goal: '≥ 0.85', met: value >= 0.85 }, figures })
}
