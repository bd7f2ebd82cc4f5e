import type { WriteEffects } from '../db/index.ts'
import type { Clock } from '../lib/clock.ts'
import { chainEffects, deriveWebhookEvents } from '../webhooks/index.ts'
import { DocumentLoaders } from '../indexer/index.ts'
import { deriveOutboxEntries } from '../outbox/index.ts'
import { assetDocumentTouches, assetEvents, loadAssetDocument, loadAssetDocuments, loadTranscriptDocument, transcriptDocumentTouches } from '../resources/assets/index.ts'
import { labelDocumentTouches, loadLabelDocument } from '../resources/labels/index.ts'
import { loadPlayerDocument, playerDocumentTouches } from '../resources/players/index.ts'
import { loadSyndicationDocument, syndicationDocumentTouches } from '../resources/syndications/index.ts'

/** The search document of each indexed resource type, as each resource module defines it. */
export function documentLoaders (): DocumentLoaders {
  return new DocumentLoaders({
    asset: loadAssetDocument,
    label: loadLabelDocument,
    player: loadPlayerDocument,
    syndication: loadSyndicationDocument,
    transcript: loadTranscriptDocument
  }, { asset: loadAssetDocuments })
}

/**
 * What commits with every write (`database.effects`, src/db/account-lock.ts): the outbox entries of the
 * documents its changes touch, as each resource declares beside its document loader, and the webhook
 * events they cause (docs/webhooks.md).
 */
export function writeEffects (clock: Clock): WriteEffects {
  return chainEffects(
    deriveOutboxEntries([assetDocumentTouches, transcriptDocumentTouches, labelDocumentTouches, playerDocumentTouches, syndicationDocumentTouches]),
    deriveWebhookEvents([assetEvents], clock)
  )
}
