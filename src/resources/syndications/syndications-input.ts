import { toBoolean } from '../../http/schemas.ts'
import { assertPlainText } from '../kit/plain-text.ts'
import type { WriteMode } from '../kit/write-mode.ts'
import type { SyndicationChanges } from './syndications-repository.ts'
import type { UpdateSyndicationInput } from './syndications-schemas.ts'

/** Column changes plus, when given, the new `include_labels`. */
export interface SyndicationWrite {
  changes: SyndicationChanges
  labelIds: string[] | undefined
}

/**
 * PATCH (`merge`) keeps what is not given; POST and PUT (`replace`) return every field not given to
 * its default: all content, every asset type, no labels, no access key.
 */
export function syndicationWrite (input: UpdateSyndicationInput, mode: WriteMode): SyndicationWrite {
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
  if (input.description !== undefined) assertPlainText('description', input.description)
  set('description', input.description, '')
  set('keywords', input.keywords, null)
  set('author', input.author, null)
  set('category', input.category, null)
  set('require_access_key', input.require_access_key === undefined ? undefined : Number(toBoolean(input.require_access_key)), 0)
  const labelIds = input.include_labels === undefined ? (replace ? [] : undefined) : [...new Set(input.include_labels)]
  return { changes, labelIds }
}
