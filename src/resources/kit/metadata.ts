import { Type } from 'typebox'
import { validationError } from '../../errors/api-error.ts'
import { assertPlainText } from './plain-text.ts'
import type { WriteMode } from './write-mode.ts'

/**
 * Custom metadata, the sub-resource assets and players share: at most 100 string pairs, names of 1–128
 * characters from a fixed alphabet (the one the `where` language reads after `metadata.`), values of at
 * most 2,048 characters of plain text. PUT replaces every pair, PATCH merges and a null value removes a
 * name, DELETE removes them all.
 */
export type Metadata = Record<string, string>
export type MetadataPatch = Record<string, string | null>

export const METADATA_LIMITS = { entries: 100, nameLength: 128, valueLength: 2048 } as const
const NAME = /^[A-Za-z0-9\-_!@#$%&^*().?]{1,128}$/

export const MetadataSchema = Type.Record(Type.String(), Type.String(), {
  description: `At most ${METADATA_LIMITS.entries} name/value string pairs`,
  examples: [{ sport: 'football', season: '2026' }]
})
const MetadataValue = Type.String({ maxLength: METADATA_LIMITS.valueLength })
export const MetadataBody = Type.Record(Type.String(), MetadataValue, { description: 'Replaces every pair', examples: [{ sport: 'football', season: '2026' }] })
export const MetadataPatchBody = Type.Record(Type.String(), Type.Union([MetadataValue, Type.Null()]), {
  description: 'Merged into the pairs; a null value removes the name',
  examples: [{ season: '2027', sport: null }]
})

/**
 * The metadata after a write: `body` replaces `current` or merges into it. `owner` names the resource
 * in the error a 101st entry gets ("An asset").
 */
export function writtenMetadata (current: Metadata, body: MetadataPatch, mode: WriteMode, owner: string): Metadata {
  const next = new Map<string, string>(mode === 'merge' ? Object.entries(current) : [])
  for (const [name, value] of Object.entries(body)) {
    assertName(name)
    if (value === null) next.delete(name)
    else next.set(name, value)
  }
  return checked(next, owner)
}

/** A metadata object from stored pairs, in name order. */
export function metadataOf (pairs: Iterable<readonly [string, string]>): Metadata {
  return Object.fromEntries([...pairs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
}

function checked (metadata: Map<string, string>, owner: string): Metadata {
  for (const [name, value] of metadata) assertPlainText(name, value)
  if (metadata.size > METADATA_LIMITS.entries) {
    throw validationError(`${owner} holds at most ${METADATA_LIMITS.entries} metadata entries.`, { metadata: [`must have at most ${METADATA_LIMITS.entries} entries`] })
  }
  return metadataOf(metadata)
}

function assertName (name: string): void {
  if (!NAME.test(name)) {
    const message = `Metadata name '${name}' is invalid: use 1 to ${METADATA_LIMITS.nameLength} of the characters A-Z a-z 0-9 - _ ! @ # $ % & ^ * ( ) . ?`
    throw validationError(`${message}.`, { [name]: [message] })
  }
}
