import { generateKeyPairSync } from 'node:crypto'
import { importPKCS8, SignJWT } from 'jose'
import type { SecretBox } from '../../secrets/index.ts'
import { hexId } from '../../lib/ids.ts'
import type { Caller } from '../../auth/caller.ts'
import { apiTime, storedTime, type Clock } from '../../lib/clock.ts'
import type { Database } from '../../db/index.ts'
import { withAccountLock } from '../../db/account-lock.ts'
import { withoutCommitHook } from '../../db/commit-hook.ts'
import { toPage, type Page, type PageParams } from '../../paging/index.ts'
import { ApiError } from '../../errors/api-error.ts'
import { BY_CREATION, positionIn } from '../kit/crud-repository.ts'
import { createPlaybackKeysRepository, type PlaybackKeyRow } from './playback-keys-repository.ts'
import type { ApiPlaybackKey, ApiPlaybackToken, CreatedApiPlaybackKey, PlaybackTokenInput } from './playback-keys-schemas.ts'

export interface PlaybackKeysDeps {
  database: Database
  clock: Clock
  secrets: SecretBox
}

/** The asset a caller may read, by any reference the assets API takes: its embed code (the tokens' `sub`). */
export type ReadableAsset = (caller: Caller, ref: string) => Promise<{ embed_code: string }>

function toApiKey (row: PlaybackKeyRow): ApiPlaybackKey {
  return { id: row.id, algorithm: row.algorithm as ApiPlaybackKey['algorithm'], managed: row.managed === 1, public_jwk: JSON.parse(row.public_jwk) as ApiPlaybackKey['public_jwk'], created_at: apiTime(row.created_at) as string }
}

/** A new Ed25519 key: its row (public half) and its private half, as PEM and JWK. */
function newKey (accountId: string, now: string, managed: boolean): { row: PlaybackKeyRow, pem: string, jwk: Record<string, unknown> } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519')
  const id = hexId()
  const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString()
  const row: PlaybackKeyRow = {
    id, account_id: accountId, algorithm: 'EdDSA', public_jwk: JSON.stringify({ ...publicKey.export({ format: 'jwk' }), kid: id, alg: 'EdDSA', use: 'sig' }),
    managed: managed ? 1 : 0, private_key: null, created_at: now, updated_at: now, revoked_at: null
  }
  return { row, pem, jwk: { ...privateKey.export({ format: 'jwk' }), kid: id, alg: 'EdDSA' } }
}

/**
 * Playback keys (docs/playback.md, "Signed playback"). A customer's key is shown once and only its
 * public half is kept; the managed key's private half is sealed by the SecretBox. Revoking a key marks
 * it (the read cache of every process drops it through the bus), so nothing it signed plays any more.
 */
export function createPlaybackKeysService ({ database, clock, secrets }: PlaybackKeysDeps, readable: ReadableAsset) {
  const keys = createPlaybackKeysRepository(database.db)
  const position = positionIn<PlaybackKeyRow>(BY_CREATION)
  const notFound = (id: string): ApiError => new ApiError('playback_key_not_found', `Playback key ${id} does not exist.`)

  async function current (accountId: string, id: string, trx?: Parameters<typeof keys.find>[2]): Promise<PlaybackKeyRow> {
    const row = /^[0-9a-f]{32}$/.test(id) ? await keys.find(accountId, id, trx) : undefined
    if (row === undefined || row.revoked_at !== null) throw notFound(id)
    return row
  }

  /** The account's managed key and its private half, made on first use. */
  async function managedKey (accountId: string): Promise<{ id: string, pem: string }> {
    const held = await keys.managed(accountId)
    if (held !== undefined) return { id: held.id, pem: secrets.decrypt(held.private_key as string) }
    // A preparatory write, not the request's answer: an Idempotency-Key stores the token answered, never this key.
    return await withoutCommitHook(async () => await withAccountLock(database, accountId, async (trx) => {
      const again = await keys.managed(accountId, trx)
      if (again !== undefined) return { id: again.id, pem: secrets.decrypt(again.private_key as string) }
      const { row, pem } = newKey(accountId, storedTime(clock.now()), true)
      await keys.insert(accountId, { ...row, private_key: secrets.encrypt(pem) }, trx)
      return { id: row.id, pem }
    }))
  }

  return {
    async list (caller: Caller, page: PageParams): Promise<Page<ApiPlaybackKey>> {
      return toPage(await keys.page(caller.accountId, page), page, position, toApiKey)
    },
    async get (caller: Caller, id: string): Promise<ApiPlaybackKey> {
      return toApiKey(await current(caller.accountId, id))
    },
    async create (caller: Caller): Promise<CreatedApiPlaybackKey> {
      const { row, pem, jwk } = newKey(caller.accountId, storedTime(clock.now()), false)
      await withAccountLock(database, caller.accountId, async (trx) => { await keys.insert(caller.accountId, row, trx) })
      return { ...toApiKey(row), private_key: pem, private_jwk: jwk }
    },
    /** Revokes the key: every token it signed, and every URL derived from one, is refused from now on. */
    async remove (caller: Caller, id: string): Promise<Record<string, never>> {
      await withAccountLock(database, caller.accountId, async (trx) => {
        const row = await current(caller.accountId, id, trx)
        const now = storedTime(clock.now())
        await keys.update(caller.accountId, row.id, { revoked_at: now, updated_at: now, private_key: null }, trx)
      })
      return {}
    },
    /** A token for one asset the caller may read, signed with the account's managed key. */
    async issueToken (caller: Caller, assetRef: string, input: PlaybackTokenInput): Promise<ApiPlaybackToken> {
      const asset = await readable(caller, assetRef)
      const key = await managedKey(caller.accountId)
      const exp = Math.floor(clock.now() / 1000) + input.expires_in
      const token = await new SignJWT({}).setProtectedHeader({ alg: 'EdDSA', kid: key.id, typ: 'JWT' })
        .setSubject(asset.embed_code).setAudience(input.aud ?? 'v').setExpirationTime(exp).setIssuedAt(Math.floor(clock.now() / 1000))
        .sign(await importPKCS8(key.pem, 'EdDSA'))
      return { token, kid: key.id, expires_at: apiTime(new Date(exp * 1000).toISOString()) as string }
    }
  }
}

export type PlaybackKeysService = ReturnType<typeof createPlaybackKeysService>
