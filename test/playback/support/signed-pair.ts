import { randomBytes } from 'node:crypto'
import { importPKCS8, SignJWT } from 'jose'
import { storedTime } from '../../../src/lib/clock.ts'
import type { Pair } from '../../freshness/pair.ts'

/** A signed, live asset both processes of the pair serve: its master's path. */
export interface SignedAsset { id: string, master: string }

/**
 * Makes an asset live with a served media version by writing its rows as the media worker leaves them
 * (the pair runs no worker; the master is rendered from the rows, so no file is needed), signed.
 */
export async function signedAsset (pair: Pair): Promise<SignedAsset> {
  const created = await pair.call(pair.a.api, 'POST', '/v2/assets', { body: { name: 'Signed', asset_type: 'video', file_name: 'a.mp4', file_size: '1000', chunk_size: '1000' } })
  if (created.statusCode !== 200) throw new Error(created.body)
  const id = (JSON.parse(created.body) as { embed_code: string }).embed_code
  const token = randomBytes(24).toString('base64url')
  const version = randomBytes(16).toString('base64url')
  const now = storedTime(Date.now())
  const db = pair.a.database.db
  const rendition = { name: '240p', kind: 'video', state: 'ready', width: 320, height: 240, bandwidth: 400_000, average_bandwidth: 300_000, codecs: 'avc1.64000d,mp4a.40.2', in_master: true }
  await db.insertInto('media_versions').values({ account_id: pair.admin.accountId, asset_id: id, version, job_id: 'none', state: 'current', original_key: 'none', probe: null, has_preview: 0, renditions: JSON.stringify([rendition]), progress: 100, created_at: now, updated_at: now }).execute()
  await db.updateTable('assets').set({ status: 'live', media_token: token, media_version: version, playback_policy: 'signed' }).where('id', '=', id).execute()
  return { id, master: `/media/${token}/master.m3u8` }
}

/** A playback key of the pair's account: its id and a token it signs for `assetId`. */
export async function keyAndToken (pair: Pair, assetId: string): Promise<{ kid: string, token: string }> {
  const created = await pair.call(pair.a.api, 'POST', '/v2/playback_keys')
  if (created.statusCode !== 200) throw new Error(created.body)
  const key = JSON.parse(created.body) as { id: string, private_key: string }
  const token = await new SignJWT({ sub: assetId, aud: 'v' }).setProtectedHeader({ alg: 'EdDSA', kid: key.id })
    .setExpirationTime(Math.floor(Date.now() / 1000) + 3600).sign(await importPKCS8(key.private_key, 'EdDSA'))
  return { kid: key.id, token }
}
