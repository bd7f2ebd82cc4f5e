import { Type, type TSchema } from 'typebox'
import { BooleanInput, Empty, HexId, Name, pageOf, PageQuery, SignedErrors, SignedQuery, Timestamp } from '../http/schemas.ts'
import { BRANDING_FLAGS, WATERMARK_POSITIONS } from './players-fields.ts'
import { MAX_METADATA_VALUE } from './players-metadata.ts'

const Url = Type.String({ maxLength: 2048, description: 'An absolute http(s) URL' })
const NullableUrl = Type.Union([Url, Type.Null()], { description: 'An absolute http(s) URL, or null (an empty string also clears it)' })
const Text = Type.String({ maxLength: 255, pattern: '^[^\\u0000-\\u001f\\u007f]*$' })
const Language = Type.String({ maxLength: 35, pattern: '^([A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*)?$', description: 'A BCP 47 language tag (e.g. en, pt-BR), or "" for none' })
const AccentColor = Type.String({ pattern: '^#[0-9A-Fa-f]{6}$', description: '#rrggbb' })
const Position = Type.Enum(WATERMARK_POSITIONS)
const Alpha = Type.Number({ minimum: 0, maximum: 1 })

function flags<T extends TSchema> (schema: T): Record<typeof BRANDING_FLAGS[number], T> {
  return Object.fromEntries(BRANDING_FLAGS.map((flag) => [flag, schema])) as Record<typeof BRANDING_FLAGS[number], T>
}

// Output shapes: every field, always present.
const Branding = Type.Object({ accent_color: Type.String(), ...flags(Type.Boolean()) })
const Watermark = Type.Object({ click_url: Type.Union([Type.String(), Type.Null()]), alpha: Type.Number(), position: Position })
const Playback = Type.Object({ autoplay: Type.Boolean(), loop: Type.Boolean(), buffer_on_pause: Type.Boolean() })

export const Player = Type.Object({
  id: HexId,
  name: Type.String(),
  is_default: Type.Boolean({ description: 'At most one player per account; setting it on one clears it on the others' }),
  provider_homepage_url: Type.Union([Type.String(), Type.Null()]),
  provider_name: Type.String(),
  default_closed_caption_language: Type.String(),
  branding: Branding,
  watermark: Watermark,
  playback: Playback,
  created_at: Timestamp,
  updated_at: Timestamp
})

// Input shapes: any subset; nested objects merge field by field on PATCH.
const BrandingInput = Type.Object({ accent_color: Type.Optional(AccentColor), ...flags(Type.Optional(BooleanInput)) }, { additionalProperties: false })
const WatermarkInput = Type.Object({ click_url: Type.Optional(NullableUrl), alpha: Type.Optional(Alpha), position: Type.Optional(Position) }, { additionalProperties: false })
const PlaybackInput = Type.Object({
  autoplay: Type.Optional(BooleanInput),
  loop: Type.Optional(BooleanInput),
  buffer_on_pause: Type.Optional(BooleanInput)
}, { additionalProperties: false })

const optionalFields = {
  is_default: Type.Optional(BooleanInput),
  provider_homepage_url: Type.Optional(NullableUrl),
  provider_name: Type.Optional(Text),
  default_closed_caption_language: Type.Optional(Language),
  branding: Type.Optional(BrandingInput),
  watermark: Type.Optional(WatermarkInput),
  playback: Type.Optional(PlaybackInput)
}

export const CreatePlayerBody = Type.Object({ name: Name, ...optionalFields }, { additionalProperties: false })
export const UpdatePlayerBody = Type.Object({ name: Type.Optional(Name), ...optionalFields }, { additionalProperties: false })
export const ReplacePlayerBody = CreatePlayerBody

const MetadataValue = Type.String({ maxLength: MAX_METADATA_VALUE })
export const Metadata = Type.Record(Type.String(), Type.String(), { description: 'At most 100 name/value string pairs' })
export const ReplaceMetadataBody = Type.Record(Type.String(), MetadataValue)
export const PatchMetadataBody = Type.Record(Type.String(), Type.Union([MetadataValue, Type.Null()]), { description: 'A null value removes the name' })

export const PlayerParams = Type.Object({ player_id: Type.String() })
export const PlayersQuery = PageQuery
export const PlayerQuery = Type.Object(SignedQuery)
export const PlayersPage = pageOf(Player)
export const PlayerErrors = SignedErrors
export { Empty }
