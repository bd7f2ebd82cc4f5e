import { Type, type Static, type TSchema } from 'typebox'
import { BooleanInput, described, HexId, Name, SignedErrors, Timestamp } from '../../http/schemas.ts'

export const WATERMARK_POSITIONS = ['top-left', 'top-right', 'bottom-left', 'bottom-right'] as const

export const BRANDING_FLAGS = [
  'show_share_button', 'twitter_sharing', 'facebook_sharing', 'email_sharing', 'url_sharing', 'show_embed_button',
  'show_info_button', 'show_info_screen_title', 'show_info_screen_description', 'show_info_screen_homepage_link',
  'show_ad_countdown', 'show_volume_button', 'show_bitrate_button', 'enable_error_screen',
  'show_end_screen_replay_button', 'chromeless'
] as const

/** What each branding flag turns on, for the API reference. */
const FLAG_DESCRIPTIONS: Record<typeof BRANDING_FLAGS[number], string> = {
  show_share_button: 'Show the share button',
  twitter_sharing: 'Offer sharing on Twitter',
  facebook_sharing: 'Offer sharing on Facebook',
  email_sharing: 'Offer sharing by email',
  url_sharing: 'Offer copying the URL',
  show_embed_button: 'Show the embed-code button',
  show_info_button: 'Show the info button',
  show_info_screen_title: 'Show the title on the info screen',
  show_info_screen_description: 'Show the description on the info screen',
  show_info_screen_homepage_link: 'Link the provider\'s homepage on the info screen (needs provider_homepage_url)',
  show_ad_countdown: 'Show the countdown during ads',
  show_volume_button: 'Show the volume button',
  show_bitrate_button: 'Show the bitrate button',
  enable_error_screen: 'Show an error screen when playback fails',
  show_end_screen_replay_button: 'Show a replay button at the end',
  chromeless: 'Hide every control'
}

const Url = Type.String({ maxLength: 2048, description: 'An absolute http(s) URL', examples: ['https://example.com'] })
const NullableUrl = (description: string, example: string) => Type.Union([Url, Type.Null()], { description: `${description}: an absolute http(s) URL, or null (an empty string also clears it)`, examples: [example] })
const ProviderName = Type.String({ maxLength: 255, pattern: '^[^\\u0000-\\u001f\\u007f]*$', description: 'The content provider\'s name, shown on the info screen', examples: ['Example Media'] })
const Language = Type.String({ maxLength: 35, pattern: '^([A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*)?$', description: 'Closed captions shown by default: a BCP 47 language tag (e.g. en, pt-BR), or "" for none', examples: ['en'] })
const AccentColor = Type.String({ pattern: '^#[0-9A-Fa-f]{6}$', description: 'The controls\' accent colour, #rrggbb', examples: ['#ffbb00'] })
const Position = Type.Enum(WATERMARK_POSITIONS, { description: 'Where the watermark sits', examples: ['bottom-right'] })
const Alpha = Type.Number({ minimum: 0, maximum: 1, description: 'The watermark\'s opacity, 0 (invisible) to 1', examples: [0.8] })
const HOMEPAGE = 'The provider\'s homepage'
const CLICK_URL = 'Where a click on the watermark leads'

function flags<T extends TSchema> (schema: (flag: typeof BRANDING_FLAGS[number]) => T): Record<typeof BRANDING_FLAGS[number], T> {
  return Object.fromEntries(BRANDING_FLAGS.map((flag) => [flag, schema(flag)])) as Record<typeof BRANDING_FLAGS[number], T>
}
const flag = (name: typeof BRANDING_FLAGS[number]) => Type.Boolean({ description: FLAG_DESCRIPTIONS[name], examples: [true] })
const flagInput = (name: typeof BRANDING_FLAGS[number]) => described(BooleanInput, FLAG_DESCRIPTIONS[name], true)

const AUTOPLAY = 'Start playing as soon as the player loads'
const LOOP = 'Start again at the end'
const BUFFER_ON_PAUSE = 'Keep buffering while paused'

// Output shapes: every field, always present.
const Branding = Type.Object({ accent_color: AccentColor, ...flags(flag) }, { description: 'What the player shows and offers' })
const Watermark = Type.Object({
  click_url: Type.Union([Type.String(), Type.Null()], { description: `${CLICK_URL}, or null`, examples: ['https://example.com/watch'] }),
  alpha: Alpha,
  position: Position
}, { description: 'The watermark over the video' })
const Playback = Type.Object({
  autoplay: Type.Boolean({ description: AUTOPLAY, examples: [false] }),
  loop: Type.Boolean({ description: LOOP, examples: [false] }),
  buffer_on_pause: Type.Boolean({ description: BUFFER_ON_PAUSE, examples: [true] })
}, { description: 'How playback behaves' })

const PlayerName = described(Name, 'The player\'s name', 'Default player')
const IS_DEFAULT = 'The account\'s default player, used by assets without one. At most one per account: setting it on one clears it on the others'

const settings = {
  name: PlayerName,
  is_default: Type.Boolean({ description: IS_DEFAULT, examples: [true] }),
  provider_homepage_url: Type.Union([Type.String(), Type.Null()], { description: `${HOMEPAGE}, or null`, examples: ['https://example.com'] }),
  provider_name: ProviderName,
  default_closed_caption_language: Language,
  branding: Branding,
  watermark: Watermark,
  playback: Playback
}
export const PlayerSettings = Type.Object(settings)
export const Player = Type.Object({
  id: described(HexId, 'The player\'s id', '3f2a9c0e5b7d4e1fa6c8b0d2e4f60718'),
  ...settings,
  created_at: described(Timestamp, 'When the player was created', '2026-11-22T10:00:00Z'),
  updated_at: described(Timestamp, 'When the player last changed', '2026-11-22T10:05:00Z')
}, { title: 'Player', description: 'A player: its branding, watermark and playback settings' })

// Input shapes: any subset; nested objects merge field by field on PATCH.
const BrandingInput = Type.Object({ accent_color: Type.Optional(AccentColor), ...flags((name) => Type.Optional(flagInput(name))) }, {
  additionalProperties: false,
  description: 'What the player shows and offers; PATCH merges it field by field'
})
const WatermarkInput = Type.Object({
  click_url: Type.Optional(NullableUrl(CLICK_URL, 'https://example.com/watch')),
  alpha: Type.Optional(Alpha),
  position: Type.Optional(Position)
}, { additionalProperties: false, description: 'The watermark over the video; PATCH merges it field by field' })
const PlaybackInput = Type.Object({
  autoplay: Type.Optional(described(BooleanInput, AUTOPLAY, false)),
  loop: Type.Optional(described(BooleanInput, LOOP, false)),
  buffer_on_pause: Type.Optional(described(BooleanInput, BUFFER_ON_PAUSE, true))
}, { additionalProperties: false, description: 'How playback behaves; PATCH merges it field by field' })

const optionalFields = {
  is_default: Type.Optional(described(BooleanInput, IS_DEFAULT, true)),
  provider_homepage_url: Type.Optional(NullableUrl(HOMEPAGE, 'https://example.com')),
  provider_name: Type.Optional(ProviderName),
  default_closed_caption_language: Type.Optional(Language),
  branding: Type.Optional(BrandingInput),
  watermark: Type.Optional(WatermarkInput),
  playback: Type.Optional(PlaybackInput)
}

export const CreatePlayerBody = Type.Object({ name: PlayerName, ...optionalFields }, { additionalProperties: false })
export const UpdatePlayerBody = Type.Object({ name: Type.Optional(PlayerName), ...optionalFields }, { additionalProperties: false })
export const PlayerErrors = SignedErrors

export type ApiPlayer = Static<typeof Player>
/** A player's settings as the API shows them: everything but the id and the timestamps. */
export type PlayerSettings = Static<typeof PlayerSettings>
/** What POST, PATCH and PUT bodies may carry. */
export type PlayerInput = Static<typeof UpdatePlayerBody>
