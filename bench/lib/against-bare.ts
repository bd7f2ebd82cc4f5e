import { call, createBenchPlayer, fixedSignedPath } from './client.ts'
import { interleaveFresh, type Interleaved, type RoundServers } from './interleave.ts'
import type { LoadResult } from './load.ts'
import { answerHeaders, startBare, startReelhouse, type Reelhouse } from './servers.ts'

export type AgainstBareFigures = {
  /** Median over rounds of req/s Reelhouse ÷ req/s bare, both measured in the same round. */
  ratio: number
  /**
   * The same against the bare handler sending Reelhouse's headers too (request id, credits, cache):
   * what Reelhouse's own code costs beyond the answer the interface requires.
   */
  ratioSameHeaders: number
  reelhouse: LoadResult
  bare: LoadResult
  bareSameHeaders: LoadResult
  /** With `ladder`: each rung's median run and its ratio to the bare handler. */
  ladder?: Record<string, { ratio: number, run: LoadResult }>
  rounds: Interleaved['rounds']
  rssMiB: number
}

export interface AgainstBareOptions {
  /** `api`: the signed GET over HTTPS; `cdn`: the cached variant over plain HTTP (a hit after the first GET). */
  via: 'api' | 'cdn'
  /** Extra environment of the Reelhouse process (e.g. credits off, REDIS_URL). */
  env?: Record<string, string>
  seconds?: number
  rounds?: number
  /** Fixed rate for the latency scenario; undefined = closed loop (throughput). */
  rate?: number
  /**
   * `api` only: also measure, on the same server, the rungs between the bare handler and the player
   * GET: an unsigned `GET /health` through the whole pipeline, and the signed balance read (signature,
   * credential, charge; no resource read). Shows where the time goes (docs/benchmarks.md).
   */
  ladder?: boolean
}

/** A Reelhouse process with one player, and the fixed signed URL of its GET (a cache hit after the first, for `cdn`). */
export interface PlayerTarget {
  server: Reelhouse
  url: string
  /** The path, and the JSON Reelhouse answered for it with its headers (a hit's, for `cdn`). */
  path: string
  body: unknown
  headers: Record<string, string>
}

export async function startPlayerTarget (via: 'api' | 'cdn', env?: Record<string, string>): Promise<PlayerTarget> {
  const server = await startReelhouse(env, via === 'cdn' ? 'api,cdn' : 'api')
  try {
    const path = await createBenchPlayer(server.api)
    const target = via === 'cdn' ? server.cdn : server.api
    const url = fixedSignedPath(target, 'GET', path)
    const first = await call(target, 'GET', path, undefined, url)
    // The second GET of the cached variant is the hit the scenario measures.
    const answer = via === 'cdn' ? await call(target, 'GET', path, undefined, url) : first
    if (answer.status !== 200) throw new Error(`the GET answered ${answer.status}`)
    return { server, path, body: answer.json, headers: answerHeaders(answer.headers), url: `${target.base}${url}` }
  } catch (error) {
    await server.stop()
    throw error
  }
}

/**
 * `GET /v2/players/:id` from Reelhouse against a bare Fastify handler answering the same JSON on the
 * same transport (the same certificate for HTTPS), measured in alternating rounds of the same run,
 * every server started afresh for each round.
 */
export async function playerGetAgainstBare (options: AgainstBareOptions): Promise<AgainstBareFigures> {
  let rssMiB = 0
  const start = async (): Promise<RoundServers> => {
    const ours = await startPlayerTarget(options.via, options.env)
    const tlsDir = options.via === 'api' ? ours.server.dataDir : undefined
    const bares = await Promise.all([startBare(ours.body, tlsDir), startBare(ours.body, tlsDir, ours.headers)])
    const [bare, bareSameHeaders] = bares
    const scheme = options.via === 'api' ? 'https' : 'http'
    const cpuMs = ours.server.child.cpuMs
    const api = ours.server.api
    const rungs = options.ladder === true && options.via === 'api'
      ? [
          { name: 'health', url: `${api.base}/health`, cpuMs },
          { name: 'balance', url: `${api.base}${fixedSignedPath(api, 'GET', '/v2/remaining_credits_and_reset_time')}`, cpuMs }
        ]
      : []
    return {
      contenders: [
        { name: 'bare', url: `${scheme}://127.0.0.1:${bare.info.port}${ours.path}`, cpuMs: bare.cpuMs },
        { name: 'bareSameHeaders', url: `${scheme}://127.0.0.1:${bareSameHeaders.info.port}${ours.path}`, cpuMs: bareSameHeaders.cpuMs },
        ...rungs,
        { name: 'reelhouse', url: ours.url, cpuMs }
      ],
      stop: async () => {
        rssMiB = Math.round(ours.server.child.rssMiB())
        await Promise.all([...bares.map(async (b) => { await b.stop() }), ours.server.stop()])
      }
    }
  }
  const measured = await interleaveFresh(start, { rounds: options.rounds ?? (options.rate === undefined ? 3 : 1), seconds: options.seconds, rate: options.rate })
  const reelhouse = measured.median.reelhouse
  const rungs = Object.keys(measured.median).filter((name) => name === 'health' || name === 'balance')
  return {
    ratio: measured.ratio.reelhouse,
    ratioSameHeaders: measured.ratio.reelhouse / measured.ratio.bareSameHeaders,
    reelhouse,
    bare: measured.median.bare,
    bareSameHeaders: measured.median.bareSameHeaders,
    ...(rungs.length === 0 ? {} : { ladder: Object.fromEntries(rungs.map((name) => [name, { ratio: measured.ratio[name], run: measured.median[name] }])) }),
    rounds: measured.rounds,
    rssMiB
  }
}

/** One line of each contender's req/s ratio to the bare handler, in the order of the pipeline. */
export function ladderLine (figures: AgainstBareFigures): string {
  const rungs = [
    ['bare', 1],
    ['bare + same headers', figures.ratio / figures.ratioSameHeaders],
    ...Object.entries(figures.ladder ?? {}).map(([name, rung]) => [name === 'health' ? 'unsigned /health' : 'signed balance read', rung.ratio]),
    ['this scenario', figures.ratio]
  ] as Array<[string, number]>
  return `      where the time goes (req/s ÷ bare, same run): ${rungs.map(([name, ratio]) => `${name} ${ratio.toFixed(2)}`).join(' → ')}`
}
