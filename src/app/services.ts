import type { Database } from '../db/index.ts'
import type { Clock } from '../lib/clock.ts'
import { checkEngineSpeaks, createCaptionsGenerateService, type CaptionEngineChoice } from '../media/captions/index.ts'
import { assetPrefix, type MediaStore } from '../media/store/index.ts'
import type { SearchStore } from '../search/index.ts'
import type { SecretBox } from '../secrets/index.ts'
import { createAccountsService } from '../resources/accounts/index.ts'
import { createAssetMediaService, createPreviewService } from '../media/asset-state/index.ts'
import type { MediaTools } from '../media/processing/index.ts'
import { join } from 'node:path'
import { createUploadsService } from '../media/uploads/index.ts'
import { createDirectUploadsService } from '../media/direct-uploads/index.ts'
import { reprocessMedia } from '../media/jobs/index.ts'
import { originalUrls } from '../media/originals/index.ts'
import { createAssetsService, createCaptionsService, createLineupService, createPartsService } from '../resources/assets/index.ts'
import { createLabelsService } from '../resources/labels/index.ts'
import { createPlayersService } from '../resources/players/index.ts'
import { createPublishingRulesService } from '../resources/publishing-rules/index.ts'
import { createFeedService, createSyndicationsService } from '../resources/syndications/index.ts'
import { createUsersService } from '../resources/users/index.ts'
import { createWebhooksService } from '../resources/webhooks/index.ts'
import { createPlaybackKeysService } from '../resources/playback-keys/index.ts'

export interface ServiceDeps {
  database: Database
  clock: Clock
  secrets: SecretBox
  search: SearchStore
  dataDir: string
  /** Where uploaded and processed media lives (MEDIA_STORE_URL), opened once per process. */
  mediaStore: MediaStore
  /** PUBLIC_API_URL: chunk URLs and media URLs start with it. */
  publicApiUrl: string
  /** ffmpeg, found on first use: the api decodes preview image files with it. */
  mediaTools: () => Promise<MediaTools>
  /** CREDITS_PER_MINUTE: the allowance of an account without one of its own. */
  defaultCreditsPerMinute: number
  /** WEBHOOKS_ALLOW_HTTP and WEBHOOKS_ALLOW_PRIVATE. */
  webhookTargets: { allowHttp: boolean, allowPrivate: boolean }
  /** The engine generated captions use (CAPTIONS_*), or why they are off. */
  captionEngine: CaptionEngineChoice
}

/** Every resource's service, each handed exactly the dependencies it declares. */
export function createServices ({ database, clock, secrets, search, dataDir, mediaStore, mediaTools, publicApiUrl, defaultCreditsPerMinute, webhookTargets, captionEngine }: ServiceDeps) {
  const users = createUsersService({ database, clock, secrets })
  const originals = originalUrls(secrets.originalsKey)
  const signOriginal = (url: string): string => originals.sign(url, clock.now())
  const assets = createAssetsService({
    database, clock, search,
    removeMedia: async (accountId, assetId) => { await mediaStore.deletePrefix(assetPrefix(accountId, assetId)) },
    // The media tree is built on the assets service: bound once both exist.
    processingOf: async (accountId, rows) => await assetMedia.processingOf(accountId, rows),
    checkGeneratedCaptions: (languages) => { checkEngineSpeaks(captionEngine, languages, 'generate_captions') },
    reprocess: reprocessMedia,
    signOriginal
  })
  const assetMedia = createAssetMediaService({ database, clock, mediaBaseUrl: publicApiUrl, secrets }, assets)
  const assetParts = createPartsService({ database }, assets)
  const uploads = createUploadsService({ database, clock, mediaStore, tokenKey: secrets.tokenKey, publicApiUrl, signOriginal }, assets)
  return {
    accounts: createAccountsService({ database, clock, users, dataDir, defaultCreditsPerMinute }),
    users,
    labels: createLabelsService({ database, clock }),
    players: createPlayersService({ database, clock }),
    publishingRules: createPublishingRulesService({ database, clock }),
    assets,
    assetParts,
    lineups: createLineupService({ database }, assets),
    assetMedia,
    previews: createPreviewService({ store: mediaStore, tools: mediaTools, scratchDir: join(dataDir, 'media-work', 'previews'), mediaBaseUrl: publicApiUrl }, assets, assetMedia),
    captions: createCaptionsService({ database, clock, mediaBaseUrl: publicApiUrl }, assets),
    captionsGenerator: createCaptionsGenerateService({ database, clock, engine: captionEngine }, assets),
    captionEngine,
    uploads,
    directUploads: createDirectUploadsService({ database, clock, mediaStore, tokenKey: secrets.tokenKey, publicApiUrl }, { assets, parts: assetParts, uploads }),
    syndications: createSyndicationsService({ database, clock }),
    feeds: createFeedService({ database, signOriginal }),
    originals,
    webhooks: createWebhooksService({ database, clock, secrets, targets: webhookTargets }),
    playbackKeys: createPlaybackKeysService({ database, clock, secrets }, async (caller, ref) => await assets.get(caller, ref)),
    mediaStore
  }
}

export type Services = ReturnType<typeof createServices>
