import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { deployments, startPair, within, type Pair } from '../freshness/pair.ts'
import { keyAndToken, signedAsset } from './support/signed-pair.ts'

/** Signed media is HTTPS-only: process B stands behind a TLS proxy that says so in this header (TRUST_PROXY=1). */
const HTTPS = { 'x-forwarded-proto': 'https' }
/** A generous bound for a change to reach the other process; the delay itself is measured in bench/playback-revocation.ts. */
const GENEROUS_MS = 30_000

for (const deployment of deployments().filter((d) => d.database === 'postgres')) {
  describe(`signed playback on two processes (${deployment.name})`, { skip: deployment.skip }, () => {
    let pair: Pair
    before(async () => { pair = await startPair(deployment, { TRUST_PROXY: '1' }) })
    after(async () => { await pair?.close() })

    it('a key revoked on one process is refused on the other, derived URLs included', async () => {
      const asset = await signedAsset(pair)
      const { kid, token } = await keyAndToken(pair, asset.id)
      const master = async (): Promise<{ status: number, body: string }> => {
        const res = await pair.b.api.inject({ method: 'GET', url: `${asset.master}?token=${token}`, headers: HTTPS })
        return { status: res.statusCode, body: res.body }
      }
      const played = await master()
      assert.equal(played.status, 200, played.body)
      const child = played.body.split('\n').find((line) => line.startsWith('t/')) as string
      const playlist = asset.master.replace('master.m3u8', child)
      // Admitted on B (its file is not in this store: the rows alone were written), so not refused.
      const before = await pair.b.api.inject({ method: 'GET', url: playlist, headers: HTTPS })
      assert.equal(before.statusCode, 404, before.body)
      assert.equal((await pair.call(pair.a.api, 'DELETE', `/v2/playback_keys/${kid}`)).statusCode, 200)
      await within(GENEROUS_MS, async () => (await master()).status === 403, 'the revocation on process B')
      assert.equal(JSON.parse((await master()).body).code, 'playback_key_revoked')
      const derived = await pair.b.api.inject({ method: 'GET', url: playlist, headers: HTTPS })
      assert.equal(derived.statusCode, 403)
      assert.equal(JSON.parse(derived.body).code, 'playback_key_revoked')
    })
  })
}
