// `node --import tsx bench/playback-revocation.ts`: how long a playback key revoked on one process takes
// to be refused on another (docs/playback.md, "Revocation"): two processes over PostgreSQL + Redis
// (TEST_DATABASE_URL, TEST_REDIS_URL), a signed asset's master played on B, the key deleted on A, B
// polled every 5 ms until it refuses. Prints each trial's delay and the median and worst (goal ≤ 1 s).
//
// BENCH_TRIALS (5) tunes it.
import { deployments, startPair, within } from '../test/freshness/pair.ts'
import { keyAndToken, signedAsset } from '../test/playback/support/signed-pair.ts'

const TRIALS = Number(process.env.BENCH_TRIALS ?? 5)
const deployment = deployments().find((d) => d.database === 'postgres')
if (deployment === undefined || deployment.skip !== false) throw new Error(`needs PostgreSQL and Redis: ${deployment?.skip === false ? '' : deployment?.skip ?? ''}`)
// Signed media is HTTPS-only: B stands behind a TLS proxy that says so (TRUST_PROXY=1, X-Forwarded-Proto).
const pair = await startPair(deployment, { TRUST_PROXY: '1' })
try {
  const asset = await signedAsset(pair)
  const delays: number[] = []
  for (let trial = 0; trial < TRIALS; trial++) {
    const { kid, token } = await keyAndToken(pair, asset.id)
    const status = async (): Promise<number> => (await pair.b.api.inject({ method: 'GET', url: `${asset.master}?token=${token}`, headers: { 'x-forwarded-proto': 'https' } })).statusCode
    if (await status() !== 200) throw new Error('the signed master does not play on B')
    const revoked = await pair.call(pair.a.api, 'DELETE', `/v2/playback_keys/${kid}`)
    if (revoked.statusCode !== 200) throw new Error(revoked.body)
    delays.push(await within(30_000, async () => await status() === 403, 'the revocation on B'))
  }
  const sorted = [...delays].sort((a, b) => a - b)
  console.log(`revocation reached the other process after: ${delays.map((d) => `${d.toFixed(1)} ms`).join(', ')}`)
  console.log(`median ${sorted[Math.floor(sorted.length / 2)]?.toFixed(1)} ms, worst ${sorted.at(-1)?.toFixed(1)} ms (goal ≤ 1000 ms)`)
} finally {
  await pair.close()
}
