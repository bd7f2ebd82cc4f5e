import type { FastifyInstance } from 'fastify'
import { analyticsReadinessChecks } from '../analytics/app-analytics.ts'
import { analyticsRoutes } from '../analytics/http/index.ts'
import { deviceInfo } from '../analytics/index.ts'
import { consoleRoutes } from '../console/index.ts'
import { creditsRoutes } from '../credits/index.ts'
import { searchReadinessCheck } from '../indexer/mapping-check.ts'
import { accountsWithIndexedContent } from '../indexer/reindex.ts'
import { landingRoutes } from '../ops/landing-routes.ts'
import { opsRoutes } from '../ops/ops-routes.ts'
import { assetPartsRoutes, assetsRoutes, captionsRoutes, createTranscriptSearch, lineupRoutes, transcriptSearchRoutes } from '../resources/assets/index.ts'
import { assetStreamsRoutes, previewRoutes, processingQueueRoutes } from '../media/asset-state/index.ts'
import { mediaRoutes, playbackTokens } from '../media/serving/index.ts'
import { captionsGenerateRoutes } from '../media/captions/index.ts'
import { chunkRoutes, uploadsRoutes } from '../media/uploads/index.ts'
import { directUploadsRoutes, tusRoutes } from '../media/direct-uploads/index.ts'
import { labelsRoutes } from '../resources/labels/index.ts'
import { playersRoutes } from '../resources/players/index.ts'
import { createPublishingRulesRepository, publishingRulesRoutes, ruleRestrictions } from '../resources/publishing-rules/index.ts'
import { feedRoutes, syndicationsRoutes } from '../resources/syndications/index.ts'
import { usersRoutes } from '../resources/users/index.ts'
import { eventStreamRoute, webhooksRoutes } from '../resources/webhooks/index.ts'
import { createPlaybackKeysRepository, playbackKeysRoutes } from '../resources/playback-keys/index.ts'
import { accountRoutes } from '../resources/accounts/index.ts'
import type { AppContext } from './context.ts'

/**
 * Without a GeoIP database a rule with geographic restrictions refuses every request: `/ready` says so
 * (degraded) as soon as such a rule exists, and is silent otherwise.
 */
function geoReadiness (ctx: AppContext): Record<string, () => Promise<string>> {
  if (ctx.geo !== undefined) return { geoip: async () => 'ok' }
  return {
    geoip: async () => {
      const ruled = await ctx.db.selectFrom('publishing_rules').select('id')
        .where('geographic_restrictions', '<>', JSON.stringify({ type: 'deny', countries: [] })).limit(1).executeTakeFirst()
      return ruled === undefined ? 'ok' : 'no GeoIP database (GEOIP_DB): publishing rules with geographic restrictions refuse every media request'
    }
  }
}

/**
 * Every route plugin of the app, one line each, handed the services it calls. `publicUrl` is the address
 * this listener is reached at (PUBLIC_API_URL or PUBLIC_CDN_URL): absolute links in answers start with it;
 * `variant` is which listener it is.
 */
export async function registerRoutes (app: FastifyInstance, ctx: AppContext, publicUrl: string, variant: 'api' | 'cdn' = 'api'): Promise<void> {
  const { services: s, pageTokens } = ctx
  const rules = createPublishingRulesRepository(ctx.db)
  const playbackKeys = createPlaybackKeysRepository(ctx.db)
  await app.register(opsRoutes, { db: ctx.db, checks: { search: searchReadinessCheck(ctx.search, async () => await accountsWithIndexedContent(ctx.db)), ...analyticsReadinessChecks(ctx.analytics), invalidation_bus: ctx.freshness.readiness, ...geoReadiness(ctx) } })
  await app.register(landingRoutes, { console: true })
  await app.register(consoleRoutes, { publicUrl })
  await app.register(usersRoutes, { users: s.users, pageTokens })
  await app.register(accountRoutes, { accounts: s.accounts })
  await app.register(creditsRoutes)
  await app.register(labelsRoutes, { labels: s.labels, pageTokens })
  await app.register(playersRoutes, { players: s.players, pageTokens })
  await app.register(publishingRulesRoutes, { rules: s.publishingRules, pageTokens })
  await app.register(assetsRoutes, { assets: s.assets, pageTokens })
  await app.register(assetPartsRoutes, { assetParts: s.assetParts, pageTokens })
  await app.register(lineupRoutes, { lineups: s.lineups })
  await app.register(captionsRoutes, { captions: s.captions })
  await app.register(transcriptSearchRoutes, { transcripts: createTranscriptSearch({ db: ctx.db, search: ctx.search }), pageTokens })
  await app.register(captionsGenerateRoutes, { generator: s.captionsGenerator })
  await app.register(uploadsRoutes, { uploads: s.uploads })
  await app.register(chunkRoutes, { uploads: s.uploads })
  await app.register(directUploadsRoutes, { directUploads: s.directUploads, pageTokens })
  await app.register(tusRoutes, { directUploads: s.directUploads, db: ctx.db, mediaStore: s.mediaStore, clock: ctx.clock })
  await app.register(assetStreamsRoutes, { assetMedia: s.assetMedia, pageTokens })
  await app.register(previewRoutes, { previews: s.previews, pageTokens })
  await app.register(processingQueueRoutes, { db: ctx.db })
  await app.register(mediaRoutes, {
    store: s.mediaStore,
    lookup: s.assetMedia.servedByToken,
    cache: ctx.config.readCacheBytes > 0 ? ctx.freshness.readCache : undefined,
    redirect: ctx.config.mediaRedirect,
    fileLane: ctx.config.mediaFileSend === 'lane',
    rules: {
      rule: async (accountId, ruleId) => await rules.find(accountId, ruleId),
      restrictionsOf: (row) => ruleRestrictions(row as Parameters<typeof ruleRestrictions>[0]),
      lookups: { deviceType: (userAgent) => deviceInfo(userAgent).deviceType, country: ctx.geo?.country }
    },
    tokens: playbackTokens({ keys: async (accountId, kid) => await playbackKeys.find(accountId, kid), derivedKey: ctx.secrets.playbackKey }),
    captionTrack: s.captions.webvttOf,
    subtitles: s.captions.forMaster,
    contentKey: s.assetMedia.contentKey,
    listener: { variant, httpsUrl: ctx.config.publicApiUrl },
    originals: s.originals,
    now: () => ctx.clock.now()
  })
  await app.register(playbackKeysRoutes, { keys: s.playbackKeys, pageTokens })
  await app.register(syndicationsRoutes, { syndications: s.syndications, pageTokens })
  await app.register(feedRoutes, { feeds: s.feeds, pageTokens, publicUrl })
  await app.register(webhooksRoutes, { webhooks: s.webhooks, pageTokens })
  await app.register(eventStreamRoute, { webhooks: s.webhooks })
  await app.register(analyticsRoutes, { ctx: { analytics: ctx.analytics, credits: ctx.credits, config: ctx.config } })
}
