import { call, fixedSignedPath } from './client.ts'
import { load, type LoadResult } from './load.ts'
import { startBare, startReelhouse } from './servers.ts'

export type AgainstBareFigures = { reelhouse: LoadResult, bare: LoadResult, rssMiB: number }

export interface AgainstBareOptions {
  /** `api`: the signed GET over HTTPS; `cdn`: the cached variant over plain HTTP (a hit after the first GET). */
  via: 'api' | 'cdn'
  /** Extra environment of the Reelhouse process (e.g. credits off, REDIS_URL). */
  env?: Record<string, string>
  seconds?: number
  /** Fixed rate for the latency scenario; undefined = closed loop (throughput). */
  rate?: number
}

/**
 * `GET /v2/players/:id` from Reelhouse against a bare Fastify handler answering the same JSON on the
 * same transport (the same certificate for HTTPS), both measured in this run with the same load.
 */
export async function playerGetAgainstBare (options: AgainstBareOptions): Promise<AgainstBareFigures> {
  const server = await startReelhouse(options.env, options.via === 'cdn' ? 'api,cdn' : 'api')
  try {
    const created = await call(server.api, 'POST', '/v2/players', { name: 'Bench player', provider_homepage_url: 'https://example.com/' })
    if (created.status !== 200) throw new Error(`could not create the player: ${created.status} ${JSON.stringify(created.json)}`)
    const path = `/v2/players/${created.json.id as string}`
    const target = options.via === 'cdn' ? server.cdn : server.api
    const first = await call(target, 'GET', path)
    const bare = await startBare(first.json, options.via === 'api' ? server.dataDir : undefined)
    try {
      const common = { seconds: options.seconds ?? 10, rate: options.rate, connections: 10 }
      const scheme = options.via === 'api' ? 'https' : 'http'
      const bareResult = await load({ ...common, url: `${scheme}://127.0.0.1:${bare.info.port}${path}` })
      const ours = await load({ ...common, url: `${target.base}${fixedSignedPath(target, 'GET', path)}` })
      if (ours.non2xx > 0) throw new Error(`${ours.non2xx} non-2xx answers from Reelhouse (${options.via})`)
      return { reelhouse: ours, bare: bareResult, rssMiB: Math.round(server.child.rssMiB()) }
    } finally {
      await bare.stop()
    }
  } finally {
    await server.stop()
  }
}
