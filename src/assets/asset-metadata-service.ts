import { validationError } from '../errors/api-error.ts'
import type { Auth } from '../http/request-types.ts'
import { assertPlainText } from './asset-input.ts'
import { findAsset, updateAsset } from './asset-writes.ts'
import type { AssetsContext } from './assets-context.ts'

/** Custom metadata of an asset (product.md §8, backlot-api.md §1.3): string pairs, read and written whole or merged. */

export const METADATA_LIMITS = { entries: 100, nameLength: 128, valueLength: 2048 } as const
const METADATA_NAME = /^[A-Za-z0-9\-_!@#$%&^*().?]{1,128}$/

type Metadata = Record<string, string>

export async function getMetadata (ctx: AssetsContext, auth: Auth, ref: string): Promise<Metadata> {
  const asset = await findAsset(ctx, auth, ref)
  return toObject(await ctx.parts.metadataOf(auth.accountId, [asset.id]))
}

/** PUT: the body becomes the whole metadata. */
export async function replaceMetadata (ctx: AssetsContext, auth: Auth, ref: string, body: Metadata): Promise<Metadata> {
  const next = checked(body)
  await updateAsset(ctx, auth, ref, async (trx, before) => {
    await ctx.parts.replaceMetadata(auth.accountId, before.id, next, trx)
    return {}
  })
  return next
}

/** PATCH: merges the body; a null value removes that name. */
export async function mergeMetadata (ctx: AssetsContext, auth: Auth, ref: string, body: Record<string, string | null>): Promise<Metadata> {
  const changes = Object.fromEntries(Object.entries(body).filter((entry): entry is [string, string] => entry[1] !== null))
  checked(changes)
  let next: Metadata = {}
  await updateAsset(ctx, auth, ref, async (trx, before) => {
    const current = toObject(await ctx.parts.metadataOf(auth.accountId, [before.id], trx))
    for (const [name, value] of Object.entries(body)) {
      if (value === null) delete current[name]
      else current[name] = value
    }
    next = checked(current)
    await ctx.parts.replaceMetadata(auth.accountId, before.id, next, trx)
    return {}
  })
  return next
}

export async function deleteMetadata (ctx: AssetsContext, auth: Auth, ref: string): Promise<Record<string, never>> {
  await updateAsset(ctx, auth, ref, async (trx, before) => {
    await ctx.parts.replaceMetadata(auth.accountId, before.id, {}, trx)
    return {}
  })
  return {}
}

/** Names from the allowed alphabet, plain-text values, and at most 100 entries. Lengths of values are checked by the schema. */
function checked (metadata: Metadata): Metadata {
  for (const [name, value] of Object.entries(metadata)) {
    if (!METADATA_NAME.test(name)) {
      const message = `Metadata name '${name}' is invalid: use 1 to ${METADATA_LIMITS.nameLength} of the characters A-Z a-z 0-9 - _ ! @ # $ % & ^ * ( ) . ?`
      throw validationError(`${message}.`, { [name]: [message] })
    }
    assertPlainText(name, value)
  }
  if (Object.keys(metadata).length > METADATA_LIMITS.entries) {
    throw validationError(`An asset holds at most ${METADATA_LIMITS.entries} metadata entries.`, { metadata: [`must have at most ${METADATA_LIMITS.entries} entries`] })
  }
  return metadata
}

function toObject (entries: Array<{ name: string, value: string }>): Metadata {
  const out: Metadata = {}
  for (const { name, value } of entries) out[name] = value
  return out
}
