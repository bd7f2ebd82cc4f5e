import { validationError } from '../../errors/api-error.ts'
import type { PlayersTable } from '../../db/tables/index.ts'
import { BRANDING_FLAGS, type PlayerInput, type PlayerSettings } from './players-schemas.ts'

type Branding = PlayerSettings['branding']
type Watermark = PlayerSettings['watermark']
type Playback = PlayerSettings['playback']

const BRANDING_DEFAULTS = Object.fromEntries(BRANDING_FLAGS.map((flag) => [flag, true])) as Record<typeof BRANDING_FLAGS[number], boolean>

/** Defaults of a new player (and of the fields a PUT leaves out), as the API family's own create example shows them. */
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

/** The columns a player's settings are stored in. */
export function toColumns (settings: PlayerSettings): Omit<PlayersTable, 'id' | 'account_id' | 'metadata' | 'created_at' | 'updated_at'> {
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
export function settingsOf (row: PlayersTable): PlayerSettings {
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
