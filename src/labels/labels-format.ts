import type { LabelRow } from './labels-repository.ts'

export interface ApiLabel {
  id: string
  name: string
  parent_id: string | null
  full_name: string
}

/** The one mapping from a labels row to its API shape (product.md §8: `{id, name, parent_id, full_name}`). */
export function toApiLabel (row: LabelRow): ApiLabel {
  return { id: row.id, name: row.name, parent_id: row.parent_id, full_name: row.full_name }
}
