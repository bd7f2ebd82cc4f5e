import type { Static } from 'typebox'
import { validationError } from '../errors/api-error.ts'
import { toBoolean } from '../http/schemas.ts'
import type { SyndicationChanges, SyndicationRow } from './syndications-repository.ts'
import type { CreateSyndicationBody, UpdateSyndicationBody } from './syndications-schemas.ts'

export type CreateSyndicationInput = Static<typeof CreateSyndicationBody>
export type UpdateSyndicationInput = Static<typeof UpdateSyndicationBody>

/** Column changes plus, when given, the new `include_labels`. */
export interface SyndicationWrite {
  changes: SyndicationChanges
  labelIds: string[] | undefined
}

/**
 * PATCH (`mode: 'patch'`) keeps what is not given; POST and PUT (`'replace'`) return every field not
 * given to its default: all content, every asset type, no labels, no access key.
 */
export function syndicationWrite (input: UpdateSyndicationInput, mode: 'patch' | 'replace'): SyndicationWrite {
  const replace = mode === 'replace'
  const changes: SyndicationChanges = {}
  const set = <K extends keyof SyndicationChanges>(key: K, value: SyndicationChanges[K] | undefined, fallback: SyndicationChanges[K]): void => {
    if (value !== undefined) changes[key] = value
    else if (replace) changes[key] = fallback
  }
  set('name', input.name, undefined)
  set('type', input.type, undefined)
  set('include_all_content', input.include_all_content === undefined ? undefined : Number(toBoolean(input.include_all_content)), 1)
  set('asset_types', input.asset_types === undefined ? undefined : JSON.stringify([...new Set(input.asset_types)]), '[]')
  set('title', input.title, '')
  set('description', plainText(input.description), '')
  set('keywords', input.keywords, null)
  set('author', input.author, null)
  set('category', input.category, null)
  set('require_access_key', input.require_access_key === undefined ? undefined : Number(toBoolean(input.require_access_key)), 0)
  const labelIds = input.include_labels === undefined ? (replace ? [] : undefined) : [...new Set(input.include_labels)]
  return { changes, labelIds }
}

export function newSyndicationRow (input: CreateSyndicationInput, id: string, now: string): { row: Omit<SyndicationRow, 'account_id'>, labelIds: string[] } {
  const { changes, labelIds } = syndicationWrite(input, 'replace')
  return { row: { ...(changes as Required<SyndicationChanges>), id, created_at: now, updated_at: now }, labelIds: labelIds ?? [] }
}

// Descriptions may span lines; other control characters (and NUL, which PostgreSQL text cannot hold) are refused.
function plainText (value: string | undefined): string | undefined {
  if (value !== undefined && /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(value)) {
    throw validationError('Field description must not contain control characters other than tabs and line breaks.', { description: ['must not contain control characters'] })
  }
  return value
}
