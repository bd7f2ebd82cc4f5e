import { createHmac, timingSafeEqual } from 'node:crypto'
import type { Caller } from '../../auth/caller.ts'
import { allows, assertAllowed, isUserRole } from '../../auth/roles.ts'
import type { Database } from '../../db/index.ts'
import { ApiError, validationError } from '../../errors/api-error.ts'
import { apiTime, storedTime, type Clock } from '../../lib/clock.ts'
import { hexId } from '../../lib/ids.ts'
import { toPage, type Page, type PageParams } from '../../paging/index.ts'
import { directUploadPrefix, type MediaStore } from '../store/index.ts'
import type { UploadsService } from '../uploads/index.ts'
import type { AssetsService } from '../../resources/assets/index.ts'
import { createDirectUploadsRepository, findDirectUploadOfUrl, type DirectUploadRow } from './direct-uploads-repository.ts'
import type { ApiDirectUpload, CreateDirectUploadBody, NewAssetSettings } from './direct-uploads-schemas.ts'
import { directUploadReferences } from './direct-upload-references.ts'

export interface DirectUploadsDeps {
  database: Database
  clock: Clock
  mediaStore: MediaStore
  /** Key material for the URLs' tokens (SecretBox.tokenKey). */
  tokenKey: Buffer
  /** PUBLIC_API_URL: tus URLs and `Location` start with it, never with the request's Host. */
  publicApiUrl: string
}

/** What completion needs of the other services: the asset made as its creator would make it, and the ingest. */
export interface DirectUploadCollaborators {
  assets: Pick<AssetsService, 'create'>
  parts: { writeLabels: (caller: Caller, ref: string, labelIds: string[], mode: 'merge') => Promise<unknown>, writeMetadata: (caller: Caller, ref: string, body: Record<string, string>, mode: 'replace') => Promise<unknown> }
  uploads: Pick<UploadsService, 'ingestParts'>
}

const DEFAULT_TIMEOUT = 3600
const TUS_PATH = '/v2/tus'

/**
 * Direct uploads (docs/uploads.md, "Direct uploads"): a one-time tus URL for an uploader that holds no
 * secret. The URL carries a token derived from the direct upload's id, so the API can show it again
 * and nothing secret is stored. Completion creates the asset from `new_asset_settings` as its creator,
 * whose role is checked again then, and moves it into processing as `upload_status` does.
 */
export function createDirectUploadsService ({ database, clock, mediaStore, tokenKey, publicApiUrl }: DirectUploadsDeps, others: DirectUploadCollaborators) {
  const repository = createDirectUploadsRepository(database.db)
  const references = directUploadReferences(database.db)

  function tokenOf (id: string): string {
    return createHmac('sha256', tokenKey).update(`direct upload ${id}`).digest('base64url').slice(0, 32)
  }

  function urlOf (row: DirectUploadRow): string {
    return `${publicApiUrl}${TUS_PATH}/${row.id}/${tokenOf(row.id)}`
  }

  function toApi (row: DirectUploadRow): ApiDirectUpload {
    return {
      id: row.id,
      url: urlOf(row),
      upload_url: row.upload_id === null ? null : `${urlOf(row)}/${row.upload_id}`,
      status: row.status,
      timeout: row.timeout,
      cors_origin: row.cors_origin,
      new_asset_settings: JSON.parse(row.new_asset_settings) as unknown,
      asset_id: row.asset_id,
      upload_length: row.upload_length === null ? null : Number(row.upload_length),
      upload_offset: Number(row.upload_offset),
      error: row.error,
      warnings: row.warnings === null ? [] : JSON.parse(row.warnings) as string[],
      created_at: apiTime(row.created_at) as string,
      expires_at: apiTime(row.expires_at) as string
    }
  }

  async function findOwn (caller: Caller, id: string): Promise<DirectUploadRow> {
    const row = await repository.find(caller.accountId, id)
    if (row === undefined) throw new ApiError('direct_upload_not_found', `Direct upload ${id} does not exist.`)
    return row
  }

  /** Ends a waiting direct upload (cancelled or timed out): its parts are dropped; answers whether it was waiting. */
  async function end (row: DirectUploadRow, status: 'cancelled' | 'timed_out' | 'errored', error: string | null): Promise<boolean> {
    const ended = await repository.update(row.account_id, row.id, 'waiting', { status, error, updated_at: storedTime(clock.now()) })
    if (ended) await mediaStore.discardParts(directUploadPrefix(row.account_id, row.id)).catch(() => {})
    return ended
  }

  /** The caller the completion acts as: the creator as the database has it now, or undefined when it may no longer create assets. */
  async function creatorOf (row: DirectUploadRow): Promise<Caller | undefined> {
    const user = await references.creator(row.account_id, row.created_by)
    if (user === undefined || !isUserRole(user.role) || !allows(user.role, ['assets', 'write'])) return undefined
    return { accountId: row.account_id, accountCode: user.account_code, userId: user.id, role: user.role }
  }

  return {
    tusPath: TUS_PATH,

    async create (caller: Caller, body: CreateDirectUploadBody): Promise<ApiDirectUpload> {
      const settings = body.new_asset_settings
      const missing = await references.missing(caller.accountId, settings)
      if (missing.length > 0) {
        throw validationError(`Field new_asset_settings: ${missing.join('; ')}.`, { new_asset_settings: missing })
      }
      if (settings.player_id !== undefined) assertAllowed(caller.role, ['players', 'read'])
      if (settings.publishing_rule_id !== undefined) assertAllowed(caller.role, ['publishing_rules', 'read'])
      const now = clock.now()
      const timeout = body.timeout ?? DEFAULT_TIMEOUT
      const row: DirectUploadRow = {
        id: hexId(), account_id: caller.accountId, created_by: caller.userId, cors_origin: body.cors_origin ?? null, timeout,
        new_asset_settings: JSON.stringify(settings), status: 'waiting', upload_id: null, upload_length: null, upload_offset: 0,
        part_count: 0, upload_metadata: null, asset_id: null, error: null, warnings: null,
        expires_at: storedTime(now + timeout * 1000), created_at: storedTime(now), updated_at: storedTime(now)
      }
      await repository.insert(row)
      return toApi(row)
    },

    async list (caller: Caller, page: PageParams): Promise<Page<ApiDirectUpload>> {
      return toPage(await repository.page(caller.accountId, page), page, (row) => [row.created_at, row.id], toApi)
    },

    async get (caller: Caller, id: string): Promise<ApiDirectUpload> {
      return toApi(await findOwn(caller, id))
    },

    /** `PUT /:id/cancel`: a waiting direct upload stops taking bytes and drops what it held; another status is a 409. */
    async cancel (caller: Caller, id: string): Promise<ApiDirectUpload> {
      const row = await findOwn(caller, id)
      if (row.status !== 'waiting' || !await end(row, 'cancelled', null)) {
        const now = await findOwn(caller, id)
        if (now.status === 'cancelled') return toApi(now)
        throw new ApiError('direct_upload_closed', `The direct upload is ${now.status}; only a waiting one can be cancelled.`)
      }
      return toApi(await findOwn(caller, id))
    },

    /**
     * The direct upload a tus URL names, when its token matches; expired ones are ended on the way.
     * Undefined for an unknown id or a wrong token (both a 404).
     */
    async ofUrl (id: string, token: string): Promise<DirectUploadRow | undefined> {
      const row = await findDirectUploadOfUrl(database.db, id)
      if (row === undefined) return undefined
      const expected = Buffer.from(tokenOf(row.id))
      const given = Buffer.from(token)
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined
      if (row.status === 'waiting' && Date.parse(row.expires_at) <= clock.now()) {
        await end(row, 'timed_out', null)
        return await findDirectUploadOfUrl(database.db, id)
      }
      return row
    },

    uploadUrlOf (row: DirectUploadRow, uploadId: string): string {
      return `${urlOf(row)}/${uploadId}`
    },

    /** The sweep of the expiration extension: a waiting direct upload past its timeout. */
    async expire (row: DirectUploadRow): Promise<void> {
      await end(row, 'timed_out', null)
    },

    /**
     * Completion of the tus upload: the creator's role checked again (a deleted or demoted creator's
     * waiting direct uploads are cancelled, and no asset is made), the settings checked again (a label,
     * player or rule deleted meanwhile is dropped and named in `warnings`), the asset created, the parts
     * made its original and the asset moved into processing. A completion repeated after a failure
     * continues with the asset it already made.
     */
    async complete (id: string): Promise<void> {
      let row = await findDirectUploadOfUrl(database.db, id)
      if (row === undefined || row.status === 'asset_created') return
      if (row.status !== 'waiting') throw new ApiError('direct_upload_closed', `The direct upload is ${row.status}.`)
      const caller = await creatorOf(row)
      if (caller === undefined) {
        for (const waiting of await repository.waitingOf(row.account_id, row.created_by)) {
          await end(waiting, 'cancelled', 'The creator of the direct upload may no longer create assets.')
        }
        throw new ApiError('direct_upload_creator_revoked', 'The user who created this direct upload may no longer create assets: no asset was made and the direct upload is cancelled.')
      }
      const fileSize = Number(row.upload_length)
      const places = await repository.partsOf(row.id)
      if (row.asset_id === null) {
        const settings = JSON.parse(row.new_asset_settings) as NewAssetSettings
        const { kept, warnings } = await references.revalidated(row.account_id, settings, caller.role)
        const metadata = JSON.parse(row.upload_metadata ?? '{}') as Record<string, string | null>
        const asset = await others.assets.create(caller, {
          asset_type: kept.asset_type ?? 'video',
          name: kept.name,
          ...(kept.description === undefined ? {} : { description: kept.description }),
          ...(kept.external_id === undefined ? {} : { external_id: kept.external_id }),
          ...(kept.post_processing_status === undefined ? {} : { post_processing_status: kept.post_processing_status }),
          ...(kept.player_id === undefined ? {} : { player_id: kept.player_id }),
          ...(kept.publishing_rule_id === undefined ? {} : { publishing_rule_id: kept.publishing_rule_id }),
          file_name: fileNameOf(metadata),
          file_size: fileSize
        })
        const assetId = asset.embed_code
        if (kept.labels !== undefined && kept.labels.length > 0) await others.parts.writeLabels(caller, assetId, kept.labels, 'merge')
        if (kept.metadata !== undefined && Object.keys(kept.metadata).length > 0) await others.parts.writeMetadata(caller, assetId, kept.metadata, 'replace')
        await repository.update(row.account_id, row.id, 'waiting', {
          asset_id: assetId, warnings: warnings.length === 0 ? null : JSON.stringify(warnings), updated_at: storedTime(clock.now())
        })
        row = { ...row, asset_id: assetId }
      }
      await others.uploads.ingestParts(caller, row.asset_id as string, directUploadPrefix(row.account_id, row.id), places)
      await repository.update(row.account_id, row.id, 'waiting', { status: 'asset_created', updated_at: storedTime(clock.now()) })
    }
  }
}

/** The uploaded file's name from the tus metadata (`filename` or `name`), made a valid asset file name. */
function fileNameOf (metadata: Record<string, string | null>): string {
  const given = metadata.filename ?? metadata.name ?? 'upload'
  const clean = given.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 255)
  return clean === '' ? 'upload' : clean
}

export type DirectUploadsService = ReturnType<typeof createDirectUploadsService>
