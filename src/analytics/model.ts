/**
 * The vocabulary of analytics: event names, report dimensions and metrics, and the stored event row.
 * Everything else in `src/analytics/` is written in these terms.
 */

export const EVENT_NAMES = [
  'player_load', 'display', 'play_requested', 'video_start', 'playhead_update',
  'pause', 'seek', 'replay', 'playthrough', 'time_watched',
  'rebuffer_start', 'rebuffer_end', 'rendition_change', 'error'
] as const
export type EventName = typeof EVENT_NAMES[number]

export const PLAYTHROUGH_PERCENTS = [25, 50, 75, 100] as const

/**
 * How an event is stored: one small integer for its name (and percent, for playthroughs), so that
 * reports compare integers instead of text — about twice as fast over 10M events in DuckDB. The kinds
 * that metrics count are 1–9; a report reads only those (playhead updates are the bulk of the rest).
 */
export const EVENT_KIND = {
  display: 1, play_requested: 2, video_start: 3, replay: 4,
  playthrough_25: 5, playthrough_50: 6, playthrough_75: 7, playthrough_100: 8, time_watched: 9,
  player_load: 10, playhead_update: 11, pause: 12, seek: 13,
  rebuffer_start: 14, rebuffer_end: 15, rendition_change: 16, error_fatal: 17, error: 18
} as const
export const COUNTED_KINDS = { min: 1, max: 9 } as const
/** The viewer-experience kinds that quality metrics count (rebuffers, renditions, fatal errors). */
export const QUALITY_KINDS = { min: 14, max: 17 } as const

/** A fatal error is its own kind, so that failure rates count one kind. */
export function eventKind (name: EventName, percent: number | null, fatal = false): number {
  if (name === 'playthrough') return EVENT_KIND[`playthrough_${percent as 25 | 50 | 75 | 100}`]
  if (name === 'error') return fatal ? EVENT_KIND.error_fatal : EVENT_KIND.error
  return EVENT_KIND[name]
}

export const DIMENSIONS = ['asset', 'player_id', 'label', 'country', 'device_type', 'os', 'browser', 'domain'] as const
export type Dimension = typeof DIMENSIONS[number]

/** The default `metrics` is all of them, in this order (docs/analytics.md). */
export const METRICS = [
  'displays', 'plays_requested', 'video_starts', 'replays',
  'playthrough_25', 'playthrough_50', 'playthrough_75', 'playthrough_100',
  'time_watched', 'avg_time_watched_per_video', 'play_conversion_rate', 'video_conversion_rate',
  'uniq_plays_requested',
  'startup_time_ms', 'startup_time_ms_p95', 'rebuffer_ratio', 'rebuffer_frequency', 'playback_failure_rate',
  'exits_before_start', 'avg_rendition_height', 'avg_bitrate', 'viewer_experience_score'
] as const
export type Metric = typeof METRICS[number]

export const TIME_SEGMENTS = ['hour', 'day', 'week', 'month', 'total'] as const
export type TimeSegment = typeof TIME_SEGMENTS[number]

/** Values stored when a dimension cannot be determined (the v3 enumerations use these spellings). */
export const UNKNOWN = {
  country: 'unknown',
  deviceType: 'unknown.devicetype',
  os: 'unknown.os',
  browser: 'unknown.browser',
  domain: 'unknown',
  playerId: 'unknown',
  label: 'unknown'
} as const

/** One stored event, denormalised: the batch's session, device and place are copied onto each event. */
export interface EventRow {
  accountId: string
  assetId: string
  playerId: string
  sessionId: string
  /** Who counts as one viewer for unique metrics: `d:<device.id>` when the player sends one, else `s:<session_id>`. */
  viewerId: string
  name: EventName
  /** Milliseconds since the epoch, UTC. */
  time: number
  /** `playthrough` only: 25, 50, 75 or 100. */
  percent: number | null
  /**
   * The event's number: `time_watched` milliseconds watched, `video_start` its `startup_ms`,
   * `rebuffer_end` its `duration_ms`, `rendition_change` its `bitrate`, `playhead_update` its `position_ms`.
   */
  value: number | null
  /** The second number: `rendition_change` its `height`, `playhead_update` the `duration_ms` of the video. */
  value2?: number | null
  /** `error` only: the player's error code, as text. */
  code?: string | null
  /** `error` only: a short message (at most 256 characters). */
  message?: string | null
  /** `error` only: whether playback stopped. */
  fatal?: boolean
  country: string
  deviceType: string
  os: string
  browser: string
  domain: string
}

/** A unit of ingestion: applied to the store at most once, recognised by its id. */
export interface EventBatch {
  id: string
  rows: EventRow[]
}

/** Caller-supplied lookups into the resources side, so analytics never opens the resources database. */
export interface AnalyticsResources {
  /** The account that a player's `account_code` names, or undefined when there is none. */
  resolveAccount: (accountCode: string) => Promise<{ accountId: string } | undefined> | { accountId: string } | undefined
  /** Whether the asset (embed code) exists in the account. */
  assetExists: (accountId: string, assetId: string) => Promise<boolean> | boolean
  /**
   * Label ids of each asset of the account, **including every ancestor label**, so that a report on a
   * label rolls up its children (as the API family's label reports do). Called only by reports that use `label`.
   */
  labelsOf: (accountId: string) => Promise<Map<string, string[]>> | Map<string, string[]>
  /**
   * The name of each label of the account, by id: reports grouped by `label` then give each row its
   * `label_name` beside the id. Without it they give the id alone.
   */
  labelNames?: (accountId: string) => Promise<Map<string, string>> | Map<string, string>
}
