/**
 * `@reelhouse/client`: the TypeScript client of the Reelhouse API, for Node ≥ 20 and browsers.
 * docs/client.md is its guide.
 */
export { Reelhouse } from './client.ts'
export type { ClientOptions, RequestOptions, CallInit, RateLimit } from './core/transport.ts'
export type { FetchLike } from './core/exchange.ts'
export {
  ReelhouseError, APIError, BadRequestError, AuthenticationError, PermissionDeniedError, NotFoundError, ConflictError,
  RateLimitError, InternalServerError, APIConnectionError, APIConnectionTimeoutError, APIUserAbortError, type Problem
} from './core/errors.ts'
export { Page, PagedList, type PageAnswer } from './core/paging.ts'
export { where, quote, Where, type WhereField, type ValueField, type CompareOperator, type Literal } from './core/where.ts'
export { signedPath, computeSignature, type SignedPathInput } from './core/signing.ts'
export { signPlaybackToken, type PlaybackPrivateKey, type PlaybackTokenOptions } from './core/playback-token.ts'
export { verifyWebhook, WebhookVerificationError, type WebhookHeaders, type VerifyOptions } from './core/webhooks.ts'
export type { AssetListParams, AssetOrderBy } from './resources/assets.ts'
export type { UploadSource, UploadOptions, UploadProgress, WaitOptions } from './resources/uploads.ts'
export type { LabelListParams } from './resources/labels.ts'
export type { FeedOptions } from './resources/syndications.ts'
export { filterValue, ReportPage, type ReportParams, type ClassicReportParams, type ReportTime } from './resources/analytics.ts'
export { EventBatchSender, MAX_BATCH_EVENTS, type EventSenderOptions, type EventSession, type PlayerEvent } from './resources/event-sender.ts'
export { IndexingService, INDEX_QUEUE, type IndexingServiceOptions } from './resources/indexing.ts'
export type * from './generated/analytics.ts'
export type * from './generated/assets.ts'
export type * from './generated/credits.ts'
export type * from './generated/errors.ts'
export type * from './generated/indexing.ts'
export type * from './generated/labels.ts'
export type * from './generated/metadata.ts'
export type * from './generated/players.ts'
export type * from './generated/publishing-rules.ts'
export type * from './generated/syndications.ts'
export type * from './generated/uploads.ts'
export type * from './generated/users.ts'
export type * from './generated/where.ts'
