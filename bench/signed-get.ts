// Scenario 1 (and 5, 6): the signed GET /v2/players/:id over HTTPS against a bare Fastify HTTPS handler
// answering the same JSON, same TLS certificate, same machine, same run.
import { call, fixedSignedPath } from './lib/client.ts'
import { load, type LoadResult } from './lib/load.ts'
import { report } from './lib/report.ts'
import { startBare, startReelhouse } from './lib/servers.ts'

export interface SignedGetOptions {
  /** Extra environment of the Reelhouse process (e.g. credits off, REDIS_URL). */
  env?: Record<string, string>
  seconds?: number
  /** Fixed rate for the latency scenario; undefined = closed loop (throughput). */
  rate?: number
}

export type SignedGetFigures = { reelhouse: LoadResult, bare: LoadResult, rssMiB: number }

export async function measureSignedGet (options: SignedGetOptions = {}): Promise<SignedGetFigures> {
  const server = await startReelhouse(options.env)
  try {
    const created = await call(server.api, 'POST', process.env.BENCH_COLLECTION ?? '/v2/players', { name: 'Bench player', provider_homepage_url: 'https://example.com/' })
    if (created.status !== 200) throw new Error(`could not create the player: ${created.status} ${JSON.stringify(created.json)}`)
    const path = `${process.env.BENCH_COLLECTION ?? '/v2/players'}/${created.json.id as string}`
    const check = await call(server.api, 'GET', path)
    const bare = await startBare(check.json, server.dataDir)
    try {
      const url = `${server.api.base}${fixedSignedPath(server.api, 'GET', path)}`
      const common = { seconds: options.seconds ?? 10, rate: options.rate, connections: 10 }
      const bareResult = await load({ ...common, url: `https://127.0.0.1:${bare.info.port}${path}` })
      const ours = await load({ ...common, url })
      if (ours.non2xx > 0) throw new Error(`${ours.non2xx} non-2xx answers from Reelhouse`)
      return { reelhouse: ours, bare: bareResult, rssMiB: Math.round(server.child.rssMiB()) }
    } finally {
      await bare.stop()
    }
  } finally {
    await server.stop()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await measureSignedGet()
  const value = figures.reelhouse.requestsPerSecond / figures.bare.requestsPerSecond
  report({ scenario: '1 signed player GET vs bare Fastify (HTTPS)', ratio: { value, of: 'req/s Reelhouse / req/s bare', goal: '≥ 0.70', met: value >= 0.7 }, figures })
}
