import type { AccountsTable, SettingsTable } from './accounts.ts'
import type { AssetLabelsTable, AssetMetadataTable, AssetsTable, ChannelLineupsTable, DeletedAssetsTable } from './assets.ts'
import type { AssetCaptionsTable } from './captions.ts'
import type { DirectUploadPartsTable, DirectUploadsTable, TusLocksTable } from './direct-uploads.ts'
import type { IdempotencyKeysTable } from './idempotency.ts'
import type { LabelsTable } from './labels.ts'
import type { MediaJobsTable, MediaUploadChunksTable, MediaUploadsTable } from './media.ts'
import type { MediaVersionsTable } from './media-versions.ts'
import type { IndexParkedTable, OutboxTable } from './outbox.ts'
import type { PlaybackKeysTable } from './playback-keys.ts'
import type { PlayersTable } from './players.ts'
import type { PublishingRulesTable } from './publishing-rules.ts'
import type { SyndicationAccessKeysTable, SyndicationLabelsTable, SyndicationsTable } from './syndications.ts'
import type { UsersTable } from './users.ts'
import type { WebhookAttemptsTable, WebhookDeliveriesTable, WebhookEventsTable, WebhooksTable } from './webhooks.ts'

export type * from './accounts.ts'
export type * from './assets.ts'
export type * from './captions.ts'
export type * from './direct-uploads.ts'
export type * from './idempotency.ts'
export type * from './labels.ts'
export type * from './media.ts'
export type * from './media-versions.ts'
export type * from './outbox.ts'
export type * from './playback-keys.ts'
export type * from './players.ts'
export type * from './publishing-rules.ts'
export type * from './syndications.ts'
export type * from './users.ts'
export type * from './webhooks.ts'

/**
 * Every table, as the migrations in `src/db/migrations/` create it: the one description of the schema
 * that migrations' types, repositories, document loaders and the outbox all use.
 *
 * Conventions, identical on SQLite and PostgreSQL: ids are text; timestamps are ISO 8601 UTC text with
 * milliseconds (they sort as text); booleans are integers 0/1; JSON is text; `bigint` columns come back
 * as strings from PostgreSQL and as numbers from SQLite (`BigIntColumn`), so they are read through `Number()`.
 */
export interface DB {
  accounts: AccountsTable
  settings: SettingsTable
  users: UsersTable
  labels: LabelsTable
  players: PlayersTable
  publishing_rules: PublishingRulesTable
  playback_keys: PlaybackKeysTable
  assets: AssetsTable
  asset_metadata: AssetMetadataTable
  asset_labels: AssetLabelsTable
  channel_lineups: ChannelLineupsTable
  asset_captions: AssetCaptionsTable
  deleted_assets: DeletedAssetsTable
  syndications: SyndicationsTable
  syndication_labels: SyndicationLabelsTable
  syndication_access_keys: SyndicationAccessKeysTable
  outbox: OutboxTable
  index_parked: IndexParkedTable
  idempotency_keys: IdempotencyKeysTable
  media_uploads: MediaUploadsTable
  media_upload_chunks: MediaUploadChunksTable
  media_jobs: MediaJobsTable
  media_versions: MediaVersionsTable
  direct_uploads: DirectUploadsTable
  direct_upload_parts: DirectUploadPartsTable
  tus_locks: TusLocksTable
  webhooks: WebhooksTable
  webhook_events: WebhookEventsTable
  webhook_deliveries: WebhookDeliveriesTable
  webhook_attempts: WebhookAttemptsTable
}
