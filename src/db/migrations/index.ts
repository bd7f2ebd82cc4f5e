import type { Migration } from 'kysely'
import * as core from './0001-core.ts'
import * as labelsPlayersRules from './0002-labels-players-rules.ts'
import * as assetsSyndications from './0003-assets-syndications.ts'
import * as outbox from './0004-outbox.ts'
import * as idempotencyKeys from './0005-idempotency-keys.ts'
import * as mediaUploads from './0006-media-uploads.ts'
import * as mediaVersions from './0007-media-versions.ts'
import * as mediaRemovals from './0008-media-removals.ts'
import * as mediaProgress from './0009-media-progress.ts'
import * as processingWarnings from './0010-processing-warnings.ts'
import * as directUploads from './0011-direct-uploads.ts'
import * as webhooks from './0012-webhooks.ts'
import * as channelLineups from './0013-channel-lineups.ts'
import * as mp4Support from './0015-mp4-support.ts'
import * as assetCaptions from './0017-asset-captions.ts'
import * as signedPlayback from './0018-signed-playback.ts'
import * as mediaEncryption from './0019-media-encryption.ts'

/**
 * Every migration, by name; names sort in the order they run. Add one line per new migration file.
 */
export const migrations: Record<string, Migration> = {
  '0001-core': core,
  '0002-labels-players-rules': labelsPlayersRules,
  '0003-assets-syndications': assetsSyndications,
  '0004-outbox': outbox,
  '0005-idempotency-keys': idempotencyKeys,
  '0006-media-uploads': mediaUploads,
  '0007-media-versions': mediaVersions,
  '0008-media-removals': mediaRemovals,
  '0009-media-progress': mediaProgress,
  '0010-processing-warnings': processingWarnings,
  '0011-direct-uploads': directUploads,
  '0012-webhooks': webhooks,
  '0013-channel-lineups': channelLineups,
  '0015-mp4-support': mp4Support,
  '0017-asset-captions': assetCaptions,
  '0018-signed-playback': signedPlayback,
  '0019-media-encryption': mediaEncryption
}
