import { validationError } from '../errors/api-error.ts'
import type { PlayerColumns, PlayerRow } from './players-repository.ts'

type Bool = boolean | 'true' | 'false'

export const WATERMARK_POSITIONS = ['top-left', 'top-right', 'bottom-left', 'bottom-right'] as const

export const BRANDING_FLAGS = [
  'show_share_button', 'twitter_sharing', 'facebook_sharing', 'email_sharing', 'url_sharing', 'show_embed_button',
  'show_info_button', 'show_info_screen_title', 'show_info_screen_description', 'show_info_screen_homepage_link',
  'show_ad_countdown', 'show_volume_button', 'show_bitrate_button', 'enable_error_screen',
  'show_end_screen_replay_button', 'chromeless'
] as const

export type Branding = { accent_color: string } & Record<typeof BRANDING_FLAGS[number], boolean>
export interface Watermark { click_url: string | null, alpha: number, position: typeof WATERMARK_POSITIONS[number] }
export interface Playback { autoplay: boolean, loop: boolean, buffer_on_pause: boolean }

/** A player's settings as the API shows them (everything but id, metadata and timestamps). */
export interface PlayerSettings {
  name: string
  is_default: boolean
  provider_homepage_url: string | null
  provider_name: string
  default_closed_caption_language: string
  branding: Branding
  watermark: Watermark
  playback: Playback
}

/** What POST, PATCH and PUT bodies may carry: any subset, nested objects partially too. */
export type PlayerInput = Partial<{
  name: string
  is_default: Bool
  provider_homepage_url: string | null
  provider_name: string
  default_closed_caption_language: string
  branding: Partial<Record<keyof Branding, string | Bool>>
  watermark: Partial<{ click_url: string | null, alpha: number, position: Watermark['position'] }>
  playback: Partial<Record<keyof Playback, Bool>>
}>

const BRANDING_DEFAULTS = Object.fromEntries(BRANDING_FLAGS.map((flag) => [flag, true])) as Record<typeof BRANDING_FLAGS[number], boolean>

/** Defaults of a new player (and of the fields a PUT leaves out), after backlot-api.md §1.5's create example. */
export const PLAYER_DEFAULTS: PlayerSettings = {
  name: '',
  is_default: false,
  provider_homepage_url: null,
  provider_name: '',
  default_closed_caption_language: '',
  branding: { accent_color: '#ffbb00', ...BRANDING_DEFAULTS, show_info_screen_homepage_link: false, show_bitrate_button: false, chromeless: false },
  watermark: { click_url: null, alpha: 1, position: 'bottom-right' },
  playback: { autoplay: false, loop: false, buffer_on_pause: true }
}

/**
 * `base` with the input applied: top-level fields replace, nested objects merge field by field.
 * PATCH applies to the current settings, POST and PUT to the defaults.
 */
export function applyInput (base: PlayerSettings, input: PlayerInput): PlayerSettings {
  const next: PlayerSettings = {
    ...base,
    ...pick(input, ['name', 'provider_name', 'default_closed_caption_language']),
    branding: { ...base.branding, ...booleans(input.branding) },
    watermark: { ...base.watermark, ...input.watermark },
    playback: { ...base.playback, ...booleans(input.playback) }
  }
  if (input.is_default !== undefined) next.is_default = input.is_default === true || input.is_default === 'true'
  // An empty string clears the URL, as some clients send it for "none".
  if (input.provider_homepage_url !== undefined) next.provider_homepage_url = input.provider_homepage_url === '' ? null : input.provider_homepage_url
  if (input.watermark?.click_url === '') next.watermark.click_url = null
  assertValid(next)
  return next
}

/** The checks a schema cannot phrase well: absolute http(s) URLs and the homepage-link rule. */
function assertValid (settings: PlayerSettings): void {
  for (const [field, value] of [['provider_homepage_url', settings.provider_homepage_url], ['watermark.click_url', settings.watermark.click_url]] as const) {
    if (value !== null && !isHttpUrl(value)) throw validationError(`Field ${field} must be an absolute http(s) URL.`, { [field]: ['must be an absolute http(s) URL'] })
  }
  if (settings.branding.show_info_screen_homepage_link && settings.provider_homepage_url === null) {
    const message = 'is required when branding.show_info_screen_homepage_link is true'
    throw validationError(`Field provider_homepage_url ${message}.`, { provider_homepage_url: [message] })
  }
}

export function isHttpUrl (value: string): boolean {
  // `new URL` silently drops tabs, newlines and surrounding spaces, so refuse those first.
  if (/[\s\u0000-\u001f\u007f]/.test(value)) return false
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
  } catch {
    return false
  }
}

export function toColumns (settings: PlayerSettings): PlayerColumns {
  return {
    name: settings.name,
    is_default: settings.is_default ? 1 : 0,
    provider_homepage_url: settings.provider_homepage_url,
    provider_name: settings.provider_name,
    default_closed_caption_language: settings.default_closed_caption_language,
    branding: JSON.stringify(settings.branding),
    watermark: JSON.stringify(settings.watermark),
    playback: JSON.stringify(settings.playback)
  }
}

/** Stored settings over the defaults, so fields added by a later release read as their default. */
export function settingsOf (row: PlayerRow): PlayerSettings {
  return {
    name: row.name,
    is_default: row.is_default === 1,
    provider_homepage_url: row.provider_homepage_url,
    provider_name: row.provider_name,
    default_closed_caption_language: row.default_closed_caption_language,
    branding: { ...PLAYER_DEFAULTS.branding, ...JSON.parse(row.branding) as Partial<Branding> },
    watermark: { ...PLAYER_DEFAULTS.watermark, ...JSON.parse(row.watermark) as Partial<Watermark> },
    playback: { ...PLAYER_DEFAULTS.playback, ...JSON.parse(row.playback) as Partial<Playback> }
  }
}

function pick<T extends object, K extends keyof T> (input: T, keys: K[]): Partial<Pick<T, K>> {
  return Object.fromEntries(keys.filter((key) => input[key] !== undefined).map((key) => [key, input[key]])) as Partial<Pick<T, K>>
}

/** `"true"`/`"false"` to booleans; other values (the accent colour) pass through. */
function booleans<T extends Record<string, unknown>> (section: T | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(section ?? {}).map(([key, value]) => [key, value === 'true' ? true : value === 'false' ? false : value]))
}
