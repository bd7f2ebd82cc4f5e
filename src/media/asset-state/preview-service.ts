import type { Caller } from '../../auth/caller.ts'
import { ApiError } from '../../errors/index.ts'
import { validationError } from '../../errors/api-error.ts'
import { isUploadType, type AssetsService } from '../../resources/assets/index.ts'
import { checkPreviewImage, FRAMES_DIR, type MediaTools } from '../processing/index.ts'
import { FRAMES_FILE, MediaNotFoundError, mediaPrefix, PREVIEW_FILE, UPLOADED_PREVIEW_FILE, type MediaStore } from '../store/index.ts'
import type { AssetMediaService } from './asset-media-service.ts'
import { mediaUrls } from './media-urls.ts'

export interface PreviewDeps {
  store: MediaStore
  /** ffmpeg, found on first use (a server that never takes a preview file never looks for it). */
  tools: () => Promise<MediaTools>
  /** A folder of this process's own for decoding uploaded images. */
  scratchDir: string
  mediaBaseUrl: string
}

/** One generated preview image: its time in seconds from the start, where it is, and its size. */
export interface GeneratedImage { time: number, url: string, width: number, height: number }
/**
 * The asset's preview: chosen among the generated frames (with its time), sent as a file, a remote URL
 * (stored as given, never fetched), or the default.
 */
export interface PrimaryPreview { type: 'default' | 'generated' | 'uploaded_file' | 'remote_url', time: number | null, url: string | null }
/** What `PUT primary_preview_image` takes (its schema has checked the types). */
export interface PreviewChoice { type: 'generated' | 'uploaded_file' | 'remote_url', time?: number, url?: string }

const CHOICE_FILE = 'preview-choice.json'
/** An uploaded preview image may be this large. */
export const MAX_PREVIEW_BYTES = 5 * 1024 * 1024

/**
 * The preview routes (docs/media.md, "Previews"): the generated preview images of the served media (a
 * few frames of the ladder's own decode), a file a user sends, and the choice of the asset's preview
 * among them. The chosen image becomes the served version's `preview.jpg`, so `preview_image_url`
 * stays the same URL and follows the same media path and checks as every other media file. A remote
 * URL is only stored: `preview_image_url` becomes it, and nothing here ever requests it.
 */
export function createPreviewService (deps: PreviewDeps, assets: Pick<AssetsService, 'find'>, assetMedia: Pick<AssetMediaService, 'previewChosen'>) {
  const { store } = deps

  async function served (caller: Caller, ref: string): Promise<{ assetId: string, version: string, token: string, prefix: string } | null> {
    const asset = await assets.find(caller, ref)
    if (asset.media_version === null || asset.media_token === null) return null
    return { assetId: asset.id, version: asset.media_version, token: asset.media_token, prefix: mediaPrefix(caller.accountId, asset.id, asset.media_version) }
  }

  async function readOr (key: string): Promise<Buffer | null> {
    try {
      const object = await store.get(key)
      const chunks: Buffer[] = []
      for await (const chunk of object.body) chunks.push(Buffer.from(chunk as Buffer))
      return Buffer.concat(chunks)
    } catch (error) {
      if (error instanceof MediaNotFoundError) return null
      throw error
    }
  }

  async function frames (media: { version: string, token: string, prefix: string }): Promise<GeneratedImage[]> {
    const text = await readOr(`${media.prefix}${FRAMES_FILE}`)
    if (text === null) return []
    const root = `${deps.mediaBaseUrl}/media/${media.token}/${media.version}/${FRAMES_DIR}`
    return (JSON.parse(text.toString('utf8')) as Array<{ time: number, file: string, width: number, height: number }>)
      .map((f) => ({ time: f.time, url: `${root}/${f.file}`, width: f.width, height: f.height }))
  }

  const notReady = (message: string): ApiError => new ApiError('preview_not_ready', message)

  /**
   * A remote URL becomes the preview as Backlot's `remote_url` does: stored as given (the schema checked
   * it is an absolute http(s) URL) and never fetched, so no request of the service goes where a client
   * points it. Uploaded types take one once their media is processed (processing sets their preview).
   */
  async function remote (caller: Caller, ref: string, url: string): Promise<PrimaryPreview> {
    const asset = await assets.find(caller, ref)
    const media = await served(caller, ref)
    if (media === null && isUploadType(asset.asset_type)) throw notReady('The asset has no processed media yet, so there is no preview to choose.')
    if (media !== null) await store.put(`${media.prefix}${CHOICE_FILE}`, Buffer.from(JSON.stringify({ type: 'remote_url', time: null })), { contentType: 'application/json' })
    if (!await assetMedia.previewChosen(caller, asset.id, media?.version ?? null, url)) throw notReady('The asset\'s media changed meanwhile; choose again.')
    return { type: 'remote_url', time: null, url }
  }

  return {
    /** `GET generated_preview_images`: the frames of the served media, by time; empty before it is processed. */
    async generated (caller: Caller, ref: string): Promise<GeneratedImage[]> {
      const media = await served(caller, ref)
      return media === null ? [] : await frames(media)
    },

    /** `GET primary_preview_image`. */
    async primary (caller: Caller, ref: string): Promise<PrimaryPreview> {
      const asset = await assets.find(caller, ref)
      const media = await served(caller, ref)
      if (media === null) {
        // An asset without media of its own shows the URL it was given (PATCH or a remote_url choice).
        const remote = !isUploadType(asset.asset_type) && asset.preview_image_url !== null
        return { type: remote ? 'remote_url' : 'default', time: null, url: asset.preview_image_url }
      }
      const choice = await readOr(`${media.prefix}${CHOICE_FILE}`)
      const chosen = choice === null ? { type: 'default' as const, time: null } : JSON.parse(choice.toString('utf8')) as Pick<PrimaryPreview, 'type' | 'time'>
      return { type: chosen.type, time: chosen.time, url: asset.preview_image_url }
    },

    /**
     * `PUT primary_preview_image`: a generated frame (the one nearest `time`), the file sent last, or a
     * remote URL becomes the preview.
     */
    async choose (caller: Caller, ref: string, body: PreviewChoice): Promise<PrimaryPreview> {
      if (body.type === 'generated' && body.time === undefined) throw validationError('Field time is required with type generated.', { time: ['is required with type generated'] })
      if (body.type !== 'generated' && body.time !== undefined) throw validationError('Field time is only for type generated.', { time: ['is only for type generated'] })
      if (body.type === 'remote_url' && body.url === undefined) throw validationError('Field url is required with type remote_url.', { url: ['is required with type remote_url'] })
      if (body.type !== 'remote_url' && body.url !== undefined) throw validationError('Field url is only for type remote_url.', { url: ['is only for type remote_url'] })
      if (body.type === 'remote_url') return await remote(caller, ref, body.url as string)
      const media = await served(caller, ref)
      if (media === null) throw notReady('The asset has no processed media yet, so there is no preview to choose.')
      let bytes: Buffer | null
      let time: number | null = null
      if (body.type === 'generated') {
        const wanted = body.time ?? 0
        const all = await frames(media)
        const nearest = all.reduce<GeneratedImage | null>((best, f) => best === null || Math.abs(f.time - wanted) < Math.abs(best.time - wanted) ? f : best, null)
        if (nearest === null) throw notReady('The asset has no generated preview images.')
        time = nearest.time
        bytes = await readOr(`${media.prefix}${FRAMES_DIR}/${nearest.url.split('/').pop() as string}`)
      } else {
        bytes = await readOr(`${media.prefix}${UPLOADED_PREVIEW_FILE}`)
        if (bytes === null) throw notReady('No preview image file was sent for this asset\'s media: send one with POST /v2/assets/{id}/preview_image_files first.')
      }
      if (bytes === null) throw notReady('The generated preview image is gone.')
      const type = bytes[0] === 0x89 ? 'image/png' : 'image/jpeg'
      await store.put(`${media.prefix}${PREVIEW_FILE}`, bytes, { contentType: type })
      await store.put(`${media.prefix}${CHOICE_FILE}`, Buffer.from(JSON.stringify({ type: body.type, time })), { contentType: 'application/json' })
      if (!await assetMedia.previewChosen(caller, media.assetId, media.version)) throw notReady('The asset\'s media changed meanwhile; choose again.')
      return { type: body.type, time, url: mediaUrls(deps.mediaBaseUrl, media.token).preview }
    },

    /** `POST preview_image_files`: a JPEG or PNG, checked whole, kept for `{"type":"uploaded_file"}`. */
    async upload (caller: Caller, ref: string, bytes: Buffer): Promise<{ type: string, width: number, height: number, size: number }> {
      const media = await served(caller, ref)
      if (media === null) throw notReady('The asset has no processed media yet; send its preview image once it is live or paused.')
      let image
      try {
        image = await checkPreviewImage(await deps.tools(), bytes, deps.scratchDir)
      } catch (error) {
        if ((error as { code?: string }).code === 'media_rejected') throw new ApiError('preview_image_invalid', (error as Error).message)
        throw error
      }
      await store.put(`${media.prefix}${UPLOADED_PREVIEW_FILE}`, bytes, { contentType: image.type })
      return { type: image.type, width: image.width, height: image.height, size: bytes.length }
    }
  }
}

export type PreviewService = ReturnType<typeof createPreviewService>
