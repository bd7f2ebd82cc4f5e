import { validationError } from '../errors/api-error.ts'

export type Metadata = Record<string, string>

export const MAX_METADATA_ENTRIES = 100
export const MAX_METADATA_NAME = 128
export const MAX_METADATA_VALUE = 2048

/** The metadata-name alphabet of backlot-api.md §1.3 (also what the `where` tokenizer reads after `metadata.`). */
const NAME = /^[A-Za-z0-9\-_!@#$%&^*().?]{1,128}$/

/** PUT: the body replaces every pair. */
export function replacedMetadata (body: Metadata): Metadata {
  return checked({ ...body })
}

/** PATCH: merges the body in; a null value removes that name. */
export function patchedMetadata (current: Metadata, body: Record<string, string | null>): Metadata {
  const next: Metadata = { ...current }
  for (const [name, value] of Object.entries(body)) {
    if (value === null) delete next[name]
    else next[name] = value
  }
  for (const name of Object.keys(body)) assertName(name)
  return checked(next)
}

export function parseMetadata (text: string): Metadata {
  return JSON.parse(text) as Metadata
}

function checked (metadata: Metadata): Metadata {
  for (const name of Object.keys(metadata)) assertName(name)
  if (Object.keys(metadata).length > MAX_METADATA_ENTRIES) {
    throw validationError(`Metadata may hold at most ${MAX_METADATA_ENTRIES} entries.`, { metadata: [`must have at most ${MAX_METADATA_ENTRIES} entries`] })
  }
  return metadata
}

function assertName (name: string): void {
  if (!NAME.test(name)) {
    const message = `must be 1–${MAX_METADATA_NAME} characters long, using only letters, digits and the characters -_!@#$%&^*().?`
    throw validationError(`Metadata name ${JSON.stringify(name)} ${message}`, { [name]: [message] })
  }
}
